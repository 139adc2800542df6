import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * Cross-origin access, so that a page served from another origin (a front end in development, a
 * browser test) can call the sandbox with fetch: `'*'` lets every origin in, a list (or a string of
 * origins separated by commas) only those, and `null`, `false` or an empty list none (no CORS header
 * at all, as before). The default is every origin on loopback (`createApp`, and `startSandbox` on a
 * loopback host) and none beyond it.
 */
export type CorsOrigins = string | readonly string[] | null | false;

/** What the setting allows: every origin, some, or none. */
export type CorsPolicy = '*' | readonly string[] | null;

/**
 * Response headers a page may read beyond the ones every browser shows: the Allow of a 405, the
 * headers a client may want to check on an answer, and those a browser-based MCP client needs (the
 * session id of /mcp, and the challenge of its 401 that starts the OAuth discovery).
 */
export const CORS_EXPOSED_HEADERS = [
  'allow',
  'content-disposition',
  'mcp-protocol-version',
  'mcp-session-id',
  'www-authenticate',
  'retry-after',
  'x-chift-client-requestid',
  'x-chift-connectionid',
  'x-sandbox-fault',
];

/** How long a browser may keep a preflight's answer, in seconds. */
export const CORS_MAX_AGE = 600;

/** The policy of a setting; an origin that is not `scheme://host[:port]` is refused (TypeError). */
export function corsPolicy(origins: CorsOrigins | undefined): CorsPolicy {
  if (origins === undefined) return '*';
  if (origins === null || origins === false) return null;
  const list = (typeof origins === 'string' ? origins.split(',') : [...origins])
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (list.length === 0) return null;
  if (list.includes('*')) return '*';
  return [
    ...new Set(
      list.map((origin) => {
        // A setting may end with a slash (`http://localhost:5173/`); an Origin header never does.
        const key = originKey(origin.replace(/\/$/, ''));
        if (key === null) throw new TypeError(`'${origin}' is not an origin (scheme://host[:port])`);
        return key;
      }),
    ),
  ];
}

/**
 * An origin as one spelling: `scheme://host[:port]` in lowercase, IPv6 compressed, the default port
 * and a trailing dot of the host left out (`HTTP://App.Example.:80` is `http://app.example`). Null
 * for what names no origin a page can have: `null` (an opaque origin, in any case), a malformed
 * value, or one with a path (a trailing slash included), query, fragment or user information.
 */
export function originKey(value: string): string | null {
  if (!ORIGIN_TEXT.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.origin === 'null' || url.username !== '' || url.password !== '') return null;
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  return url.origin;
}

/** `scheme://host[:port]` and nothing after it (linear: one class, no nesting). */
const ORIGIN_TEXT = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i;

/** Whether an Origin header is one the policy lets in, whatever its spelling (see originKey). */
export function corsAllows(policy: CorsPolicy, origin: string): boolean {
  if (policy === null) return false;
  const key = originKey(origin);
  return key !== null && (policy === '*' || policy.includes(key));
}

/**
 * The CORS step of an app (null when the policy lets no origin in). It acts only on requests that
 * carry an Origin header (browsers'); a preflight (OPTIONS with Access-Control-Request-Method) is
 * answered 204 with the methods and the headers it asks for (any: the SDK's X-Chift-* headers,
 * authorization, content-type...), before any other step. Every other request goes on, and its
 * answer, errors included, carries Access-Control-Allow-Origin when the origin is let in.
 */
export function corsStep(policy: CorsPolicy): MiddlewareHandler | null {
  if (policy === null) return null;
  const handle = cors({
    // A listed origin answers with the Origin as the browser sent it, whatever its spelling.
    origin: policy === '*' ? '*' : (origin) => (corsAllows(policy, origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // Empty: the headers the preflight asks for are allowed.
    allowHeaders: [],
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE,
  });
  return (c, next) => {
    const headers = c.req.raw.headers;
    if (!headers.has('origin')) return next();
    // An OPTIONS that is no preflight is an ordinary request (answered 405 with Allow).
    if (c.req.method === 'OPTIONS' && !headers.has('access-control-request-method')) return next();
    return handle(c, next);
  };
}
