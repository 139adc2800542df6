import { createHmac } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { isAdmin, sameSecret } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { type Html, page } from './layout.js';
import { formOf } from './scope.js';

/**
 * The console is a control surface: it obeys the admin token as the /__sandbox endpoints do (open
 * when none is configured). A browser cannot send a bearer header, so a small login form sets a
 * cookie instead; either is accepted. The cookie holds an HMAC of the token, not the token, so that
 * it is worth nothing once the sandbox runs with another token.
 */

export const CONSOLE_COOKIE = 'sandbox_console';

/** The value of the console's cookie for an admin token. */
export const sessionValue = (adminToken: string): string =>
  createHmac('sha256', adminToken).update('unified-api-sandbox console session').digest('base64url');

/** Whether the request may use the console: no admin token, or the token (bearer or cookie). */
export function hasConsoleAccess(c: Context<AppEnv>): boolean {
  const expected = c.get('config').adminToken;
  if (expected === null || isAdmin(expected, c.req.header('authorization'))) return true;
  const cookie = getCookie(c, CONSOLE_COOKIE);
  return cookie !== undefined && sameSecret(cookie, sessionValue(expected));
}

/** The name of the hidden field that carries the console's form token. */
export const FORM_TOKEN_FIELD = '_csrf';

/**
 * The form token of the caller, keyed by a value drawn at random when the app (each world's app its
 * own) was created, that only the console's own pages hold: one for those who may use the console,
 * another for a visitor, whose only form is the login. So the login page, which anyone may load,
 * hands out no token that changes anything. It travels in POST bodies only: never in a url, and the
 * console's requests are not journaled.
 */
function formTokenOf(c: Context<AppEnv>): string {
  const audience = hasConsoleAccess(c) ? 'console' : 'login';
  return createHmac('sha256', c.get('secrets').consoleForm).update(audience).digest('base64url');
}

/**
 * Whether a console POST carries the caller's form token. Origin and Sec-Fetch-Site are checked
 * before routing (platform/request-policy.ts); the token is what a POST without them (a webhook
 * delivery, a script, an old browser) cannot forge, whatever its headers say. Compared in constant
 * time.
 */
async function carriesFormToken(c: Context<AppEnv>): Promise<boolean> {
  const form = await formOf(c);
  const given = form[FORM_TOKEN_FIELD];
  return typeof given === 'string' && sameSecret(given, formTokenOf(c));
}

const POST_FORM = /<form method="post"[^>]*>/g;

/** Every POST form of a console page gets the token, in one place, whatever built the form. */
async function withFormToken(c: Context<AppEnv>): Promise<void> {
  const type = c.res.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html')) return;
  const text = await c.res.text();
  const field = `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${formTokenOf(c)}">`;
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  c.res = new Response(
    text.replace(POST_FORM, (tag) => `${tag}${field}`),
    { status: c.res.status, headers },
  );
}

/** Only a path of the console itself is a place to go back to after logging in. */
export function safeNext(value: string | undefined): string {
  if (value === undefined || /[\\\s]/.test(value)) return '/console';
  const inside = value === '/console' || value.startsWith('/console/') || value.startsWith('/console?');
  return inside ? value : '/console';
}

export function loginPage(next: string, error?: string): Html {
  return page(
    { title: 'Log in', error },
    html`<p>This sandbox runs with an admin token: the console, like the <code>/__sandbox</code> control
      endpoints, needs it. It is the <code>--admin-token</code> (or <code>SANDBOX_ADMIN_TOKEN</code>) the
      sandbox was started with.</p>
    <form method="post" action="/console/login" class="stack">
      <input type="hidden" name="next" value="${next}">
      <label for="token">Admin token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
      <button type="submit">Log in</button>
    </form>`,
  );
}

/**
 * In front of every console route but its assets: a POST without the form token is refused (403),
 * a request without the admin token gets the login form (401), and every page's forms carry the token.
 */
export const consoleGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = c.req.path;
  if (path.startsWith('/console/assets/')) return next();
  if (c.req.method === 'POST' && !(await carriesFormToken(c))) {
    c.res = await c.html(
      page(
        { title: 'Refused' },
        html`<p>This change did not come from a page of this console (its form token is missing or
          stale): go back to the console, reload the page and try again.</p>`,
      ),
      403,
    );
    return;
  }
  if (path !== '/console/login' && !hasConsoleAccess(c)) {
    const wanted = c.req.method === 'GET' ? `${path}${new URL(c.req.url).search}` : '/console';
    c.res = await c.html(loginPage(safeNext(wanted)), 401);
  } else {
    await next();
  }
  await withFormToken(c);
};
