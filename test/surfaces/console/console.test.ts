import { describe, expect, it } from 'vitest';
import type { SandboxApp } from '../../../src/app.js';
import { CONSUMERS_PER_PAGE } from '../../../src/surfaces/console/consumers.js';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/**
 * The console at /console, in process: every page renders from the API's own domain functions, the
 * changes go through the control endpoints' domain functions, and it obeys the admin token.
 */

const FORM = 'application/x-www-form-urlencoded';
const ADMIN = 'console-admin-token';

/** The form token the console's pages put in their forms, read as a browser gets it: from a page. */
async function formToken(app: SandboxApp, headers: Record<string, string> = {}): Promise<string> {
  const { cookie, authorization } = headers;
  const res = await app.request('/console', {
    headers: { ...(cookie ? { cookie } : {}), ...(authorization ? { authorization } : {}) },
  });
  const token = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1];
  expect(token).toBeDefined();
  return token as string;
}

/**
 * A console request as a browser sends it: HTML pages, and form posts from the console's own pages
 * (with the form token, unless `withoutToken`).
 */
async function consoleRequest(
  app: SandboxApp,
  method: 'GET' | 'POST',
  path: string,
  options: { form?: Record<string, string>; headers?: Record<string, string>; withoutToken?: boolean } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (method === 'POST') {
    const form = options.withoutToken
      ? { ...options.form }
      : { _csrf: await formToken(app, options.headers), ...options.form };
    headers['content-type'] = FORM;
    body = new URLSearchParams(form).toString();
  }
  const res = await app.request(path, { method, headers, body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function clockNow(app: SandboxApp): Promise<number> {
  const res = await call(app, 'GET', '/__sandbox/clock');
  expect(res.status).toBe(200);
  return Date.parse(res.body.now);
}

async function createConsumer(s: TestSandbox, name: string, extra: Record<string, unknown> = {}) {
  const res = await call(s.app, 'POST', '/consumers', {
    token: await sandboxToken(s),
    body: { name, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.consumerid as string;
}

describe('console pages', () => {
  const s = () => sandbox();

  it.each([
    ['/console', 'Sandbox clock'],
    ['/console/consumers', 'Consumers'],
    ['/console/integrations', 'Operation coverage'],
    ['/console/webhooks', 'Deliveries'],
    ['/console/requests', 'Path pattern'],
    ['/console/automation', 'Armed failures'],
    ['/console/report', 'No findings.'],
  ])('%s answers 200 HTML', async (path, marker) => {
    const res = await consoleRequest(s().app, 'GET', path);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain(marker);
    expect(res.text).toContain('<nav aria-label="Console">');
  });

  it('names a webhook fault by what it matches on the requests page', async () => {
    const t = s();
    const armed = await call(t.app, 'POST', '/__sandbox/faults', {
      body: { match: { webhook: { event: 'account.connection.*' } }, effect: { duplicate: 1 } },
    });
    expect(armed.status, armed.text).toBe(200);
    const res = await consoleRequest(t.app, 'GET', '/console/requests');
    expect(res.text).toContain(`${armed.body.id} webhook account.connection.* (fired 0)`);
    expect(res.text).not.toContain('undefined');
  });

  it('shows the readiness report, each finding linking the requests behind it', async () => {
    const t = s();
    const token = await sandboxToken(t);
    const id = t.ids.verticalConsumers.INVOICING as string;
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t.app, 'GET', `/consumers/${id}/invoicing/invoices?page=1&size=5&bogus=<b>`, {
        token,
      });
      expect(res.status).toBe(200);
    }
    const res = await consoleRequest(t.app, 'GET', '/console/report');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<code>partial_list_read</code>');
    expect(res.text).toContain('<a href="/console/requests/req_2">req_2</a>');
    expect(res.text).not.toContain('<b>');
    const entry = await consoleRequest(t.app, 'GET', '/console/requests/req_2');
    expect(entry.status).toBe(200);
    expect(entry.text).toContain(`/consumers/${id}/invoicing/invoices?page=1&amp;size=5`);
    expect((await consoleRequest(t.app, 'GET', '/console/requests/req_99')).status).toBe(404);
  });

  it('shows a consumer with its connections and samples of its vertical data', async () => {
    const t = s();
    const id = t.ids.verticalConsumers.INVOICING as string;
    const res = await consoleRequest(t.app, 'GET', `/console/consumers/${id}`);
    expect(res.status).toBe(200);
    const api = await call(t.app, 'GET', `/consumers/${id}`, { token: await sandboxToken(t) });
    expect(res.text).toContain(api.body.name.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    expect(res.text).toContain(`GET /consumers/${id}/invoicing/invoices`);
    // The link opens the operation in /docs: Swagger UI's deep link, #/<tag>/<operationId>, of the
    // tag the served document gives it.
    const doc = await call(t.app, 'GET', '/openapi.json');
    const [tag] = doc.body.paths['/consumers/{consumer_id}/invoicing/invoices'].get.tags as string[];
    expect(res.text).toContain(`href="/docs#/${tag?.replace(/\s/g, '%20')}/invoicing_get_invoices"`);
    // The first invoice the API lists is the first row of the sample.
    const invoices = await call(t.app, 'GET', `/consumers/${id}/invoicing/invoices?size=1`, {
      token: await sandboxToken(t),
    });
    expect(invoices.status).toBe(200);
    expect(res.text).toContain(invoices.body.items[0].id);
  });

  it('answers 404 for a consumer that does not exist', async () => {
    const res = await consoleRequest(
      s().app,
      'GET',
      '/console/consumers/00000000-0000-4000-8000-000000000000',
    );
    expect(res.status).toBe(404);
    expect(res.text).toContain('Consumer not found');
  });

  it('shows the seeded credentials and the .env lines of the env command', async () => {
    const t = s();
    const res = await consoleRequest(t.app, 'GET', '/console');
    expect(res.text).toContain(t.ids.sandbox.clientId);
    expect(res.text).toContain(t.ids.sandbox.clientSecret);
    expect(res.text).toContain(`SANDBOX_ACCOUNT_ID=${t.ids.accountId}`);
    expect(res.text).toContain(`SANDBOX_SYNC_ID=${t.ids.syncId}`);
    const env = await consoleRequest(t.app, 'GET', '/console/env');
    expect(env.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(env.text).toContain(`SANDBOX_CLIENT_SECRET=${t.ids.sandbox.clientSecret}\n`);
    expect(env.text).toContain('SANDBOX_BASE_URL=http://localhost\n');
  });
});

describe('console consumer search and pages', () => {
  it('searches by name and by internal reference, as GET /consumers does', async () => {
    const t = sandbox();
    const id = await createConsumer(t, 'Zyxwv Unusual Bakery', { internal_reference: 'REF-CONSOLE-1' });
    const byName = await consoleRequest(t.app, 'GET', '/console/consumers?search=zyxwv');
    expect(byName.text).toContain(`/console/consumers/${id}`);
    expect(byName.text).toContain('(1 in all)');
    const byReference = await consoleRequest(
      t.app,
      'GET',
      '/console/consumers?internal_reference=REF-CONSOLE-1',
    );
    expect(byReference.text).toContain(`/console/consumers/${id}`);
    expect(byReference.text).toContain('(1 in all)');
    const none = await consoleRequest(t.app, 'GET', '/console/consumers?search=no-such-consumer-anywhere');
    expect(none.text).toContain('No consumer matches.');
  });

  it('pages on the server: each page holds its slice, in the order of GET /consumers', async () => {
    const t = sandbox();
    const api = await call(t.app, 'GET', '/consumers', { token: await sandboxToken(t) });
    const all = (api.body as { consumerid: string }[]).map((c) => c.consumerid);
    expect(all.length).toBeGreaterThan(CONSUMERS_PER_PAGE);
    const idsOn = (text: string) =>
      [...text.matchAll(/href="\/console\/consumers\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    const first = await consoleRequest(t.app, 'GET', '/console/consumers');
    const second = await consoleRequest(t.app, 'GET', '/console/consumers?page=2');
    expect(idsOn(first.text)).toEqual(all.slice(0, CONSUMERS_PER_PAGE));
    expect(idsOn(second.text)).toEqual(all.slice(CONSUMERS_PER_PAGE, 2 * CONSUMERS_PER_PAGE));
    const pages = Math.ceil(all.length / CONSUMERS_PER_PAGE);
    expect(first.text).toContain(`Page 1 of ${pages} (${all.length} in all)`);
    expect(first.text).toContain('href="/console/consumers?env=');
    // A page past the end shows the last one.
    const past = await consoleRequest(t.app, 'GET', '/console/consumers?page=999');
    expect(past.text).toContain(`Page ${pages} of ${pages}`);
  });
});

describe('console admin token', () => {
  const guarded = () => sandbox({ adminToken: ADMIN });

  it('answers 401 with the login form, not JSON, without the token', async () => {
    const res = await consoleRequest(guarded().app, 'GET', '/console/consumers?search=a');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<form method="post" action="/console/login"');
    expect(res.text).toContain('<label for="token">Admin token</label>');
    expect(res.text).toContain('value="/console/consumers?search=a"');
  });

  it.each([
    ['the bearer token', { authorization: `Bearer ${ADMIN}` }, 200],
    ['a wrong bearer token', { authorization: 'Bearer not-the-token' }, 401],
    ['the token without Bearer', { authorization: ADMIN }, 401],
    ['a forged cookie', { cookie: 'sandbox_console=forged' }, 401],
    ['the raw token as cookie', { cookie: `sandbox_console=${ADMIN}` }, 401],
  ])('with %s answers %i', async (_label, headers, status) => {
    const res = await consoleRequest(guarded().app, 'GET', '/console', { headers });
    expect(res.status).toBe(status);
  });

  it('logs in with a form that sets an HttpOnly, SameSite=Strict cookie', async () => {
    const t = guarded();
    const wrong = await consoleRequest(t.app, 'POST', '/console/login', {
      form: { token: 'nope', next: '/console/webhooks' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(wrong.text).toContain('That is not the admin token');

    const right = await consoleRequest(t.app, 'POST', '/console/login', {
      form: { token: ADMIN, next: '/console/webhooks' },
    });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/console/webhooks');
    const cookie = right.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sandbox_console=[^;]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain(ADMIN);
    const session = cookie.split(';')[0] as string;
    const page = await consoleRequest(t.app, 'GET', '/console/webhooks', { headers: { cookie: session } });
    expect(page.status).toBe(200);
    // The cookie of one token is nothing to a sandbox with another.
    const other = sandbox({ adminToken: `${ADMIN}-other` });
    expect(
      (await consoleRequest(other.app, 'GET', '/console', { headers: { cookie: session } })).status,
    ).toBe(401);
  });

  it('never sends the login back outside the console', async () => {
    const res = await consoleRequest(guarded().app, 'POST', '/console/login', {
      form: { token: ADMIN, next: '//evil.example/console' },
    });
    expect(res.headers.get('location')).toBe('/console');
  });

  it('refuses a change without the token, and leaves the world as it was', async () => {
    const t = guarded();
    const admin = { authorization: `Bearer ${ADMIN}` };
    const before = await call(t.app, 'GET', '/__sandbox/clock', { headers: admin });
    const res = await consoleRequest(t.app, 'POST', '/console/clock', { form: { advance_seconds: '3600' } });
    expect(res.status).toBe(401);
    const after = await call(t.app, 'GET', '/__sandbox/clock', { headers: admin });
    expect(after.body.now).toBe(before.body.now);
  });

  it('hands a visitor a form token that logs in and changes nothing', async () => {
    const t = guarded();
    const visitor = await formToken(t.app);
    const login = await consoleRequest(t.app, 'POST', '/console/login', {
      form: { token: ADMIN, next: '/console', _csrf: visitor },
      withoutToken: true,
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    // The login page's token, posted with the admin's cookie, is refused: it is not the admin's.
    const now = () => t.app.services.clock.now().getTime();
    const before = now();
    const forged = await consoleRequest(t.app, 'POST', '/console/clock', {
      form: { advance_seconds: '3600', _csrf: visitor },
      headers: { cookie },
      withoutToken: true,
    });
    expect(forged.status).toBe(403);
    expect(now()).toBe(before);
    // The admin's own pages carry the token that works.
    const admin = await formToken(t.app, { cookie });
    expect(admin).not.toBe(visitor);
    const moved = await consoleRequest(t.app, 'POST', '/console/clock', {
      form: { advance_seconds: '3600', _csrf: admin },
      headers: { cookie },
      withoutToken: true,
    });
    expect(moved.status).toBe(303);
    expect(now()).toBe(before + 3600_000);
  });

  it("a world's form token is worth nothing in another world or the default one", async () => {
    const s = sandbox();
    const worlds = [];
    for (const _ of [1, 2]) {
      const res = await s.app.request('/__sandbox/worlds', { method: 'POST' });
      worlds.push((await res.json()) as { id: string; control_token: string });
    }
    const [a, b] = worlds as [{ id: string; control_token: string }, { id: string; control_token: string }];
    const pageOf = async (id: string, bearer: string) => {
      const res = await s.app.request(`/console?world=${id}`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      return /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] as string;
    };
    const tokenOfA = await pageOf(a.id, a.control_token);
    const post = (id: string, bearer: string, csrf: string) =>
      s.app.request('/console/reset', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          cookie: `sandbox_world=${id}`,
          'content-type': FORM,
        },
        body: new URLSearchParams({ _csrf: csrf }).toString(),
        redirect: 'manual',
      });
    expect((await post(b.id, b.control_token, tokenOfA)).status).toBe(403);
    expect(
      (
        await consoleRequest(s.app, 'POST', '/console/reset', {
          form: { _csrf: tokenOfA },
          withoutToken: true,
        })
      ).status,
    ).toBe(403);
    expect((await post(a.id, a.control_token, tokenOfA)).status).toBe(303);
  });

  it('leaves the console open when no admin token is configured', async () => {
    expect((await consoleRequest(sandbox().app, 'GET', '/console')).status).toBe(200);
  });
});

describe('console changes', () => {
  it.each([
    ['+1 hour', { advance_seconds: '3600' }, 3600_000],
    ['+1 day', { advance_seconds: '86400' }, 86_400_000],
  ])('the %s form moves the clock as GET /__sandbox/clock sees it', async (_label, form, delta) => {
    const t = sandbox();
    const before = await clockNow(t.app);
    const res = await consoleRequest(t.app, 'POST', '/console/clock', { form });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/console\?notice=/);
    expect(await clockNow(t.app)).toBe(before + delta);
  });

  it('sets the clock to an instant, and refuses one that is not a date-time', async () => {
    const t = sandbox();
    const set = await consoleRequest(t.app, 'POST', '/console/clock', {
      form: { now: '2027-03-04T05:06:07Z' },
    });
    expect(set.status).toBe(303);
    expect(await clockNow(t.app)).toBe(Date.parse('2027-03-04T05:06:07Z'));
    const bad = await consoleRequest(t.app, 'POST', '/console/clock', { form: { now: 'tomorrow' } });
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toMatch(/^\/console\?error=/);
    expect(await clockNow(t.app)).toBe(Date.parse('2027-03-04T05:06:07Z'));
    const page = await consoleRequest(t.app, 'GET', bad.headers.get('location') as string);
    expect(page.text).toContain('role="alert"');
  });

  it('arms a failure with the control endpoint’s rules, lists it, and disarms every one', async () => {
    const t = sandbox();
    const consumer = t.ids.verticalConsumers.ACCOUNTING as string;
    const failures = async () => (await call(t.app, 'GET', '/__sandbox/failures')).body as unknown[];
    // Neither a flow nor a consumer: the endpoint's own refusal, nothing armed.
    const refused = await consoleRequest(t.app, 'POST', '/console/automation/failures', {
      form: { flowid: '', consumerid: '', count: '2', error_code: 'ERROR_X', level: 'error' },
    });
    expect(refused.status).toBe(303);
    expect(decodeURIComponent(refused.headers.get('location') ?? '')).toContain(
      'Give a flowid, a consumerid, or both',
    );
    expect(await failures()).toEqual([]);
    const armed = await consoleRequest(t.app, 'POST', '/console/automation/failures', {
      form: { consumerid: consumer, count: '2', error_code: 'ERROR_AUTHENTICATION_FAILED', level: 'warning' },
    });
    expect(armed.headers.get('location')).toMatch(/^\/console\/automation\?notice=/);
    expect(await failures()).toEqual([
      expect.objectContaining({ consumerid: consumer, remaining: 2, level: 'warning', flowid: null }),
    ]);
    const page = await consoleRequest(t.app, 'GET', '/console/automation');
    expect(page.text).toContain('ERROR_AUTHENTICATION_FAILED');
    const cleared = await consoleRequest(t.app, 'POST', '/console/automation/failures/clear');
    expect(decodeURIComponent(cleared.headers.get('location') ?? '')).toContain('Disarmed 1 failure');
    expect(await failures()).toEqual([]);
  });

  it('goes back to system time', async () => {
    const t = sandbox();
    await consoleRequest(t.app, 'POST', '/console/clock', { form: { now: '2030-01-01T00:00:00Z' } });
    const res = await consoleRequest(t.app, 'POST', '/console/clock', { form: { system: '1' } });
    expect(res.status).toBe(303);
    expect(Math.abs((await clockNow(t.app)) - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a cross-origin POST and changes nothing', async () => {
    const t = sandbox();
    const before = await clockNow(t.app);
    const res = await consoleRequest(t.app, 'POST', '/console/clock', {
      form: { advance_seconds: '3600' },
      headers: { origin: 'http://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(await clockNow(t.app)).toBe(before);
    const fetchSite = await consoleRequest(t.app, 'POST', '/console/reset', {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchSite.status).toBe(403);
    // The console's own origin is let through.
    const own = await consoleRequest(t.app, 'POST', '/console/clock', {
      form: { advance_seconds: '60' },
      headers: { origin: 'http://localhost' },
    });
    expect(own.status).toBe(303);
    expect(await clockNow(t.app)).toBe(before + 60_000);
  });

  it('reset puts back a deleted consumer, as the API sees it', async () => {
    const t = sandbox();
    const token = await sandboxToken(t);
    const id = t.ids.verticalConsumers.ACCOUNTING as string;
    expect((await call(t.app, 'DELETE', `/consumers/${id}`, { token })).status).toBe(204);
    expect((await call(t.app, 'GET', `/consumers/${id}`, { token })).status).toBe(404);
    const res = await consoleRequest(t.app, 'POST', '/console/reset');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/console\?notice=/);
    expect((await call(t.app, 'GET', `/consumers/${id}`, { token: await sandboxToken(t) })).status).toBe(200);
  });
});

describe('console escaping', () => {
  it('renders a consumer named <script> as text', async () => {
    const t = sandbox();
    const name = '<script>alert(1)</script>';
    const id = await createConsumer(t, name, { internal_reference: '"><img src=x onerror=alert(2)>' });
    for (const path of ['/console/consumers?search=alert', `/console/consumers/${id}`]) {
      const res = await consoleRequest(t.app, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(res.text).not.toContain('<script>alert(1)');
      expect(res.text).not.toContain('<img src=x');
    }
    // The search text itself goes back into the form escaped.
    const echoed = await consoleRequest(t.app, 'GET', '/console/consumers?search=%22%3E%3Cb%3Ex');
    expect(echoed.text).toContain('value="&quot;&gt;&lt;b&gt;x"');
  });

  it('renders request bodies of the journal as text', async () => {
    const t = sandbox();
    await createConsumer(t, '<b>bold</b> in a body');
    const res = await consoleRequest(t.app, 'GET', '/console/requests');
    expect(res.text).toContain('&lt;b&gt;bold&lt;/b&gt; in a body');
    expect(res.text).not.toContain('<b>bold</b>');
  });
});

describe('console and the request journal', () => {
  it('records none of its own requests', async () => {
    const t = sandbox();
    const token = await sandboxToken(t);
    await call(t.app, 'GET', '/consumers', { token });
    for (const path of [
      '/console',
      '/console/requests',
      '/console/consumers',
      '/console/assets/console.js',
    ]) {
      await consoleRequest(t.app, 'GET', path);
    }
    await consoleRequest(t.app, 'POST', '/console/clock', { form: { advance_seconds: '1' } });
    const journal = await call(t.app, 'GET', '/__sandbox/requests');
    const paths = (journal.body.items as { path: string }[]).map((e) => e.path);
    expect(paths).toEqual(['/consumers', '/token']);
  });

  it('hands the live script only the rows newer than the newest it shows', async () => {
    const t = sandbox();
    const token = await sandboxToken(t);
    const page = await consoleRequest(t.app, 'GET', '/console/requests');
    const after = /data-after="(\d+)"/.exec(page.text)?.[1];
    expect(after).toBe('1'); // the token exchange
    const none = await consoleRequest(t.app, 'GET', `/console/requests/rows?after=${after}`);
    expect(none.text.trim()).toBe('');
    expect(none.headers.get('x-console-newest')).toBe(after);
    await call(t.app, 'GET', '/consumers?search=live-row', { token });
    await call(t.app, 'GET', '/integrations', { token });
    const rows = await consoleRequest(t.app, 'GET', `/console/requests/rows?after=${after}`);
    expect(rows.headers.get('x-console-newest')).toBe('3');
    expect(rows.text.match(/<tr /g)?.length).toBe(2);
    expect(rows.text.indexOf('/integrations')).toBeLessThan(rows.text.indexOf('/consumers?search=live-row'));
    // The filters of the page apply to the live rows too.
    const filtered = await consoleRequest(
      t.app,
      'GET',
      `/console/requests/rows?after=${after}&path=/integrations`,
    );
    expect(filtered.text.match(/<tr /g)?.length).toBe(1);
  });

  it('marks the requests a fault fired on', async () => {
    const t = sandbox();
    t.app.services.faults.add({ match: { path: '/integrations' }, effect: { status: 503 }, times: 1 });
    await call(t.app, 'GET', '/integrations');
    const res = await consoleRequest(t.app, 'GET', '/console/requests');
    expect(res.text).toContain('class="faulted"');
    expect(res.text).toMatch(/fault fault_1/);
  });
});

describe('the console timeline', () => {
  it('shows what happened on each connection, newest first, and one consumer’s alone', async () => {
    const t = sandbox();
    const token = await sandboxToken(t);
    const consumer = t.ids.verticalConsumers.ACCOUNTING as string;
    const [connection] = (await call(t.app, 'GET', `/consumers/${consumer}/connections`, { token })).body;
    const declared = await call(t.app, 'POST', '/__sandbox/timeline', {
      body: {
        events: [
          {
            at: '2026-01-15T12:00:00Z',
            consumer,
            connection: connection.connectionid,
            event: 'credentials_expired',
          },
          { at: '2026-02-01T12:00:00Z', consumer, connection: connection.connectionid, event: 'unreachable' },
        ],
      },
    });
    expect(declared.status, declared.text).toBe(200);
    expect(
      (await consoleRequest(t.app, 'POST', '/console/clock', { form: { advance_seconds: '86400' } })).status,
    ).toBe(303);
    const page = await consoleRequest(t.app, 'GET', '/console/timeline');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Scripted: credentials expired');
    expect(page.text).toContain('Issue: Authentication failed (ERROR_AUTHENTICATION_FAILED)');
    // Newest first: the event still to come stands above the one applied.
    expect(page.text.indexOf('Scripted: unreachable')).toBeLessThan(
      page.text.indexOf('Scripted: credentials expired'),
    );
    const other = t.ids.verticalConsumers.POS as string;
    const filtered = await consoleRequest(t.app, 'GET', `/console/timeline?consumer=${other}`);
    expect(filtered.text).not.toContain('Scripted: credentials expired');
  });

  it('shows the block of every repeat of a burst still to come (the world keeps it once)', async () => {
    const t = sandbox();
    const consumer = t.ids.verticalConsumers.POS as string;
    const order = { creation_date: '{{at}}', closing_date: '{{at}}', items: [{ product: 'Espresso' }] };
    const declared = await call(t.app, 'POST', '/__sandbox/timeline', {
      body: {
        events: [{ at: '2026-02-01T12:00:00Z', repeat: 3, consumer, pos: { orders: [order, order] } }],
      },
    });
    expect(declared.status, declared.text).toBe(200);
    const page = await consoleRequest(t.app, 'GET', '/console/timeline');
    expect(page.text.split('Scripted records: pos 2 orders')).toHaveLength(4);
  });

  it('sets the pace as POST /__sandbox/pace does, and refuses one that is not a pace', async () => {
    const t = sandbox();
    const set = await consoleRequest(t.app, 'POST', '/console/pace', { form: { pace: 'busy' } });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toMatch(/^\/console\/timeline\?notice=/);
    expect((await call(t.app, 'GET', '/__sandbox/pace')).body).toEqual({
      pace: 'busy',
      changes: [{ from: '2026-01-15', pace: 'busy' }],
    });
    const bad = await consoleRequest(t.app, 'POST', '/console/pace', { form: { pace: 'wild' } });
    expect(bad.headers.get('location')).toMatch(/^\/console\/timeline\?error=/);
    expect((await call(t.app, 'GET', '/__sandbox/pace')).body.changes).toHaveLength(1);
  });
});
