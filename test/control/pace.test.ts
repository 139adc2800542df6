import { beforeEach, describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';

/**
 * The pace of the generated business: a world setting that scales what each day draws from a day
 * on, and leaves the days before as they were.
 */

const DAY = 86_400;

let s: TestSandbox;
beforeEach(() => {
  s = sandbox();
});

/** The POS consumer's orders of each day in [from, to], counted. */
async function ordersByDay(t: TestSandbox, from: string, to: string): Promise<Record<string, number>> {
  const token = await sandboxToken(t);
  const consumer = t.ids.verticalConsumers.POS as string;
  const counts: Record<string, number> = {};
  for (let page = 1; ; page++) {
    const res = await call(
      t.app,
      'GET',
      `/consumers/${consumer}/pos/orders?date_from=${from}&date_to=${to}&page=${page}&size=100`,
      { token },
    );
    expect(res.status, res.text).toBe(200);
    for (const order of res.body.items) {
      const day = (order.creation_date as string).slice(0, 10);
      counts[day] = (counts[day] ?? 0) + 1;
    }
    if (page * 100 >= res.body.total) return counts;
  }
}

describe('POST /__sandbox/pace', () => {
  it('answers normal until changed, then every change by day', async () => {
    const before = await call(s.app, 'GET', '/__sandbox/pace');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ pace: 'normal', changes: [] });
    const set = await call(s.app, 'POST', '/__sandbox/pace', { body: { pace: 'busy', from: '2026-01-20' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ pace: 'normal', changes: [{ from: '2026-01-20', pace: 'busy' }] });
    const today = await call(s.app, 'POST', '/__sandbox/pace', { body: { pace: 'quiet' } });
    expect(today.body).toEqual({
      pace: 'quiet',
      changes: [
        { from: '2026-01-15', pace: 'quiet' },
        { from: '2026-01-20', pace: 'busy' },
      ],
    });
    // A change from the same day replaces the earlier one.
    const again = await call(s.app, 'POST', '/__sandbox/pace', {
      body: { pace: 'normal', from: '2026-01-20' },
    });
    expect(again.body.changes).toEqual([
      { from: '2026-01-15', pace: 'quiet' },
      { from: '2026-01-20', pace: 'normal' },
    ]);
  });

  it('refuses an unknown pace or a day that is not one with 422, and changes nothing', async () => {
    for (const body of [
      { pace: 'frantic' },
      { pace: 'busy', from: '20-01-2026' },
      { pace: 'busy', extra: 1 },
      {},
    ]) {
      const res = await call(s.app, 'POST', '/__sandbox/pace', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.status).toBe('error');
    }
    expect((await call(s.app, 'GET', '/__sandbox/pace')).body.changes).toEqual([]);
  });

  it('scales the days from its day on and leaves the days before as they were; a reset keeps it', async () => {
    const normal = sandbox();
    const changed = await call(s.app, 'POST', '/__sandbox/pace', {
      body: { pace: 'busy', from: '2026-01-19' },
    });
    expect(changed.status).toBe(200);
    // The history runs up to the first use of the data: use it now, so the days after are the living ones.
    for (const t of [s, normal]) await ordersByDay(t, '2026-01-15', '2026-01-15');
    for (const app of [s.app, normal.app]) {
      const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 10 * DAY } });
      expect(moved.status).toBe(200);
    }
    const busy = await ordersByDay(s, '2026-01-15', '2026-01-24');
    const usual = await ordersByDay(normal, '2026-01-15', '2026-01-24');
    for (const day of ['2026-01-15', '2026-01-16', '2026-01-17', '2026-01-18'])
      expect(busy[day]).toBe(usual[day]);
    const sum = (counts: Record<string, number>) =>
      Object.entries(counts)
        .filter(([day]) => day >= '2026-01-19')
        .reduce((total, [, count]) => total + count, 0);
    expect(sum(usual)).toBeGreaterThan(20);
    expect(sum(busy)).toBeGreaterThan(sum(usual) * 2);

    const reset = await call(s.app, 'POST', '/__sandbox/reset');
    expect(reset.status).toBe(200);
    expect((await call(s.app, 'GET', '/__sandbox/pace')).body.changes).toEqual([
      { from: '2026-01-19', pace: 'busy' },
    ]);
  });

  it('a quiet pace draws fewer; the programmatic helper does what the endpoint does', async () => {
    const normal = sandbox();
    for (const t of [s, normal]) await ordersByDay(t, '2026-01-15', '2026-01-15');
    const { sandboxControls } = await import('../../src/control/sandbox.domain.js');
    const state = await sandboxControls(s.app.services).setPace('quiet');
    expect(state.pace).toBe('quiet');
    await expect(sandboxControls(s.app.services).setPace('loud' as 'quiet')).rejects.toThrow(RangeError);
    for (const app of [s.app, normal.app]) {
      await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 8 * DAY } });
    }
    const quiet = await ordersByDay(s, '2026-01-16', '2026-01-22');
    const usual = await ordersByDay(normal, '2026-01-16', '2026-01-22');
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total(quiet)).toBeLessThan(total(usual) * 0.6);
    expect(total(quiet)).toBeGreaterThan(0);
  });
});
