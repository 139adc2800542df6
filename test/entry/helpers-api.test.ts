import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type RunningSandbox,
  type SandboxClock,
  type SeedCredentials,
  type SeedDirectory,
  seedCredentials,
  seedDirectory,
  startSandbox,
} from '../../src/index.js';
import { ApiError } from '../../src/lib/errors.js';
import { automationDirectory } from '../../src/modules/syncs/automation.seed.js';
import { runSeconds } from '../../src/modules/syncs/simulation/engine.js';

/**
 * The helpers startSandbox() hands out, driven over a real port: reset(), the clock (the same code as
 * the control endpoints: background work comes due), the seeded credentials and well-known ids.
 */

const SEED = 7;
const START = new Date('2026-01-15T09:00:00.000Z');

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, port: 0, clock: START });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.reset();
  await sandbox.clock.set(START);
});

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function token(): Promise<string> {
  const { accountId, sandbox: key } = sandbox.credentials;
  const res = await api<{ access_token: string }>('POST', '/token', undefined, { accountId, ...key });
  expect(res.status).toBe(200);
  return res.body.access_token;
}

describe('the helpers of startSandbox()', () => {
  it('are typed', () => {
    expectTypeOf(sandbox.reset).returns.resolves.toBeVoid();
    expectTypeOf(sandbox.clock).toEqualTypeOf<SandboxClock>();
    expectTypeOf(sandbox.clock.now).returns.toEqualTypeOf<Date>();
    expectTypeOf(sandbox.clock.advance).parameters.toEqualTypeOf<[seconds: number]>();
    expectTypeOf(sandbox.clock.advance).returns.resolves.toEqualTypeOf<Date>();
    expectTypeOf(sandbox.clock.set).parameter(0).toEqualTypeOf<Date | string>();
    expectTypeOf(sandbox.credentials).toEqualTypeOf<SeedCredentials>();
    expectTypeOf(sandbox.ids).toEqualTypeOf<SeedDirectory>();
    expectTypeOf(sandbox.ids.verticalConsumers).toEqualTypeOf<Record<string, string>>();
  });

  it('credentials and ids are those of the seed, and reach the served world', async () => {
    expect(sandbox.credentials).toEqual(seedCredentials(SEED));
    expect(sandbox.ids).toEqual(seedDirectory(SEED));
    const bearer = await token();
    for (const consumerid of Object.values(sandbox.ids.verticalConsumers)) {
      expect((await api('GET', `/consumers/${consumerid}`, bearer)).status).toBe(200);
    }
    expect((await api('GET', `/syncs/${sandbox.ids.syncId}`, bearer)).status).toBe(200);
  });

  it('reset() puts the seeded world back, as POST /__sandbox/reset does', async () => {
    const bearer = await token();
    const before = await api('GET', '/consumers', bearer);
    const added = await api<{ consumerid: string }>('POST', '/consumers', bearer, {
      name: 'Added by a test',
    });
    expect(added.status).toBe(200);
    const removed = sandbox.ids.verticalConsumers.ACCOUNTING as string;
    expect((await api('DELETE', `/consumers/${removed}`, bearer)).status).toBe(204);

    await sandbox.reset();
    expect((await api('GET', `/consumers/${added.body.consumerid}`, bearer)).status).toBe(404);
    expect((await api('GET', `/consumers/${removed}`, bearer)).status).toBe(200);
    expect(await api('GET', '/consumers', bearer)).toEqual(before);
  });

  it('clock.now(), advance() and set() move the sandbox clock the endpoints read', async () => {
    expect(sandbox.clock.mode).toBe('manual');
    expect(sandbox.clock.now()).toEqual(START);
    await expect(sandbox.clock.advance(90)).resolves.toEqual(new Date('2026-01-15T09:01:30.000Z'));
    expect((await api('GET', '/__sandbox/clock')).body).toEqual({
      now: '2026-01-15T09:01:30.000Z',
      mode: 'manual',
    });
    await expect(sandbox.clock.set('2027-03-01T12:00:00+01:00')).resolves.toEqual(
      new Date('2027-03-01T11:00:00.000Z'),
    );
    await sandbox.clock.set(new Date('2026-02-01T00:00:00.000Z'));
    expect(sandbox.clock.now().toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('a token expires when the clock passes its 30 minutes', async () => {
    const bearer = await token();
    const consumer = `/consumers/${sandbox.ids.verticalConsumers.ACCOUNTING}`;
    await sandbox.clock.advance(1799);
    expect((await api('GET', consumer, bearer)).status).toBe(200);
    await sandbox.clock.advance(1);
    expect((await api('GET', consumer, bearer)).status).toBe(401);
  });

  it('moving the clock does the background work that came due, before it resolves', async () => {
    const bearer = await token();
    const flows = automationDirectory(SEED);
    expect(
      (
        await api('POST', '/webhooks', bearer, {
          event: 'account.flow.executed',
          url: 'http://127.0.0.1:9/hook',
        })
      ).status,
    ).toBe(200);
    const event = await api<{ data: { executions: { executionid: string }[] } }>(
      'POST',
      `/syncs/${flows.syncId}/flows/${flows.invoicesFlowId}/event`,
      bearer,
      { data: { invoice_number: 'INV-HELPERS' } },
    );
    expect(event.status).toBe(200);
    const [{ executionid }] = event.body.data.executions as [{ executionid: string }];
    const world = () => sandbox.app.services.store.world;
    const deliveries = () =>
      Object.values(world().webhook_deliveries).filter((d) => d.event === 'account.flow.executed');
    expect(world().executions[executionid]?.settled).toBe(false);

    // Queued 5 s, then runs for its duration: one second short, it still runs; at its end, it is
    // settled and its event published with no request in between.
    await sandbox.clock.advance(5 + runSeconds(executionid) - 1);
    expect(world().executions[executionid]?.settled).toBe(false);
    expect(deliveries()).toEqual([]);
    await sandbox.clock.advance(1);
    expect(world().executions[executionid]).toMatchObject({ settled: true, outcome: 'success' });
    expect(deliveries()).toHaveLength(1);
  });

  it('refuses a move out of range or a malformed one, and the clock stays', async () => {
    await expect(sandbox.clock.advance(Number.NaN)).rejects.toBeInstanceOf(RangeError);
    await expect(sandbox.clock.set('tomorrow')).rejects.toBeInstanceOf(RangeError);
    await expect(sandbox.clock.set(new Date(Number.NaN))).rejects.toBeInstanceOf(RangeError);
    // Past the span of living days after the world's origin: refused, the clock where it was.
    const before = sandbox.clock.now().toISOString();
    const refused = sandbox.clock.set('9999-12-30T23:00:00Z');
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 422 });
    expect(sandbox.clock.now().toISOString()).toBe(before);
  });

  it('work with an admin token configured, which the control endpoints then need', async () => {
    const guarded = await startSandbox({ seed: SEED, port: 0, clock: START, adminToken: 'helpers-admin' });
    try {
      expect((await fetch(`${guarded.url}/__sandbox/clock`)).status).toBe(401);
      await expect(guarded.clock.advance(60)).resolves.toEqual(new Date('2026-01-15T09:01:00.000Z'));
      await expect(guarded.reset()).resolves.toBeUndefined();
    } finally {
      await guarded.close();
    }
  });
});
