import { API } from '@chift/chift-nodejs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CreateAppOptions, createApp } from '../../src/app.js';
import { manualClock } from '../../src/lib/clock.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import { type RunningSandbox, type StartOptions, startSandbox } from '../../src/server.js';

/**
 * The official Node SDK keeps its token until `expires_on` (minus 30 s) passes by the machine's
 * time, and never retries a 401. A sandbox clock started at the machine's current second ('now')
 * issues tokens the SDK keeps; a clock behind the machine's time (the default manual start,
 * 2026-01-15) issues tokens it finds expired at once, and it asks for a new one before every call.
 */
let sandbox: RunningSandbox | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await sandbox?.close();
  sandbox = undefined;
});

async function start(clock: StartOptions['clock']) {
  sandbox = await startSandbox({ seed: 11, port: 0, clock });
  const client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  return { sandbox, client };
}

/** How many POST /token the journal recorded, read through the control endpoint. */
async function tokenRequests(running: RunningSandbox): Promise<number> {
  const res = await fetch(`${running.url}/__sandbox/requests?path=/token`);
  const page = (await res.json()) as { total: number; items: { method: string }[] };
  expect(page.items.every((item) => item.method === 'POST')).toBe(true);
  return page.total;
}

describe('the official SDK keeps its token against a clock started at now', () => {
  it("clock: 'now': N calls take exactly one token", async () => {
    const { sandbox: running, client } = await start('now');
    expect(running.clock.mode).toBe('manual');
    expect(running.clock.now().getUTCMilliseconds()).toBe(0);
    expect(Math.abs(running.clock.now().getTime() - Date.now())).toBeLessThan(2_000);
    for (let i = 0; i < 5; i++) expect((await client.Consumers.getConsumers()).length).toBeGreaterThan(0);
    expect(await tokenRequests(running)).toBe(1);
  });

  it('past expiry it renews once, when the machine’s time the SDK reads has passed it too', async () => {
    const { sandbox: running, client } = await start('now');
    for (let i = 0; i < 3; i++) await client.Consumers.getConsumers();
    expect(await tokenRequests(running)).toBe(1);

    await running.clock.advance(31 * 60);
    // The SDK checks expires_on against the machine's time, which has not moved: it sends the token
    // it holds, the sandbox answers 401, and the SDK does not retry.
    await expect(client.Consumers.getConsumers()).rejects.toMatchObject({ response: { status: 401 } });
    expect(await tokenRequests(running)).toBe(1);

    // The machine's time as the SDK reads it, moved as far as the sandbox clock: one new token.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31 * 60 * 1000 });
    for (let i = 0; i < 3; i++) await client.Consumers.getConsumers();
    expect(await tokenRequests(running)).toBe(2);
  });

  it('the default manual start (2026-01-15), behind the machine’s time, costs a token per call', async () => {
    const { sandbox: running, client } = await start(new Date('2026-01-15T09:00:00Z'));
    for (let i = 0; i < 3; i++) await client.Consumers.getConsumers();
    expect(await tokenRequests(running)).toBe(3);
  });
});

describe("createApp({ clock: 'now' })", () => {
  it('starts a manual clock at the current second; a fixed start keeps answers byte-identical', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const app = createApp({ seed: 11, clock: 'now' });
    const clock = (await (await app.request('/__sandbox/clock')).json()) as { now: string; mode: string };
    expect(clock.mode).toBe('manual');
    expect(Date.parse(clock.now) % 1000).toBe(0);
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(clock.now)).toBeLessThanOrEqual(Date.now());
    expect(manualClock('now').now().getUTCMilliseconds()).toBe(0);

    // The same seed and the same start instant, as a Date or as a clock: the same bytes, the token
    // and what a write stamps with the clock included.
    const at = new Date(clock.now);
    const { accountId, sandbox: key } = seedCredentials(11);
    const answers = async (options: CreateAppOptions) => {
      const one = createApp({ seed: 11, ...options });
      const json = { 'content-type': 'application/json' };
      const issued = await one.request('/token', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ accountId, ...key }),
      });
      const tokenText = await issued.text();
      const authorization = `Bearer ${(JSON.parse(tokenText) as { access_token: string }).access_token}`;
      const created = await one.request('/consumers', {
        method: 'POST',
        headers: { ...json, authorization },
        body: JSON.stringify({ name: 'Same bytes' }),
      });
      return [tokenText, await created.text()];
    };
    const first = await answers({ clock: at });
    expect(first[1]).toContain('Same bytes');
    expect(await answers({ clock: manualClock(at) })).toEqual(first);
    expect(await answers({ clock: at })).toEqual(first);
  });
});
