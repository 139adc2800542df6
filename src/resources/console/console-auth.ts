import { createHmac } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { AppEnv } from '../../context.js';
import { isAdmin, sameSecret } from '../../lib/access.js';
import { type Html, page } from './layout.js';

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

/** The origins the sandbox answers on for this request: its own, and the configured public one. */
function ownOrigins(c: Context<AppEnv>): string[] {
  const origins = [new URL(c.req.url).origin];
  const publicUrl = c.get('config').publicUrl;
  if (publicUrl) {
    try {
      origins.push(new URL(publicUrl).origin);
    } catch {
      // not a url: only the request's own origin counts
    }
  }
  return origins;
}

/**
 * A POST from another site is refused: a present Origin must be one of the sandbox's own, and a
 * browser that says the request is cross-site (Sec-Fetch-Site) is believed. Clients that send
 * neither (curl, tests) are let through: they hold the admin token when one is needed.
 */
export function isCrossSite(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin');
  if (origin !== undefined && !ownOrigins(c).includes(origin)) return true;
  return c.req.header('sec-fetch-site') === 'cross-site';
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
 * In front of every console route but its assets and the login form: cross-site POSTs are refused
 * (403), and a request without the admin token gets the login form (401).
 */
export const consoleGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = c.req.path;
  if (path.startsWith('/console/assets/')) return next();
  if (c.req.method === 'POST' && isCrossSite(c)) {
    return c.html(
      page(
        { title: 'Refused' },
        html`<p>This change came from another site: the console takes changes only from its own pages.</p>`,
      ),
      403,
    );
  }
  if (path === '/console/login') return next();
  if (!hasConsoleAccess(c)) {
    const wanted = c.req.method === 'GET' ? `${path}${new URL(c.req.url).search}` : '/console';
    return c.html(loginPage(safeNext(wanted)), 401);
  }
  return next();
};
