import type { Context } from 'hono';
import { errors } from './errors.js';

/**
 * The answer to a request no route takes: 405 Method Not Allowed, with an Allow header, when the app
 * serves the path with other methods (`PUT /consumers`, `DELETE /token`); else 404. Only refused
 * requests pay for the check: a few lookups in the app's router, which answers them from the table
 * it built for the first request.
 */

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** An entry of a router match: the handler added with the route it belongs to (hono's RouterRoute). */
type Matched = [[unknown, { method: string; path: string }], unknown];

/**
 * A pass-through served on a parameter that takes slashes (`banking/:custom_path{.+}`, the custom
 * routes) does not make every path below it one the sandbox serves: a mistyped read there is a 404,
 * not a 405 naming the pass-through's method.
 */
const catchAll = (path: string) => path.includes('{.+}');

interface RoutedApp {
  router: { match(method: string, path: string): [Matched[], ...unknown[]] };
}

/** The methods `app` serves `path` with, in the Allow header's order (GET brings HEAD); [] for none. */
export function allowedMethods(app: RoutedApp, path: string): string[] {
  const allowed: string[] = [];
  for (const method of METHODS) {
    // Middleware matches every path under the method ALL: only a route of this method counts.
    const matched = app.router.match(method, path)[0];
    if (matched.some(([[, route]]) => route.method === method && !catchAll(route.path))) {
      allowed.push(method);
      if (method === 'GET') allowed.push('HEAD');
    }
  }
  return allowed;
}

/** The app's notFound handler. */
export function notFoundOrNotAllowed(app: RoutedApp) {
  return (c: Context): Response => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length === 0) return c.json(errors.notFound().toBody(), 404);
    return c.json(errors.methodNotAllowed(c.req.method, allowed).toBody(), 405, {
      Allow: allowed.join(', '),
    });
  };
}
