import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import {
  compilePathPattern,
  formatRequestLine,
  type JournalRecord,
  MAX_CAPTURED_BODY,
  type RequestEntry,
  RequestJournal,
} from '../../src/control/requests/index.js';
import { errors } from '../../src/lib/errors.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import { startSandbox } from '../../src/server.js';
import { call, expectError, SEED, sandbox, sandboxToken } from '../helpers.js';

type Page = { items: RequestEntry[]; total: number; page: number; size: number };

const journal = async (app: ReturnType<typeof createApp>, query = '') =>
  (await call<Page>(app, 'GET', `/__sandbox/requests${query}`)).body;

describe('request journal', () => {
  it('records every field of a request and of its answer', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const consumer = s.ids.verticalConsumers.ACCOUNTING;
    const connections = await call(s.app, 'GET', `/consumers/${consumer}/connections`, { token });
    const connectionid = connections.body[0].connectionid as string;

    const read = await call(s.app, 'GET', `/consumers/${consumer}/accounting/journals?page=1&size=2`, {
      token,
    });
    const created = await call(s.app, 'POST', '/consumers', {
      token,
      body: { name: 'Journaled' },
      headers: { 'x-chift-client-requestid': 'client-req-1' },
    });
    expect(created.status).toBe(200);

    const page = await journal(s.app);
    expect(page.total).toBe(4); // the token, the connections, the journals, the consumer
    const [write, vertical] = page.items as [RequestEntry, RequestEntry];
    expect(write).toEqual({
      id: 'req_4',
      time: '2026-01-15T09:00:00.000Z',
      method: 'POST',
      path: '/consumers',
      query: {},
      consumer_id: null,
      connection_id: null,
      client_request_id: 'client-req-1',
      request: {
        headers: {
          authorization: s.ids.sandbox.clientId,
          'content-type': 'application/json',
          'x-chift-client-requestid': 'client-req-1',
        },
        body: { name: 'Journaled' },
        truncated: false,
      },
      status: 200,
      response: { body: created.body, truncated: false },
      redacted: false,
      duration_ms: expect.any(Number),
      fault: null,
    });
    expect(write.duration_ms).toBeGreaterThanOrEqual(0);
    expect(vertical).toMatchObject({
      id: 'req_3',
      method: 'GET',
      path: `/consumers/${consumer}/accounting/journals`,
      query: { page: '1', size: '2' },
      consumer_id: consumer,
      // The consumer's active accounting connection: the one the operation used.
      connection_id: connectionid,
      client_request_id: null,
      request: { body: null, truncated: false },
      status: 200,
      response: { body: read.body, truncated: false },
    });
    // One entry by its id, and the 404 of an unknown one.
    expect((await call(s.app, 'GET', '/__sandbox/requests/req_3')).body).toEqual(vertical);
    expectError(await call(s.app, 'GET', '/__sandbox/requests/req_99'), errors.requestNotFound());
    expectError(await call(s.app, 'GET', '/__sandbox/requests/nonsense'), errors.requestNotFound());
  });

  it('takes the connection from the path, else from the X-Chift-ConnectionId header', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const consumer = s.ids.verticalConsumers.ACCOUNTING;
    const connectionid = (await call(s.app, 'GET', `/consumers/${consumer}/connections`, { token })).body[0]
      .connectionid as string;
    await call(s.app, 'GET', `/consumers/${consumer}/connections/${connectionid.toUpperCase()}`, { token });
    await call(s.app, 'GET', `/consumers/${consumer}/syncs`, {
      token,
      headers: { 'x-chift-connectionid': connectionid },
    });
    const [syncs, one] = (await journal(s.app)).items as [RequestEntry, RequestEntry];
    expect(one.connection_id).toBe(connectionid);
    expect(syncs.connection_id).toBe(connectionid);
  });

  it('shows credentials redacted: the clientId of an API token, mcp, admin or redacted', async () => {
    const app = createApp({ seed: SEED, adminToken: 'the-admin-token' });
    const s = { app, ids: sandbox().ids };
    const token = await sandboxToken(s);
    const consumer = s.ids.verticalConsumers.ACCOUNTING;
    const mcp = await call(app, 'POST', '/mcp-token', {
      token,
      body: { accountId: s.ids.accountId, ...s.ids.sandbox, consumerId: consumer },
    });
    expect(mcp.status).toBe(200);
    await call(app, 'GET', `/consumers/${consumer}`, { token: mcp.body.access_token });
    await call(app, 'GET', '/consumers', { token: 'forged.token.value' });
    await call(app, 'GET', '/consumers', { token: 'the-admin-token' });
    const page = (await call<Page>(app, 'GET', '/__sandbox/requests', { token: 'the-admin-token' })).body;
    const shown = page.items.map((e) => e.request.headers.authorization ?? null);
    expect(shown).toEqual(['admin', 'redacted', 'mcp', s.ids.sandbox.clientId, null]);
    // The token exchanges keep no secret either: neither body is kept (the client secret, the token).
    const [, , , exchange, first] = page.items as RequestEntry[];
    for (const entry of [first, exchange]) {
      expect(entry).toMatchObject({ request: { body: null }, response: { body: null }, redacted: true });
    }
    const text = JSON.stringify(page);
    for (const secret of [token, mcp.body.access_token, s.ids.sandbox.clientSecret]) {
      expect(text).not.toContain(secret);
    }
  });

  it('filters by method, path pattern, consumer, status or class, and sandbox time', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const a = s.ids.verticalConsumers.ACCOUNTING as string;
    const b = s.ids.verticalConsumers.POS;
    await call(s.app, 'GET', `/consumers/${a}`, { token });
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 60 } });
    await call(s.app, 'GET', `/consumers/${b}`, { token });
    await call(s.app, 'PATCH', `/consumers/${b}`, { token, body: { name: 'Renamed' } });
    await call(s.app, 'GET', '/nothing/here', { token });
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 60 } });
    await call(s.app, 'GET', `/consumers/${a}/accounting/journals`, { token });

    const paths = async (query: string) =>
      (await journal(s.app, query)).items.map((e) => `${e.method} ${e.path}`);
    expect(await paths('?method=patch')).toEqual([`PATCH /consumers/${b}`]);
    expect(await paths('?path=/consumers/{consumer_id}')).toEqual([
      `PATCH /consumers/${b}`,
      `GET /consumers/${b}`,
      `GET /consumers/${a}`,
    ]);
    expect(await paths('?path=/consumers/*')).toEqual([
      `GET /consumers/${a}/accounting/journals`,
      `PATCH /consumers/${b}`,
      `GET /consumers/${b}`,
      `GET /consumers/${a}`,
    ]);
    expect(await paths('?path=/consumers/{id}/accounting/*')).toEqual([
      `GET /consumers/${a}/accounting/journals`,
    ]);
    expect(await paths(`?consumer_id=${a.toUpperCase()}`)).toEqual([
      `GET /consumers/${a}/accounting/journals`,
      `GET /consumers/${a}`,
    ]);
    expect(await paths('?status=4xx')).toEqual(['GET /nothing/here']);
    expect(await paths('?status=404')).toEqual(['GET /nothing/here']);
    expect((await journal(s.app, '?status=2xx')).total).toBe(5);
    expect(await paths('?since=2026-01-15T09:01:00Z&until=2026-01-15T10:01:00%2B01:00')).toEqual([
      'GET /nothing/here',
      `PATCH /consumers/${b}`,
      `GET /consumers/${b}`,
    ]);
    expect(await paths(`?method=GET&consumer_id=${b}&status=200`)).toEqual([`GET /consumers/${b}`]);
    // The same filters in code.
    expect(s.app.services.requests.list({ status: '4xx' }).map((e) => e.path)).toEqual(['/nothing/here']);
    expect(
      s.app.services.requests.list({ since: new Date('2026-01-15T09:02:00Z') }).map((e) => e.path),
    ).toEqual([`/consumers/${a}/accounting/journals`]);
    // Bad filters are refused.
    expect((await call(s.app, 'GET', '/__sandbox/requests?status=4x')).status).toBe(422);
    expect((await call(s.app, 'GET', '/__sandbox/requests?path=consumers')).status).toBe(422);
    expect((await call(s.app, 'GET', '/__sandbox/requests?since=yesterday')).status).toBe(422);
  });

  it('pages newest first with the page shape of the service', async () => {
    const s = sandbox();
    for (let i = 0; i < 5; i++) await call(s.app, 'GET', `/nothing/${i}`);
    const second = await journal(s.app, '?page=2&size=2');
    expect(second).toMatchObject({ total: 5, page: 2, size: 2 });
    expect(second.items.map((e) => e.path)).toEqual(['/nothing/2', '/nothing/1']);
    const past = await journal(s.app, '?page=4&size=2');
    expect(past).toEqual({ items: [], total: 5, page: 4, size: 2 });
    expect((await call(s.app, 'GET', '/__sandbox/requests?size=101')).status).toBe(422);
  });

  it('keeps only the newest requests of its size', async () => {
    const app = createApp({ seed: SEED, requestJournalSize: 5 });
    for (let i = 1; i <= 12; i++) await call(app, 'GET', `/nothing/${i}`);
    const page = await journal(app);
    expect(page.total).toBe(5);
    expect(page.items.map((e) => `${e.id} ${e.path}`)).toEqual([
      'req_12 /nothing/12',
      'req_11 /nothing/11',
      'req_10 /nothing/10',
      'req_9 /nothing/9',
      'req_8 /nothing/8',
    ]);
    expectError(await call(app, 'GET', '/__sandbox/requests/req_7'), errors.requestNotFound());
    // Size 0 keeps nothing.
    const off = createApp({ seed: SEED, requestJournalSize: 0 });
    await call(off, 'GET', '/nothing');
    expect((await journal(off)).total).toBe(0);
  });

  it('DELETE empties it (ids go on); a reset empties it too', async () => {
    const s = sandbox();
    await call(s.app, 'GET', '/nothing/1');
    await call(s.app, 'GET', '/nothing/2');
    const cleared = await call(s.app, 'DELETE', '/__sandbox/requests');
    expect(cleared.status).toBe(204);
    expect((await journal(s.app)).total).toBe(0);
    await call(s.app, 'GET', '/nothing/3');
    expect((await journal(s.app)).items.map((e) => e.id)).toEqual(['req_3']);
    await call(s.app, 'POST', '/__sandbox/reset');
    expect((await journal(s.app)).total).toBe(0);
  });

  it('does not record the control endpoints, /docs or /openapi.json', async () => {
    const s = sandbox();
    await call(s.app, 'GET', '/__sandbox/clock');
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 1 } });
    await call(s.app, 'GET', '/__sandbox/faults');
    await call(s.app, 'GET', '/docs');
    await call(s.app, 'GET', '/openapi.json');
    await call(s.app, 'GET', '/consumers');
    expect((await journal(s.app)).items.map((e) => `${e.path} ${e.status}`)).toEqual(['/consumers 401']);
  });

  it('cuts bodies past 64 Ki characters, and keeps a body the route refused', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const name = 'x'.repeat(MAX_CAPTURED_BODY + 10);
    const refused = await call(s.app, 'POST', '/consumers', { token, body: { name } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const [entry] = (await journal(s.app, '?method=POST&path=/consumers')).items;
    expect(entry?.request.truncated).toBe(true);
    expect(typeof entry?.request.body).toBe('string');
    expect((entry?.request.body as string | undefined)?.length).toBe(MAX_CAPTURED_BODY);
    expect(entry?.request.body).toMatch(/^\{"name":"xxx/);
    // A body that is not JSON is refused at the door (415); its text is still shown.
    await call(s.app, 'POST', '/consumers', {
      token,
      rawBody: 'name=plain',
      headers: { 'content-type': 'text/plain' },
    });
    const [plain] = (await journal(s.app, '?status=415')).items;
    expect(plain?.request).toMatchObject({ body: 'name=plain', truncated: false });
  });

  it('drops the bodies of the oldest entries past its body budget, never the entries', () => {
    const records = new RequestJournal(10, { bodyBudget: 25 });
    const record = (i: number): JournalRecord => ({
      seq: 0,
      chars: 0,
      at: Date.UTC(2026, 0, 15),
      method: 'GET',
      path: `/r/${i}`,
      url: `http://sandbox/r/${i}`,
      headers: null,
      principal: null,
      consumerId: null,
      connectionId: null,
      requestBody: null,
      requestTruncated: false,
      status: 200,
      responseBody: `{"n":"${'y'.repeat(4)}"}`,
      responseTruncated: false,
      durationMs: 1,
      fault: null,
    });
    for (let i = 1; i <= 4; i++) records.record(record(i));
    const entries = records.list();
    expect(entries.map((e) => e.path)).toEqual(['/r/4', '/r/3', '/r/2', '/r/1']);
    expect(entries.map((e) => e.response)).toEqual([
      { body: { n: 'yyyy' }, truncated: false },
      { body: { n: 'yyyy' }, truncated: false },
      { body: null, truncated: true },
      { body: null, truncated: true },
    ]);
  });

  it('matches path patterns segment by segment', () => {
    const match = (pattern: string, path: string) => compilePathPattern(pattern)(path);
    expect(match('*', '/anything/at/all')).toBe(true);
    expect(match('/consumers/{id}', '/consumers/abc')).toBe(true);
    expect(match('/consumers/{id}', '/consumers/abc/connections')).toBe(false);
    expect(match('/consumers/*', '/consumers')).toBe(false);
    expect(match('/consumers/*', '/consumers/a/b/c')).toBe(true);
    expect(match('/consumers/*/invoices', '/consumers/a/accounting/invoices')).toBe(true);
    expect(match('/consumers/*/invoices', '/consumers/a/accounting/invoices/1')).toBe(false);
    expect(match('/Consumers/{id}', '/consumers/ABC')).toBe(true);
    // Many stars over a long path stay fast (matching is linear in the path).
    const long = `/${'a/'.repeat(2000)}b`;
    const started = performance.now();
    expect(match('/*/*/*/*/*/*/*/*/c', long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('formats the --log line: method, path, status, milliseconds, and the fault', () => {
    const line = { id: 'req_1', time: '2026-01-15T09:00:00.000Z', method: 'GET', path: '/consumers' };
    expect(formatRequestLine({ ...line, status: 200, duration_ms: 1.25, fault: null })).toBe(
      'GET /consumers 200 1.25ms',
    );
    expect(formatRequestLine({ ...line, status: 0, duration_ms: 3, fault: 'fault_2' })).toBe(
      'GET /consumers --- 3ms fault=fault_2',
    );
  });

  it('calls onRequest once per request, and answers sandbox.requests() over a real port', async () => {
    const lines: string[] = [];
    const running = await startSandbox({
      seed: SEED,
      port: 0,
      clock: new Date('2026-01-15T09:00:00Z'),
      onRequest: (summary) => lines.push(formatRequestLine(summary)),
    });
    try {
      const creds = seedCredentials(SEED);
      const res = await fetch(`${running.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
      });
      const { access_token } = (await res.json()) as { access_token: string };
      await fetch(`${running.url}/consumers?tag=x&tag=y`, {
        headers: { authorization: `Bearer ${access_token}`, 'X-Custom': 'kept' },
      });
      await fetch(`${running.url}/__sandbox/clock`);
      const entries = running.requests();
      expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        'GET /consumers 200',
        'POST /token 200',
      ]);
      expect(entries[0]?.query).toEqual({ tag: ['x', 'y'] });
      // Over a socket the answer's text is read from the answer itself: the same body the client got.
      const answered = await fetch(`${running.url}/consumers?tag=x&tag=y`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      const latest = running.requests()[0];
      expect(latest?.response).toEqual({ body: await answered.json(), truncated: false });
      expect(Array.isArray(latest?.response.body) && latest.response.body.length).toBeGreaterThan(0);
      const tokenEntry = running.requests({ method: 'POST' })[0];
      expect(tokenEntry).toMatchObject({ status: 200, response: { body: null }, redacted: true });
      expect(entries[0]?.request.headers).toMatchObject({
        authorization: creds.sandbox.clientId,
        'x-custom': 'kept',
      });
      expect(running.requests({ method: 'POST' }).map((e) => e.path)).toEqual(['/token']);
      expect(lines.map((line) => line.replace(/ [\d.]+ms$/, ''))).toEqual([
        'POST /token 200',
        'GET /consumers 200',
        'GET /consumers 200',
      ]);
    } finally {
      await running.close();
    }
  });
});
