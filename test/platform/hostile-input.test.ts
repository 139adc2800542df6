import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errors, jsonTooDeep } from '../../src/lib/errors.js';
import { trimTrailing } from '../../src/lib/text-checks.js';
import { INVOICE_STATE, seededDatastoreId } from '../../src/modules/datastores/datastores.seed.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/platform/body-guard.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import {
  type CallResult,
  call,
  expectError,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../helpers.js';

/**
 * Input built to make the sandbox work hard: regular expressions driven into backtracking, uploads
 * without a length, bodies nested deep. Each must be answered with its documented error in bounded
 * time and memory, without holding up the requests of others.
 */

/** Generous bounds: what they catch is seconds of backtracking, not milliseconds of noise. */
const HOSTILE_MS = 2000;
const CHEAP_MS = 2000;
/** The size of a worst case where the body limit (1 MiB) allows it. */
const N = 100_000;

const elapsed = async (since: number, work: Promise<CallResult>) => {
  const res = await work;
  return { res, ms: performance.now() - since };
};

describe('text checks', () => {
  it('each check answers adversarial inputs of 1 MB in bounded time', () => {
    const mb = 1024 * 1024;
    const started = performance.now();
    expect(trimTrailing(`${'/'.repeat(mb)}x`, '/')).toHaveLength(mb + 1);
    expect(trimTrailing(`http://host${'/'.repeat(mb)}`, '/')).toBe('http://host');
    expect(nestsDeeperThan(Buffer.from('['.repeat(mb)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(Buffer.from(`"${'\\"['.repeat(mb / 3)}"`), MAX_JSON_DEPTH)).toBe(false);
    expect(performance.now() - started).toBeLessThan(HOSTILE_MS);
  });

  it.each([
    ['flat JSON', '{"a":1,"b":[1,2]}', false],
    [`${MAX_JSON_DEPTH} levels`, `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, false],
    [
      `${MAX_JSON_DEPTH + 1} levels`,
      `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`,
      true,
    ],
    ['objects and arrays mixed', `${'{"a":['.repeat(33)}1${']}'.repeat(33)}`, true],
    ['brackets inside a string', `["${'['.repeat(200)}"]`, false],
    ['an escaped quote inside a string', `["\\"${'['.repeat(200)}"]`, false],
    ['an escaped backslash ending a string', `["\\\\", ${'['.repeat(200)}`, true],
    ['stray closing brackets first', `${']'.repeat(500)}${'['.repeat(MAX_JSON_DEPTH + 1)}`, true],
    ['siblings are not depth', '[[]]'.repeat(1000), false],
    ['multi-byte text', `{"é€😀":"${'€'.repeat(100)}["}`, false],
  ])('nestsDeeperThan: %s', (_name, text, deeper) => {
    expect(nestsDeeperThan(Buffer.from(text), MAX_JSON_DEPTH)).toBe(deeper);
  });
});

describe('regular expressions on input: bounded time, other requests not held up', () => {
  let s: TestSandbox;
  let token: string;
  beforeEach(async () => {
    s = sandbox();
    token = await sandboxToken(s);
  });

  const consumerOf = (key: string) => s.ids.verticalConsumers[key] as string;
  // Invalid both ways: a second `@`, and a space that survives trimming.
  const hostileEmails = [`a@${'a.'.repeat(N / 2)}@`, `a@${'a.'.repeat(N / 2)} x`];

  interface HostileCase {
    request: () => Promise<CallResult>;
    /** The documented refusal (or acceptance) the input gets. */
    status: number;
  }

  const cases: Record<string, () => HostileCase | Promise<HostileCase>> = {
    ...Object.fromEntries(
      hostileEmails.flatMap((email, i) => [
        [
          `invoicing contact e-mail #${i + 1}`,
          // No format checked (the reference states none), but a field of 100,000 characters is
          // more than a record may hold: refused by the store's bound (docs/persistence.md).
          () => ({
            status: 413,
            request: () =>
              call(s.app, 'POST', `/consumers/${consumerOf('INVOICING')}/invoicing/contacts`, {
                token,
                body: { company_name: 'X', email },
              }),
          }),
        ],
        [
          `POS customer e-mail #${i + 1}`,
          // No format checked (the reference states none); refused by the bound on a field.
          () => ({
            status: 413,
            request: () =>
              call(s.app, 'POST', `/consumers/${consumerOf('POS')}/pos/customers`, {
                token,
                body: { first_name: 'Ann', last_name: 'Peeters', email },
              }),
          }),
        ],
        [
          `commerce order e-mail #${i + 1}`,
          () => {
            const address = {
              first_name: 'Ann',
              last_name: 'Peeters',
              street: 'Rue Haute',
              number: '12',
              city: 'Bruxelles',
              postal_code: '1000',
              country: 'BE',
            };
            return {
              status: 400,
              request: () =>
                call(s.app, 'POST', `/consumers/${consumerOf('ECOMMERCE')}/commerce/orders`, {
                  token,
                  body: {
                    customer: { email },
                    billing_address: address,
                    shipping_address: address,
                    currency: 'EUR',
                    lines: [{ variant_id: 'x', quantity: 1, tax_rate: 21, unit_price: 1 }],
                  },
                }),
            };
          },
        ],
      ]),
    ),
    // No format checked (the reference states none for an invoicing contact's VAT number); refused
    // by the bound on a field.
    'invoicing contact VAT number': () => ({
      status: 413,
      request: () =>
        call(s.app, 'POST', `/consumers/${consumerOf('INVOICING')}/invoicing/contacts`, {
          token,
          body: { company_name: 'X', vat: `BE${'0'.repeat(N)}x` },
        }),
    }),
    'invoicing updated_after filter': () => ({
      status: 422,
      request: () =>
        call(
          s.app,
          'GET',
          `/consumers/${consumerOf('INVOICING')}/invoicing/invoices?updated_after=${'+00'.repeat(N / 3)}x`,
          { token },
        ),
    }),
    'invoicing document base64': () => ({
      status: 400,
      request: () =>
        call(s.app, 'POST', `/consumers/${consumerOf('INVOICING')}/invoicing/upload-document`, {
          token,
          body: { base64_string: `${'A \n'.repeat(N / 3)}===`, document_type: 'customer_document' },
        }),
    }),
    'accounting client VAT number': () => ({
      status: 400,
      request: () =>
        call(s.app, 'POST', `/consumers/${consumerOf('ACCOUNTING')}/accounting/clients`, {
          token,
          body: { name: 'Client', vat: `BE${'0'.repeat(N)}x`, addresses: [] },
        }),
    }),
    // Any form of partner account number is taken, as the software takes it, up to the bound on a
    // field.
    'accounting client account number': () => ({
      status: 413,
      request: () =>
        call(s.app, 'POST', `/consumers/${consumerOf('ACCOUNTING')}/accounting/clients`, {
          token,
          body: { name: 'Client', account_number: `4${'0'.repeat(N)}x`, addresses: [] },
        }),
    }),
    'accounting bank account IBAN': () => ({
      status: 400,
      request: () =>
        call(s.app, 'POST', `/consumers/${consumerOf('ACCOUNTING')}/accounting/bank-accounts`, {
          token,
          body: { code: 'BNK9', currency: 'EUR', bank_name: 'B', iban: `BE00${' 0'.repeat(N / 2)}x` },
        }),
    }),
    'accounting invoice pdf_name': () => ({
      status: 422,
      request: () =>
        call(s.app, 'POST', `/consumers/${consumerOf('ACCOUNTING')}/accounting/invoices`, {
          token,
          body: { pdf_name: `${'a'.repeat(N)}!pdf` },
        }),
    }),
    'datastore date and date-time columns': () => ({
      status: 422,
      request: () =>
        call(
          s.app,
          'POST',
          `/consumers/${s.ids.syncConsumerId}/datastore/${seededDatastoreId(SEED, s.ids.accountId, INVOICE_STATE.name)}/data`,
          {
            token,
            body: [
              {
                data: {
                  invoice_number: 'INV-1',
                  amount: 1,
                  synced_at: `2026-01-10T10:00:00.${'1'.repeat(N / 2)}${'+00'.repeat(N / 6)}x`,
                },
              },
            ],
          },
        ),
    }),
    'datalab date range': () => ({
      status: 400,
      request: () =>
        call(s.app, 'POST', '/datalab/query-db', {
          token,
          body: {
            measures: ['pos_orders.count'],
            timeDimensions: [
              { dimension: 'pos_orders.closing_date', dateRange: `last ${'1'.repeat(N)} days` },
            ],
          },
        }),
    }),
    // A valid schedule, longer than a field may be.
    'sync cron schedule: a long list': () => ({
      status: 413,
      request: () =>
        call(s.app, 'POST', '/syncs', { token, body: syncWithCron(`${'1,'.repeat(N / 2)}1 * * * *`) }),
    }),
    'sync cron schedule: runs of whitespace': () => ({
      status: 422,
      request: () => call(s.app, 'POST', '/syncs', { token, body: syncWithCron(`1${' \t'.repeat(N / 2)}x`) }),
    }),
    'consumer search': () => ({
      status: 200,
      request: () =>
        call(s.app, 'GET', `/consumers?search=${'a'.repeat(N / 2)}b${'a'.repeat(N / 2)}`, { token }),
    }),
    'consumer redirect url': () => ({
      status: 422,
      request: () =>
        call(s.app, 'POST', '/consumers', {
          token,
          body: { name: 'X', redirect_url: `http://${'a'.repeat(N)} ` },
        }),
    }),
    'bearer token': () => ({
      status: 401,
      request: () =>
        call(s.app, 'GET', '/consumers', { headers: { authorization: `Bearer ${' x'.repeat(N / 2)}y` } }),
    }),
    'content type': () => ({
      status: 415,
      request: () =>
        call(s.app, 'POST', '/consumers', {
          token,
          rawBody: '{"name":"X"}',
          headers: { 'content-type': `application/${'a.'.repeat(N / 2)}+x` },
        }),
    }),
    'integration id in the path': () => ({
      status: 404,
      request: () => call(s.app, 'GET', `/integrations/${'1'.repeat(N)}/logo.png`),
    }),
    'local agent connector': () => ({
      status: 422,
      request: () => call(s.app, 'GET', `/local-agents/releases?connector=${'1'.repeat(N)}x`),
    }),
    'link form integrationid': async () => {
      const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Form' } });
      const link = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
        token,
        body: { integrationid: 9012 },
      });
      return {
        status: 400,
        request: () =>
          call(s.app, 'POST', new URL(link.body.url).pathname, {
            rawBody: `integrationid=${'1'.repeat(N)}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
      };
    },
  };

  function syncWithCron(cron: string) {
    return {
      name: 'Hostile',
      connections: [],
      flows: [
        {
          name: 'f',
          execution: { type: 'code', data: null },
          triggers: [{ id: 't', type: 'timer', cronschedules: [cron] }],
        },
      ],
    };
  }

  it.each(Object.keys(cases))('%s', async (name) => {
    const { request: hostile, status } = await (cases[name] as () => HostileCase | Promise<HostileCase>)();
    const started = performance.now();
    const answer = elapsed(started, hostile());
    // A cheap request sent while the hostile one is being handled: answered only once the event loop
    // is free, so a request that holds the loop holds it up as well.
    const cheap = new Promise<{ res: CallResult; ms: number }>((resolve) =>
      setTimeout(() => resolve(elapsed(started, call(s.app, 'GET', '/consumers', { token }))), 5),
    );
    const [h, c] = await Promise.all([answer, cheap]);
    expect(h.res.status, h.res.text.slice(0, 300)).toBe(status);
    expect(h.ms).toBeLessThan(HOSTILE_MS);
    expect(c.res.status).toBe(200);
    expect(c.ms).toBeLessThan(CHEAP_MS);
  });
});

describe('bodies without a length', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandbox({ seed: SEED, port: 0 });
  });
  afterAll(async () => {
    await running.close();
  });

  interface Upload {
    status: number;
    connection: string | undefined;
    body: string;
    /** Bytes written when the answer arrived. */
    sentBeforeAnswer: number;
  }

  /** Streams `total` bytes in chunks (no Content-Length) and stops sending once answered. */
  function upload(path: string, total: number): Promise<Upload> {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    return new Promise((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = request(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        answered = true;
        const sentBeforeAnswer = sent;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            body,
            sentBeforeAnswer,
          });
          req.destroy();
        });
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!answered) req.end();
      };
      pump();
    });
  }

  it('a chunked upload past the limit is refused while it is still being sent, in bounded memory', async () => {
    const total = 50 * 1024 * 1024;
    const before = process.memoryUsage().rss;
    const res = await upload('/consumers', total);
    const grown = process.memoryUsage().rss - before;
    expect(res.status).toBe(413);
    expect(res.sentBeforeAnswer).toBeLessThan(total / 2);
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    expect(JSON.parse(res.body)).toEqual(errors.payloadTooLarge(1024 * 1024).toBody());
    expect(res.connection).toBe('close');
    // The server goes on answering.
    const after = await fetch(`${running.url}/consumers`);
    expect(after.status).toBe(401);
  });

  it('in process, the guard stops pulling the stream at the limit', async () => {
    const app = sandbox({ bodyLimit: 1000 }).app;
    // 5 MB (5,000 times the limit) offered in chunks of 100 bytes, produced only as they are read.
    const total = 5 * 1024 * 1024;
    let produced = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (produced >= total) return controller.close();
        produced += 100;
        controller.enqueue(new Uint8Array(100).fill(0x20));
      },
    });
    const res = await app.request('/consumers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(produced).toBeLessThan(2000);
    expect(await res.json()).toEqual(errors.payloadTooLarge(1000).toBody());
    expect(res.headers.get('connection')).toBe('close');
  });

  it('a streamed body within the limit reaches the route whole', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const text = JSON.stringify({ name: `Streamed ${'x'.repeat(200)}` });
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const res = await s.app.request('/consumers', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    const created = (await res.json()) as { name: string };
    expect(created.name).toBe(JSON.parse(text).name);
  });
});

describe('bodies of announced length, over a socket and in process alike', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandbox({ seed: SEED, port: 0, adminToken: 'hostile-admin' });
  });
  afterAll(async () => {
    await running.close();
  });

  /** The same request over the socket (fetch announces the length) and through app.request. */
  async function both(path: string, body: string | Uint8Array, token?: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const socket = await fetch(`${running.url}${path}`, { method: 'POST', headers, body });
    const inProcess = await running.app.request(path, { method: 'POST', headers, body });
    return {
      socket: { status: socket.status, body: await socket.text() },
      inProcess: { status: inProcess.status, body: await inProcess.text() },
    };
  }

  const tokenOf = async () => {
    const { accountId, sandbox: keys } = running.credentials;
    const res = await fetch(`${running.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId, ...keys }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  it('a JSON body reaches the route whole, and the journal keeps it', async () => {
    const token = await tokenOf();
    const name = `Announced ${'é'.repeat(50)}`;
    const res = await fetch(`${running.url}/consumers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe(name);
    const journal = await fetch(`${running.url}/__sandbox/requests?method=POST&path=/consumers`, {
      headers: { authorization: 'Bearer hostile-admin' },
    });
    const entries = ((await journal.json()) as { items: { request: { body: unknown } }[] }).items;
    expect(entries.map((e) => e.request.body)).toContainEqual({ name });
  });

  it.each([
    ['malformed JSON', '{"name": '],
    ['a JSON value that is not an object', '"a string"'],
    ['an empty object', '{}'],
  ])('%s gets the same answer as in process', async (_name, body) => {
    const token = await tokenOf();
    const { socket, inProcess } = await both('/consumers', body, token);
    expect(socket.status).toBeGreaterThanOrEqual(400);
    expect(socket).toEqual(inProcess);
  });

  it('a body led by a byte order mark is read as without it', async () => {
    const token = await tokenOf();
    const text = new TextEncoder().encode(JSON.stringify({ name: 'Marked' }));
    const marked = new Uint8Array([0xef, 0xbb, 0xbf, ...text]);
    const { socket, inProcess } = await both('/consumers', marked, token);
    expect([socket.status, inProcess.status]).toEqual([200, 200]);
    expect(JSON.parse(socket.body).name).toBe('Marked');
  });
});

describe('nesting depth of JSON bodies', () => {
  let s: TestSandbox;
  let token: string;
  beforeEach(async () => {
    s = sandbox();
    token = await sandboxToken(s);
  });

  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const logLine = (context: string) => `[{"type":"info","message":"deep","context":${context}}]`;
  const postLog = (rawBody: string) =>
    call(s.app, 'POST', `/consumers/${s.ids.syncConsumerId}/logs`, {
      token,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });

  function expectTooDeep(res: CallResult): void {
    expect(res.status).toBe(422);
    expect(res.body).toEqual(jsonTooDeep(MAX_JSON_DEPTH).toBody());
  }

  async function expectStillWorking(): Promise<void> {
    const write = await postLog(logLine('{"after":true}'));
    expect(write.status, write.text).toBe(200);
    const logs = await call(s.app, 'GET', `/__sandbox/logs?consumerid=${s.ids.syncConsumerId}`);
    expect(logs.status).toBe(200);
    expect(logs.body.map((l: { message: string }) => l.message)).toContain('deep');
  }

  it('a log context nested 6,000 arrays deep is refused with 422; the app goes on working', async () => {
    expectTooDeep(await postLog(logLine(nested(6000))));
    await expectStillWorking();
  });

  it('datalab filters nested 2,000 deep are refused with 422; the app goes on working', async () => {
    const leaf = '{"member":"pos_orders.mode","operator":"set"}';
    const filters = `${'{"and":['.repeat(2000)}${leaf}${']}'.repeat(2000)}`;
    const res = await call(s.app, 'POST', '/datalab/query-db', {
      token,
      rawBody: `{"measures":["pos_orders.count"],"filters":[${filters}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expectTooDeep(res);
    const plain = await call(s.app, 'POST', '/datalab/query-db', {
      token,
      body: { measures: ['pos_orders.count'] },
    });
    expect(plain.status, plain.text).toBe(200);
    await expectStillWorking();
  });

  it(`free-form JSON nested ${MAX_JSON_DEPTH} levels deep is accepted, one more is not`, async () => {
    // The line is an object in an array: two levels before the context.
    const deepest = await postLog(logLine(nested(MAX_JSON_DEPTH - 2)));
    expect(deepest.status, deepest.text).toBe(200);
    const sixty = await postLog(logLine(`{"a":${nested(58)}}`));
    expect(sixty.status, sixty.text).toBe(200);
    expectTooDeep(await postLog(logLine(nested(MAX_JSON_DEPTH - 1))));
    const logs = await call(s.app, 'GET', `/__sandbox/logs?consumerid=${s.ids.syncConsumerId}`);
    expect(logs.status).toBe(200);
    expect(logs.body.filter((l: { message: string }) => l.message === 'deep')).toHaveLength(2);
  });

  it('brackets inside strings do not count', async () => {
    const res = await postLog(logLine(JSON.stringify({ text: `\\"${'['.repeat(5000)}` })));
    expect(res.status, res.text).toBe(200);
  });

  it('the depth is checked before the token: the refusal costs no work of the route', async () => {
    const res = await call(s.app, 'POST', '/consumers', {
      rawBody: nested(MAX_JSON_DEPTH + 1),
      headers: { 'content-type': 'application/json' },
    });
    expectTooDeep(res);
  });

  it('a form body is not scanned as JSON', async () => {
    const res = await call(s.app, 'POST', `/link/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
      rawBody: `x=${'['.repeat(1000)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, errors.linkNotFound());
  });
});
