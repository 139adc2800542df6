import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { errors } from '../../src/lib/errors.js';
import { call, expectError, expectValidation, sandbox, sandboxToken } from '../helpers.js';

describe('control endpoints', () => {
  it('reads and moves the clock by seconds or to an instant', async () => {
    const s = sandbox();
    const start = await call(s.app, 'GET', '/__sandbox/clock');
    expect(start.body).toEqual({ now: '2026-01-15T09:00:00.000Z', mode: 'manual' });
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 90 } });
    expect(moved.body.now).toBe('2026-01-15T09:01:30.000Z');
    const set = await call(s.app, 'POST', '/__sandbox/clock', { body: { now: '2027-03-01T12:00:00+01:00' } });
    expect(set.body.now).toBe('2027-03-01T11:00:00.000Z');
  });

  it.each([
    ['neither field', {}],
    ['both fields', { advance_seconds: 1, now: '2026-01-01T00:00:00Z' }],
    ['a non-numeric advance', { advance_seconds: 'ten' }],
    ['an invalid instant', { now: 'tomorrow' }],
  ])('refuses %s with 422', async (_n, body) => {
    const s = sandbox();
    const res = await call(s.app, 'POST', '/__sandbox/clock', { body });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation error');
  });

  it('reset puts the seeded world back', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const id = s.ids.verticalConsumers.ACCOUNTING;
    await call(s.app, 'DELETE', `/consumers/${id}`, { token });
    await call(s.app, 'POST', '/consumers', { token, body: { name: 'Added' } });
    const reset = await call(s.app, 'POST', '/__sandbox/reset');
    expect(reset.body).toEqual({ status: 'reset', seed: 7 });
    expect((await call(s.app, 'GET', `/consumers/${id}`, { token })).status).toBe(200);
    const fresh = sandbox();
    const freshToken = await sandboxToken(fresh);
    const a = await call(s.app, 'GET', '/consumers', { token });
    const b = await call(fresh.app, 'GET', '/consumers', { token: freshToken });
    expect(a.text).toBe(b.text);
  });

  it('with an admin token configured, control endpoints need it', async () => {
    const app = createApp({ seed: 7, adminToken: 'let-me-in' });
    expectError(await call(app, 'GET', '/__sandbox/clock'), errors.adminTokenRequired());
    expectError(await call(app, 'POST', '/__sandbox/reset', { token: 'wrong' }), errors.adminTokenRequired());
    expect((await call(app, 'GET', '/__sandbox/clock', { token: 'let-me-in' })).status).toBe(200);
  });
});

describe('cross-cutting HTTP behaviour', () => {
  it('unknown routes get 404 in the ServiceError shape', async () => {
    const s = sandbox();
    expectError(await call(s.app, 'GET', '/nothing/here'), errors.notFound());
    expectError(await call(s.app, 'DELETE', '/nothing/here'), errors.notFound());
  });

  it.each([
    ['DELETE', '/token', 'POST'],
    ['GET', '/token', 'POST'],
    ['PUT', '/consumers', 'GET, HEAD, POST'],
    ['PUT', '/consumers/{id}', 'GET, HEAD, PATCH, DELETE'],
    ['DELETE', '/__sandbox/reset', 'POST'],
    ['POST', '/openapi.json', 'GET, HEAD'],
  ])('%s %s, a path served with other methods, gets 405 with Allow', async (method, path, allow) => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const res = await call(
      s.app,
      method,
      path.replace('{id}', s.ids.verticalConsumers.ACCOUNTING as string),
      {
        token,
      },
    );
    expectError(res, errors.methodNotAllowed(method, allow.split(', ')));
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.body.detail).toBe(`${method} is not allowed here; allowed: ${allow}`);
  });

  it('a refused method writes nothing', async () => {
    const s = sandbox();
    const before = JSON.stringify(s.app.services.store.world);
    const res = await call(s.app, 'PUT', '/consumers', {
      body: { name: 'Nobody' },
      token: await sandboxToken(s),
    });
    expect(res.status).toBe(405);
    expect(JSON.stringify(s.app.services.store.world)).toBe(before);
  });

  it('GET / answers a page whose links all lead somewhere', async () => {
    const s = sandbox();
    const res = await call(s.app, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const links = [
      '/console',
      '/docs',
      '/openapi.json',
      '/__sandbox/requests',
      '/__sandbox/fixtures/schema',
      '/.well-known/oauth-protected-resource/mcp',
    ];
    for (const link of links) {
      expect(res.text).toContain(`href="${link}"`);
      // Every link leads somewhere.
      expect((await call(s.app, 'GET', link)).status, link).toBe(200);
    }
    expect((await s.app.request('/', { method: 'HEAD' })).status).toBe(200);
  });

  it('a body over the limit gets 413, announced or not', async () => {
    const app = createApp({ seed: 7, bodyLimit: 1000 });
    const big = JSON.stringify({ name: 'x'.repeat(2000) });
    expectError(
      await call(app, 'POST', '/token', { rawBody: big, headers: { 'content-type': 'application/json' } }),
      errors.payloadTooLarge(1000),
    );
  });

  it('same seed and same requests give byte-identical responses', async () => {
    const run = async () => {
      const s = sandbox();
      const token = await sandboxToken(s);
      const out: string[] = [];
      out.push((await call(s.app, 'POST', '/consumers', { token, body: { name: 'Determinism' } })).text);
      out.push((await call(s.app, 'GET', '/consumers', { token })).text);
      return out.join('\n');
    };
    expect(await run()).toBe(await run());
  });

  it('different seeds build different worlds', async () => {
    const a = sandbox({ seed: 1 });
    const b = sandbox({ seed: 2 });
    const ta = await sandboxToken(a);
    const tb = await sandboxToken(b);
    const la = await call(a.app, 'GET', '/consumers', { token: ta });
    const lb = await call(b.app, 'GET', '/consumers', { token: tb });
    expect(la.text).not.toBe(lb.text);
  });

  it('a query parameter of the wrong shape is a validation error', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    expectValidation(
      await call(s.app, 'GET', '/consumers/not-a-uuid', { token }),
      ['path', 'consumer_id'],
      'uuid_parsing',
    );
  });
});

describe('required bodies', () => {
  it.each([
    ['PATCH', 'consumer'],
    ['POST', '/consumers'],
    ['POST', '/token'],
  ])('%s %s without a body is a 422 missing body', async (method, target) => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const path = target === 'consumer' ? `/consumers/${s.ids.verticalConsumers.POS}` : target;
    expectValidation(await call(s.app, method, path, { token }), ['body'], 'missing');
  });

  it('an unauthenticated request without its body is a 401 first', async () => {
    const s = sandbox();
    expectError(
      await call(s.app, 'PATCH', `/consumers/${s.ids.verticalConsumers.POS}`),
      errors.missingToken(),
    );
  });
});

describe('clock bounds', () => {
  it.each([[1e308], [-1e308], [4e9]])('refuses advancing by %d seconds with 422', async (advance_seconds) => {
    const s = sandbox();
    expectValidation(await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds } }), [
      'body',
      'advance_seconds',
    ]);
    expect((await call(s.app, 'GET', '/__sandbox/clock')).body.now).toBe('2026-01-15T09:00:00.000Z');
  });
});
