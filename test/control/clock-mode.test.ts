import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock, systemClock } from '../../src/lib/clock.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { call, sandbox } from '../helpers.js';

/** POST /__sandbox/clock {"mode"}: back to the machine's time, or stopped where it stands. */

const clockOf = async (app: ReturnType<typeof sandbox>['app']) =>
  (await call(app, 'GET', '/__sandbox/clock')).body as { now: string; mode: 'system' | 'manual' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A console form post as a browser sends it from the console's page (with the page's form token). */
async function consoleRequest(
  app: ReturnType<typeof sandbox>['app'],
  method: 'GET' | 'POST',
  path: string,
  options: { form?: Record<string, string> } = {},
) {
  let init: RequestInit = { method, redirect: 'manual' };
  if (method === 'POST') {
    const page = await (await app.request('/console')).text();
    const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    init = {
      ...init,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: token, ...options.form }).toString(),
    };
  }
  const res = await app.request(path, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('the clock mode', () => {
  it('{"mode":"system"} goes back to the machine’s time and follows it', async () => {
    const s = sandbox(); // a manual clock at 2026-01-15T09:00:00Z
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 86_400 * 400 } });
    const res = await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'system' } });
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe('system');
    expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(2_000);
    const first = await clockOf(s.app);
    await pause(30);
    const second = await clockOf(s.app);
    expect(second.mode).toBe('system');
    expect(Date.parse(second.now)).toBeGreaterThan(Date.parse(first.now));
    // Moves still shift it, from the machine's time.
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 3600 } });
    expect(Math.abs(Date.parse(moved.body.now) - (Date.now() + 3_600_000))).toBeLessThan(2_000);
    // And {"mode":"system"} again drops the moves.
    const back = await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'system' } });
    expect(Math.abs(Date.parse(back.body.now) - Date.now())).toBeLessThan(2_000);
  });

  it('{"mode":"manual"} stops the clock at its current reading', async () => {
    const s = sandbox();
    await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'system' } });
    const stopped = await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'manual' } });
    expect(stopped.body.mode).toBe('manual');
    expect(Math.abs(Date.parse(stopped.body.now) - Date.now())).toBeLessThan(2_000);
    await pause(30);
    expect(await clockOf(s.app)).toEqual({ now: stopped.body.now, mode: 'manual' });
    // A manual clock asked to be manual stays where it is.
    const again = await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'manual' } });
    expect(again.body.now).toBe(stopped.body.now);
  });

  it('applies the mode first, then the move that comes with it', async () => {
    const s = sandbox();
    const set = await call(s.app, 'POST', '/__sandbox/clock', {
      body: { mode: 'system', now: '2027-06-01T12:00:00Z' },
    });
    expect(set.body.mode).toBe('system');
    expect(Math.abs(Date.parse(set.body.now) - Date.parse('2027-06-01T12:00:00Z'))).toBeLessThan(2_000);
    const frozen = await call(s.app, 'POST', '/__sandbox/clock', {
      body: { mode: 'manual', now: '2028-01-01T00:00:00Z' },
    });
    expect(frozen.body).toEqual({ now: '2028-01-01T00:00:00.000Z', mode: 'manual' });
    const ahead = await call(s.app, 'POST', '/__sandbox/clock', {
      body: { mode: 'system', advance_seconds: 60 },
    });
    expect(Math.abs(Date.parse(ahead.body.now) - (Date.now() + 60_000))).toBeLessThan(2_000);
  });

  it('refuses an unknown mode, and a move beyond the range without changing the mode', async () => {
    const s = sandbox();
    const unknown = await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'frozen' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'mode']);
    const beyond = await call(s.app, 'POST', '/__sandbox/clock', {
      body: { mode: 'system', now: '1969-12-31T00:00:00Z' },
    });
    expect(beyond.status).toBe(422);
    expect(await clockOf(s.app)).toEqual({ now: '2026-01-15T09:00:00.000Z', mode: 'manual' });
    for (const body of [{}, { advance_seconds: 1, now: '2026-01-01T00:00:00Z', mode: 'manual' }]) {
      expect((await call(s.app, 'POST', '/__sandbox/clock', { body })).status).toBe(422);
    }
  });

  it('a clock of your own without setMode refuses a mode with 422 and stays', async () => {
    const inner = manualClock();
    const own = { mode: inner.mode, now: inner.now, advance: inner.advance, set: inner.set };
    const s = sandbox({ clock: own });
    const res = await call(s.app, 'POST', '/__sandbox/clock', { body: { mode: 'system' } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'mode'] });
    expect((await clockOf(s.app)).now).toBe('2026-01-15T09:00:00.000Z');
  });

  it('systemClock() and manualClock() change mode in place', () => {
    const clock = systemClock();
    clock.set(new Date('2040-01-01T00:00:00Z'));
    clock.setMode?.('manual');
    const at = clock.now().getTime();
    expect(clock.mode).toBe('manual');
    expect(Math.abs(at - Date.parse('2040-01-01T00:00:00Z'))).toBeLessThan(2_000);
    clock.setMode?.('system');
    expect(clock.mode).toBe('system');
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(2_000);
  });

  it('documents mode in the served schema of POST /__sandbox/clock', async () => {
    const s = sandbox();
    const doc = (await call(s.app, 'GET', '/__sandbox/openapi.json')).body;
    const mode = doc.components.schemas.SandboxClockChange.properties.mode;
    expect(mode.enum).toEqual(['system', 'manual']);
    expect(mode.description).toContain("machine's time");
    expect(mode.description).toContain('current reading');
    expect(doc.paths['/__sandbox/clock'].post.description).toContain('"mode": "system"');
  });

  it('the console’s "Back to system time" is {"mode":"system"}: the clock follows the machine', async () => {
    const s = sandbox();
    await consoleRequest(s.app, 'POST', '/console/clock', { form: { now: '2030-01-01T00:00:00Z' } });
    const res = await consoleRequest(s.app, 'POST', '/console/clock', { form: { system: '1' } });
    expect(res.status).toBe(303);
    const clock = await clockOf(s.app);
    expect(clock.mode).toBe('system');
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(2_000);
    const page = await consoleRequest(s.app, 'GET', '/console');
    expect(page.text).toContain('(system clock: the machine');
  });
});

describe('the clock mode of a listening sandbox', () => {
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('sandbox.clock.setMode() switches, and background work is looked for once it follows the machine', async () => {
    running = await startSandbox({ seed: 7, port: 0, clock: new Date('2026-01-15T09:00:00Z') });
    const run = vi.spyOn(running.app.services.ticker, 'run');
    await pause(1_100);
    expect(run).not.toHaveBeenCalled(); // a manual clock: nothing comes due by itself
    const now = await running.clock.setMode('system');
    expect(running.clock.mode).toBe('system');
    expect(Math.abs(now.getTime() - Date.now())).toBeLessThan(2_000);
    run.mockClear();
    await pause(1_100);
    expect(run).toHaveBeenCalled();
    await running.clock.setMode('manual');
    expect(running.clock.mode).toBe('manual');
  });
});
