import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { ApiError } from '../../lib/errors.js';
import { requireImage } from '../../modules/integrations/index.js';
import { sameSecret } from '../../platform/access.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { armFailureForm, automationBody, disarmFailures } from './automation.js';
import {
  CONSOLE_COOKIE,
  consoleGuard,
  hasConsoleAccess,
  loginPage,
  safeNext,
  sessionValue,
} from './console-auth.js';
import { consumerBody, consumersBody } from './consumers.js';
import { integrationsBody } from './integrations.js';
import { type Html, type NavEntry, page } from './layout.js';
import { changeClock, dotenvLines, overviewBody, reset } from './overview.js';
import { reportBody, requestEntryBody } from './report.js';
import { clearJournal, newRequestRows, requestsBody } from './requests.js';
import { flash, formOf } from './scope.js';
import type { ConsoleOptions } from './sections.js';
import { changePace, timelineBody } from './timeline.js';
import { redeliver, webhooksBody } from './webhooks.js';

export { sessionValue } from './console-auth.js';
export { type McpSessionSource, mcpSessionsSection } from './mcp-sessions.js';
export type { ConsoleOptions, ConsoleSection } from './sections.js';

/** The console's assets (its style, script and the integrations' logos), and its sign-in and sign-out. */
function registerAssetsAndSignIn(app: OpenAPIHono<AppEnv>): void {
  app.get('/console/assets/console.css', (c) =>
    c.body(CONSOLE_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' }),
  );
  app.get('/console/assets/console.js', (c) =>
    c.body(CONSOLE_JS, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
    }),
  );
  // The logos as GET /integrations/{id}/logo.png serves them, from the console's own path so that
  // showing a page records nothing in the request journal.
  app.get('/console/assets/logos/:file{[0-9]{1,9}\\.png}', (c) => {
    const id = Number(c.req.param('file').slice(0, -4));
    try {
      const data = requireImage(c.get('catalogue'), id, 'logo');
      return c.body(new Uint8Array(Buffer.from(data, 'base64')), 200, {
        'content-type': 'image/png',
        'cache-control': 'public, max-age=3600',
      });
    } catch (error) {
      if (error instanceof ApiError) return c.body(null, 404);
      throw error;
    }
  });

  app.get('/console/login', (c) => {
    if (c.get('config').adminToken === null || hasConsoleAccess(c)) {
      return c.redirect(safeNext(c.req.query('next')), 303);
    }
    return c.html(loginPage(safeNext(c.req.query('next'))), 200);
  });
  app.post('/console/login', async (c) => {
    const expected = c.get('config').adminToken;
    const form = await formOf(c);
    const next = safeNext(typeof form.next === 'string' ? form.next : undefined);
    if (expected === null) return c.redirect(next, 303);
    const token = typeof form.token === 'string' ? form.token : '';
    if (!sameSecret(token, expected)) {
      return c.html(loginPage(next, 'That is not the admin token of this sandbox.'), 401);
    }
    setCookie(c, CONSOLE_COOKIE, sessionValue(expected), {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/console',
    });
    return c.redirect(next, 303);
  });
  app.post('/console/logout', (c) => {
    deleteCookie(c, CONSOLE_COOKIE, { path: '/console' });
    return c.redirect('/console/login', 303);
  });
}

/**
 * The sandbox console at /console: server-rendered pages of what the sandbox holds (consumers,
 * connections, webhooks and their deliveries, the request journal, the automation) and forms for the
 * control changes (clock, reset, redeliver). Every page reads through the API's own domain functions,
 * and every change is a POST handled by the control endpoints' domain functions, inside the app's
 * write boundary, then a 303 back to the page. Plain routes: not in the OpenAPI document. Console
 * requests are not recorded in the request journal (requests.ts, isRecordedPath).
 */
export function registerConsole(app: OpenAPIHono<AppEnv>, options: ConsoleOptions = {}): void {
  const sections = options.sections ?? [];
  const extraNav: NavEntry[] = sections.map(({ path, title }) => ({ path, title }));

  const render = async (
    c: Context<AppEnv>,
    current: string,
    title: string,
    body: Html | Promise<Html>,
    status: 200 | 404 = 200,
  ) => {
    const { notice, error } = flash(c);
    const loggedIn = c.get('config').adminToken !== null;
    return c.html(page({ title, current, extraNav, notice, error, loggedIn }, await body), status);
  };
  /** After a change: back to the page it came from, with what happened in the query string. */
  const back = (c: Context<AppEnv>, to: string, message: string) =>
    c.redirect(`${to}${to.includes('?') ? '&' : '?'}${message}`, 303);

  app.use('/console', consoleGuard);
  app.use('/console/*', consoleGuard);

  registerAssetsAndSignIn(app);

  app.get('/console', (c) => render(c, '/console', 'Overview', overviewBody(c)));
  app.get('/console/env', (c) =>
    c.text(`${dotenvLines(c)}\n`, 200, { 'content-disposition': 'inline; filename="sandbox.env"' }),
  );
  app.post('/console/clock', async (c) => back(c, '/console', await changeClock(c)));
  app.post('/console/reset', async (c) => back(c, '/console', await reset(c)));

  app.get('/console/consumers', (c) => render(c, '/console/consumers', 'Consumers', consumersBody(c)));
  app.get('/console/consumers/:consumer_id', async (c) => {
    const found = await consumerBody(c);
    if (!found) {
      return render(
        c,
        '/console/consumers',
        'Consumer not found',
        html`<p>No consumer has this id.</p>`,
        404,
      );
    }
    return render(c, '/console/consumers', found.title, found.body);
  });

  app.get('/console/integrations', (c) =>
    render(c, '/console/integrations', 'Integrations', integrationsBody(c)),
  );

  app.get('/console/webhooks', (c) => render(c, '/console/webhooks', 'Webhooks', webhooksBody(c)));
  app.post('/console/webhooks/deliveries/:deliveryid/redeliver', async (c) =>
    back(c, '/console/webhooks', await redeliver(c)),
  );

  app.get('/console/requests', (c) => render(c, '/console/requests', 'Requests', requestsBody(c)));
  app.get('/console/requests/rows', async (c) => {
    const { rows, newest } = newRequestRows(c);
    return c.html(await rows, 200, { 'x-console-newest': String(newest), 'cache-control': 'no-store' });
  });
  app.post('/console/requests/clear', (c) => back(c, '/console/requests', clearJournal(c)));
  app.get('/console/requests/:id{req_[0-9]{1,16}}', (c) => {
    const id = c.req.param('id');
    const body = requestEntryBody(c, id);
    if (!body)
      return render(
        c,
        '/console/requests',
        'Request not found',
        html`<p>The journal holds no ${id}.</p>`,
        404,
      );
    return render(c, '/console/requests', id, body);
  });
  app.get('/console/report', (c) =>
    render(
      c,
      '/console/report',
      'Readiness report',
      reportBody(c, (app as unknown as { services: Services }).services),
    ),
  );

  app.get('/console/automation', (c) => render(c, '/console/automation', 'Automation', automationBody(c)));
  app.get('/console/timeline', (c) => render(c, '/console/timeline', 'Timeline', timelineBody(c)));
  app.post('/console/pace', async (c) => back(c, '/console/timeline', await changePace(c)));
  app.post('/console/automation/failures', async (c) =>
    back(c, '/console/automation', await armFailureForm(c)),
  );
  app.post('/console/automation/failures/clear', async (c) =>
    back(c, '/console/automation', await disarmFailures(c)),
  );

  for (const section of sections) {
    app.get(section.path, (c) => render(c, section.path, section.title, section.render(c)));
  }
}
