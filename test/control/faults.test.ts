import { describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import {
  FAULT_OVERHEAD_BYTES,
  type FaultRule,
  FaultRuleError,
  MAX_FAULTS,
} from '../../src/control/faults.js';
import type { RequestEntry } from '../../src/control/requests/index.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { ApiError, AUTH_ERROR_CODE, errors, messages } from '../../src/lib/errors.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { call, expectError, SEED, sandbox, sandboxToken } from '../helpers.js';

const arm = async (app: SandboxApp, rule: FaultRule) => {
  const res = await call(app, 'POST', '/__sandbox/faults', { body: rule });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string };
};

const lastRequest = (app: SandboxApp) => app.services.requests.list()[0] as RequestEntry;

/** A sandbox on a real port, its token, and fetch helpers. */
async function serving(options: Parameters<typeof startSandbox>[0] = {}) {
  const running = await startSandbox({
    seed: SEED,
    port: 0,
    clock: new Date('2026-01-15T09:00:00Z'),
    ...options,
  });
  const creds = seedCredentials(SEED);
  const res = await fetch(`${running.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
  });
  const { access_token } = (await res.json()) as { access_token: string };
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${running.url}${path}`, { ...init, headers: { authorization: `Bearer ${access_token}` } });
  return { running, get, ids: seedDirectory(SEED) };
}

/** Resolves once `fault` has fired `times` times (the request is then held by it). */
async function firing(running: RunningSandbox, id: string, times = 1) {
  for (let i = 0; i < 500; i++) {
    if ((running.faults.get(id)?.fired ?? 0) >= times) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fault ${id} never fired`);
}

describe('fault injection: status', () => {
  it.each([
    [400, new ApiError(400, messages.accountingFailure)],
    [401, errors.invalidToken()],
    [404, errors.notFound()],
    [500, new ApiError(500, messages.internal)],
  ] as const)(
    'answers %i with the service envelope and message, without running the route',
    async (status, error) => {
      const s = sandbox();
      const token = await sandboxToken(s);
      const fault = await arm(s.app, { match: { path: '/consumers/{consumer_id}' }, effect: { status } });
      const res = await call(s.app, 'GET', `/consumers/${s.ids.verticalConsumers.POS}`, { token });
      expectError(res, error as ApiError);
      expect(res.body.detail).toBe(messages.faultInjected(fault.id));
      if (status === 401) expect(res.body.error_code).toBe(AUTH_ERROR_CODE);
      expect(res.headers.get('x-sandbox-fault')).toBe(fault.id);
    },
  );

  it('answers the reason phrase where the service has no message, and 422 as a validation body', async () => {
    const s = sandbox();
    await arm(s.app, { match: { path: '/consumers', method: 'GET' }, effect: { status: 503 } });
    await arm(s.app, { match: { path: '/consumers', method: 'POST' }, effect: { status: 422 } });
    const unavailable = await call(s.app, 'GET', '/consumers');
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toEqual({
      message: 'Service Unavailable',
      status: 'error',
      detail: expect.any(String),
    });
    const invalid = await call(s.app, 'POST', '/consumers', { body: { name: 'x' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe('Validation error');
    expect(invalid.body.detail[0].loc).toEqual(['body']);
  });

  it('answers a custom body and headers', async () => {
    const s = sandbox();
    await arm(s.app, {
      match: { path: '*' },
      effect: {
        status: 429,
        body: { message: 'Slow down', status: 'error' },
        headers: { 'Retry-After': '2' },
      },
    });
    const res = await call(s.app, 'GET', '/integrations');
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: 'Slow down', status: 'error' });
    expect(res.headers.get('retry-after')).toBe('2');
  });

  it('fires times=N then lets requests through, and marks the journal', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const fault = await arm(s.app, { match: { path: '/consumers' }, effect: { status: 500 }, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(s.app, 'GET', '/consumers', { token })).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
    const listed = (await call(s.app, 'GET', `/__sandbox/faults/${fault.id}`)).body;
    expect(listed).toMatchObject({ id: fault.id, times: 2, remaining: 0, fired: 2 });
    const entries = (await call(s.app, 'GET', '/__sandbox/requests?path=/consumers')).body
      .items as RequestEntry[];
    expect(entries.map((e) => [e.status, e.fault])).toEqual([
      [200, null],
      [200, null],
      [500, fault.id],
      [500, fault.id],
    ]);
    // A faulted request still shows its caller, though no route checked the token.
    expect(entries[3]?.request.headers.authorization).toBe(s.ids.sandbox.clientId);
    expect(entries[3]?.response.body).toMatchObject({ message: messages.internal });
  });

  it('matches on method, consumer and header', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const a = s.ids.verticalConsumers.ACCOUNTING as string;
    const b = s.ids.verticalConsumers.POS;
    await arm(s.app, {
      match: { path: '/consumers/*', consumer_id: a.toUpperCase() },
      effect: { status: 500 },
    });
    await arm(s.app, {
      match: { method: 'patch', path: '*', header: { name: 'X-Chift-ConnectionId', value: 'boom' } },
      effect: { status: 400 },
    });
    expect((await call(s.app, 'GET', `/consumers/${a}`, { token })).status).toBe(500);
    expect((await call(s.app, 'GET', `/consumers/${a}/connections`, { token })).status).toBe(500);
    expect((await call(s.app, 'GET', `/consumers/${b}`, { token })).status).toBe(200);
    const patch = (headers: Record<string, string>) =>
      call(s.app, 'PATCH', `/consumers/${b}`, { token, body: { name: 'Renamed' }, headers });
    expect((await patch({ 'x-chift-connectionid': 'boom' })).status).toBe(400);
    expect((await patch({ 'x-chift-connectionid': 'other' })).status).toBe(200);
    expect(
      (await call(s.app, 'GET', `/consumers/${b}`, { token, headers: { 'x-chift-connectionid': 'boom' } }))
        .status,
    ).toBe(200);
  });

  it('draws a probability from a generator seeded by the sandbox seed and the fault id', async () => {
    const run = async (seed: number) => {
      const app = createApp({ seed });
      await arm(app, { match: { path: '/integrations' }, effect: { status: 500 }, probability: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await call(app, 'GET', '/integrations')).status);
      return out.join(',');
    };
    const first = await run(SEED);
    expect(await run(SEED)).toBe(first);
    expect(first).toContain('500');
    expect(first).toContain('401');
    expect(await run(SEED + 1)).not.toBe(first);
    const never = createApp({ seed: SEED });
    await arm(never, { match: { path: '*' }, effect: { status: 500 }, probability: 0 });
    expect((await call(never, 'GET', '/integrations')).status).toBe(401);
  });

  it('fails the token exchange too: a 401 mid-run, then a renewed token works', async () => {
    const s = sandbox();
    let token = await sandboxToken(s);
    const consumer = s.ids.verticalConsumers.ACCOUNTING;
    // The next read answers 401, as when a token expires mid-run: the client renews it and retries.
    await arm(s.app, {
      match: { method: 'GET', path: '/consumers/{consumer_id}' },
      effect: { status: 401 },
      times: 1,
    });
    const refused = await call(s.app, 'GET', `/consumers/${consumer}`, { token });
    expectError(refused, errors.invalidToken());
    // The token exchange itself fails once (its own 401 message), then succeeds.
    await arm(s.app, { match: { path: '/token' }, effect: { status: 401 }, times: 1 });
    const exchange = await call(s.app, 'POST', '/token', {
      body: { accountId: s.ids.accountId, ...s.ids.sandbox },
    });
    expectError(exchange, errors.invalidCredentials());
    token = await sandboxToken(s);
    expect((await call(s.app, 'GET', `/consumers/${consumer}`, { token })).status).toBe(200);
  });

  it('writes nothing when a write is faulted; a retry with the same client request id runs for real', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const count = async () => (await call(s.app, 'GET', '/consumers', { token })).body.length as number;
    const before = await count();
    await arm(s.app, { match: { method: 'POST', path: '/consumers' }, effect: { status: 500 }, times: 1 });
    const body = { name: 'Faulted write' };
    const headers = { 'x-chift-client-requestid': 'retry-me' };
    expect((await call(s.app, 'POST', '/consumers', { token, body, headers })).status).toBe(500);
    expect(await count()).toBe(before);
    const retried = await call(s.app, 'POST', '/consumers', { token, body, headers });
    expect(retried.status).toBe(200);
    expect(await count()).toBe(before + 1);
    const [, faulted] = (await call(s.app, 'GET', '/__sandbox/requests?method=POST&path=/consumers')).body
      .items as RequestEntry[];
    expect(faulted?.request.body).toEqual(body);
    expect(faulted?.client_request_id).toBe('retry-me');
  });

  it('never faults the control endpoints, and a reset removes every fault', async () => {
    const s = sandbox();
    await arm(s.app, { match: { path: '*' }, effect: { status: 500 } });
    expect((await call(s.app, 'GET', '/__sandbox/faults')).status).toBe(200);
    expect((await call(s.app, 'GET', '/openapi.json')).status).toBe(200);
    expect((await call(s.app, 'GET', '/integrations')).status).toBe(500);
    await call(s.app, 'POST', '/__sandbox/reset');
    expect((await call(s.app, 'GET', '/__sandbox/faults')).body).toEqual([]);
    expect((await call(s.app, 'GET', '/integrations')).status).toBe(401);
  });
});

describe('fault injection: control', () => {
  it('lists, gets, removes and clears faults; unknown ones are 404', async () => {
    const s = sandbox();
    const one = await arm(s.app, { match: { path: '/a' }, effect: { status: 500 } });
    const two = await arm(s.app, {
      match: { path: '/b', method: 'get' },
      effect: { latency_ms: 5 },
      probability: 0.25,
    });
    const list = (await call(s.app, 'GET', '/__sandbox/faults')).body;
    expect(list).toEqual([
      {
        id: 'fault_1',
        match: { method: null, path: '/a', consumer_id: null, header: null },
        effect: { status: 500 },
        times: null,
        remaining: null,
        probability: null,
        fired: 0,
        created_at: '2026-01-15T09:00:00.000Z',
      },
      expect.objectContaining({
        id: 'fault_2',
        match: expect.objectContaining({ method: 'GET' }),
        probability: 0.25,
      }),
    ]);
    expect((await call(s.app, 'DELETE', `/__sandbox/faults/${one.id}`)).status).toBe(204);
    expectError(await call(s.app, 'GET', `/__sandbox/faults/${one.id}`), errors.faultNotFound());
    expectError(await call(s.app, 'DELETE', `/__sandbox/faults/${one.id}`), errors.faultNotFound());
    expect((await call(s.app, 'GET', `/__sandbox/faults/${two.id}`)).body.id).toBe(two.id);
    expect((await call(s.app, 'DELETE', '/__sandbox/faults')).status).toBe(204);
    expect((await call(s.app, 'GET', '/__sandbox/faults')).body).toEqual([]);
  });

  it.each([
    ['no effect', { match: { path: '*' }, effect: {} }],
    ['two outcomes', { match: { path: '*' }, effect: { status: 500, drop: true } }],
    ['a body without status', { match: { path: '*' }, effect: { drop: true, body: {} } }],
    ['a status out of range', { match: { path: '*' }, effect: { status: 302 } }],
    ['a latency past five minutes', { match: { path: '*' }, effect: { latency_ms: 300_001 } }],
    ['a timeout with latency', { match: { path: '*' }, effect: { timeout: true, latency_ms: 10 } }],
    ['a path without a slash', { match: { path: 'consumers' }, effect: { status: 500 } }],
    ['a probability above 1', { match: { path: '*' }, effect: { status: 500 }, probability: 2 }],
    ['times 0', { match: { path: '*' }, effect: { status: 500 }, times: 0 }],
    ['a bad header name', { match: { path: '*' }, effect: { status: 500, headers: { 'a b': 'x' } } }],
  ])('refuses %s with 422 (and faults.add throws)', async (_name, rule) => {
    const s = sandbox();
    const res = await call(s.app, 'POST', '/__sandbox/faults', { body: rule });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation error');
    expect(() => s.app.services.faults.add(rule as FaultRule)).toThrow(FaultRuleError);
  });

  it('needs the admin token when one is configured', async () => {
    const app = createApp({ seed: SEED, adminToken: 'let-me-in' });
    const rule = { match: { path: '*' }, effect: { status: 500 } };
    expectError(await call(app, 'POST', '/__sandbox/faults', { body: rule }), errors.adminTokenRequired());
    expect((await call(app, 'POST', '/__sandbox/faults', { body: rule, token: 'let-me-in' })).status).toBe(
      200,
    );
  });

  it('is typed in code: faults.add, list, get, remove, clear', async () => {
    const s = sandbox();
    const fault = s.app.services.faults.add({
      match: { path: '/integrations' },
      effect: { status: 502 },
      times: 1,
    });
    expect(s.app.services.faults.list().map((f) => f.id)).toEqual([fault.id]);
    expect((await call(s.app, 'GET', '/integrations')).status).toBe(502);
    expect(s.app.services.faults.get(fault.id)?.fired).toBe(1);
    expect(s.app.services.faults.remove(fault.id)).toBe(true);
    expect(s.app.services.faults.remove(fault.id)).toBe(false);
    s.app.services.faults.add({ match: { path: '*' }, effect: { status: 500 } });
    expect(s.app.services.faults.clear()).toBe(1);
  });
});

describe('fault injection: latency, drop and time-out', () => {
  it('delays a request without holding up the others (real port)', async () => {
    const { running, get, ids } = await serving();
    try {
      running.faults.add({ match: { path: '/consumers/{consumer_id}' }, effect: { latency_ms: 1500 } });
      const order: string[] = [];
      const started = performance.now();
      const slow = get(`/consumers/${ids.verticalConsumers.ACCOUNTING}`).then((res) => {
        order.push(`slow ${res.status}`);
        return performance.now() - started;
      });
      const fast = await get('/consumers');
      order.push(`fast ${fast.status}`);
      const slowElapsed = await slow;
      expect(order).toEqual(['fast 200', 'slow 200']);
      expect(slowElapsed).toBeGreaterThan(1000);
      const [entry] = running.requests({ path: '/consumers/{id}' });
      expect(entry?.fault).toBe('fault_1');
      expect(entry?.duration_ms).toBeGreaterThan(1000);
    } finally {
      await running.close();
    }
  });

  it('delays then answers a status; a write delayed past the client giving up still lands', async () => {
    const { running, get } = await serving();
    try {
      running.faults.add({
        match: { path: '/integrations' },
        effect: { latency_ms: 50, status: 503 },
        times: 1,
      });
      expect((await get('/integrations')).status).toBe(503);
      const creds = seedCredentials(SEED);
      const token = (await (
        await fetch(`${running.url}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
        })
      ).json()) as { access_token: string };
      running.faults.add({
        match: { method: 'POST', path: '/consumers' },
        effect: { latency_ms: 600 },
        times: 1,
      });
      await expect(
        fetch(`${running.url}/consumers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
          body: JSON.stringify({ name: 'Landed late' }),
          signal: AbortSignal.timeout(100),
        }),
      ).rejects.toThrow();
      for (let i = 0; i < 100 && running.requests({ method: 'POST', path: '/consumers' }).length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const [late] = running.requests({ method: 'POST', path: '/consumers' });
      expect(late?.status).toBe(200);
      expect(late?.response.body).toMatchObject({ name: 'Landed late' });
    } finally {
      await running.close();
    }
  });

  it('drops the connection over a real port: fetch rejects, the journal shows no answer', async () => {
    const { running, get } = await serving();
    try {
      const fault = running.faults.add({ match: { path: '/consumers' }, effect: { drop: true }, times: 1 });
      await expect(get('/consumers')).rejects.toThrow(TypeError);
      expect((await get('/consumers')).status).toBe(200);
      const [, dropped] = running.requests({ path: '/consumers' });
      expect(dropped).toMatchObject({ status: 0, fault: fault.id, response: { body: null } });
    } finally {
      await running.close();
    }
  });

  it('in process, a dropped request makes app.request reject as fetch would', async () => {
    const s = sandbox();
    await arm(s.app, { match: { path: '/integrations' }, effect: { drop: true } });
    await expect(s.app.request('/integrations')).rejects.toThrow('fetch failed');
    expect(lastRequest(s.app)).toMatchObject({ status: 0, fault: 'fault_1' });
  });

  it('holds a time-out until the fault is removed, then answers normally', async () => {
    const { running, get } = await serving();
    try {
      const fault = running.faults.add({ match: { path: '/consumers' }, effect: { timeout: true } });
      const held = get('/consumers');
      await firing(running, fault.id);
      expect(running.requests({ path: '/consumers' })).toEqual([]); // not answered yet
      const removed = await fetch(`${running.url}/__sandbox/faults/${fault.id}`, { method: 'DELETE' });
      expect(removed.status).toBe(204);
      expect((await held).status).toBe(200);
      expect(running.requests({ path: '/consumers' })[0]).toMatchObject({ status: 200, fault: fault.id });
    } finally {
      await running.close();
    }
  });

  it('lets a time-out go when the client gives up, and when the sandbox closes', async () => {
    const { running, get } = await serving();
    let closed = false;
    try {
      const fault = running.faults.add({ match: { path: '/consumers' }, effect: { timeout: true } });
      await expect(get('/consumers', { signal: AbortSignal.timeout(200) })).rejects.toThrow();
      for (let i = 0; i < 100 && running.requests({ path: '/consumers' }).length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(running.requests({ path: '/consumers' })[0]).toMatchObject({ status: 0, fault: fault.id });
      const held = get('/consumers').then(
        () => 'answered',
        (error: Error) => error.name,
      );
      await firing(running, fault.id, 2);
      await running.close();
      closed = true;
      expect(await held).toBe('TypeError');
    } finally {
      if (!closed) await running.close();
    }
  });

  it('gives up holding a time-out after the limit (in process: app.request rejects)', async () => {
    const app = createApp({ seed: SEED, faultHoldLimitMs: 100 });
    await arm(app, { match: { path: '/integrations' }, effect: { timeout: true } });
    await expect(app.request('/integrations')).rejects.toThrow('fetch failed');
    const aborted = new AbortController();
    const pending = app.request('/integrations', { signal: aborted.signal });
    aborted.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(app.services.requests.list().map((e) => e.status)).toEqual([0, 0]);
  });
});

describe('fault injection: bounds', () => {
  const rule = (i: number): FaultRule => ({ match: { path: `/faulted/${i}` }, effect: { status: 500 } });

  it(`keeps at most ${MAX_FAULTS} faults: the next is refused with 413 and arms nothing`, async () => {
    const s = sandbox();
    for (let i = 0; i < MAX_FAULTS; i++) s.app.services.faults.add(rule(i));
    const refused = await call(s.app, 'POST', '/__sandbox/faults', { body: rule(MAX_FAULTS) });
    expectError(refused, errors.listFull('armed faults', MAX_FAULTS, ''));
    expect(refused.body.detail).toContain('DELETE /__sandbox/faults');
    expect(() => s.app.services.faults.add(rule(MAX_FAULTS))).toThrow(
      messages.listFull('armed faults', MAX_FAULTS),
    );
    const listed = (await call(s.app, 'GET', '/__sandbox/faults')).body as { id: string }[];
    expect(listed).toHaveLength(MAX_FAULTS);
    expect(listed.at(-1)?.id).toBe(`fault_${MAX_FAULTS}`);
    // A removed fault makes room; ids go on from the last one armed.
    expect((await call(s.app, 'DELETE', '/__sandbox/faults/fault_1')).status).toBe(204);
    expect((await arm(s.app, rule(MAX_FAULTS))).id).toBe(`fault_${MAX_FAULTS + 1}`);
  });

  it('makes room by dropping the oldest exhausted fault, so a harness that never removes its faults goes on', async () => {
    const s = sandbox();
    const once = (i: number): FaultRule => ({ ...rule(i), times: 1 });
    for (let i = 0; i < MAX_FAULTS; i++) s.app.services.faults.add(once(i));
    // fault_1 and fault_2 (paths /faulted/0 and /faulted/1) fire their one time: both are exhausted.
    expect((await call(s.app, 'GET', '/faulted/1')).status).toBe(500);
    expect((await call(s.app, 'GET', '/faulted/0')).status).toBe(500);
    expect((await arm(s.app, once(MAX_FAULTS))).id).toBe(`fault_${MAX_FAULTS + 1}`);
    expect((await arm(s.app, once(MAX_FAULTS + 1))).id).toBe(`fault_${MAX_FAULTS + 2}`);
    const ids = ((await call(s.app, 'GET', '/__sandbox/faults')).body as { id: string }[]).map((f) => f.id);
    expect(ids).toHaveLength(MAX_FAULTS);
    expect(ids).not.toContain('fault_1');
    expect(ids).not.toContain('fault_2');
    // None exhausted now: the next is refused.
    const refused = await call(s.app, 'POST', '/__sandbox/faults', { body: once(MAX_FAULTS + 2) });
    expect(refused.status).toBe(413);
  });

  it("counts in the world's bytes: past them a fault is refused with 413, and so is a write", async () => {
    const limit = 1024 * 1024;
    const s = sandbox({ maxWorldBytes: limit });
    const token = await sandboxToken(s);
    const heavy = (i: number, chars = 200_000): FaultRule => ({
      match: { path: `/heavy/${i}` },
      effect: { status: 500, body: { error: 'x'.repeat(chars) } },
    });
    const first = s.app.services.faults.add(heavy(1));
    const bytesOf = (fault: unknown) => FAULT_OVERHEAD_BYTES + JSON.stringify(fault).length;
    const perFault = bytesOf(first);
    const fits = Math.floor(limit / perFault);
    for (let i = 2; i <= fits; i++) await arm(s.app, heavy(i));
    const used = fits * perFault;
    const refused = await call(s.app, 'POST', '/__sandbox/faults', { body: heavy(fits + 1) });
    expectError(refused, errors.worldFull(used + perFault, limit));
    expect(s.app.services.faults.list()).toHaveLength(fits);
    // A fault that leaves 40 bytes: no client write fits in them, until the faults go.
    const empty = bytesOf({
      ...first,
      id: `fault_${fits + 1}`,
      match: { ...first.match, path: `/heavy/${fits + 1}` },
      effect: { status: 500, body: { error: '' } },
    });
    await arm(s.app, heavy(fits + 1, limit - used - empty - 40));
    const write = () => call(s.app, 'POST', '/consumers', { token, body: { name: 'Room' } });
    const full = await write();
    expect(full.status).toBe(413);
    expect(full.body.message).toMatch(
      /^The world would hold \d+ bytes written by clients, more than its limit of 1048576/,
    );
    expect((await call(s.app, 'DELETE', '/__sandbox/faults')).status).toBe(204);
    expect((await write()).status).toBe(200);
  });
});
