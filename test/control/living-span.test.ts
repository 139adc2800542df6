import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { seedDirectory, seedWorld } from '../../src/control/seeded-world.js';
import { LIVING_SPAN_BUDGET, livingSpanEnd } from '../../src/lib/budgets.js';
import type { Clock } from '../../src/lib/clock.js';
import { messages } from '../../src/lib/errors.js';
import { StartError, startSandbox } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { call, SEED, sandbox, tokenFor } from '../helpers.js';

/**
 * The span of living days a world may have (src/lib/budgets.ts): its clock stands at most
 * LIVING_SPAN_BUDGET.days after its origin, the instant its clock started. Every living dataset holds
 * each day from the origin to the clock, so a move past it would make the next read generate more
 * than a world may hold: it is refused with a 422 before anything changes. A clock that follows the
 * machine's time past it is not refused: the business stops at the span's end.
 */

const ORIGIN = '2026-01-15T09:00:00.000Z';
const END = livingSpanEnd(ORIGIN);
const DAY = 86_400;
const ids = seedDirectory(SEED);
const overBudget = messages.overBudget(
  'The move of the clock',
  `${LIVING_SPAN_BUDGET.days.toLocaleString('en-US')} days after the world's origin`,
);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const clockOf = async (app: SandboxApp) => (await call(app, 'GET', '/__sandbox/clock')).body.now as string;
const move = (app: SandboxApp, body: Record<string, unknown>) =>
  call(app, 'POST', '/__sandbox/clock', { body });

/** A world of the seed whose clock starts at ORIGIN, and its store. */
function world() {
  const store = Store.memory(seedWorld(SEED));
  return { ...sandbox({ store, clock: new Date(ORIGIN) }), store };
}

/** The POS orders of the showcase consumer on `day`, as the API answers them. */
async function ordersOn(app: SandboxApp, day: string): Promise<{ total: number; text: string }> {
  const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
  const path = `/consumers/${ids.verticalConsumers.POS}/pos/orders?date_from=${day}&date_to=${day}&size=100`;
  const res = await call(app, 'GET', path, { token });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return { total: res.body.total as number, text: res.text };
}

describe('the span of living days after a world origin', () => {
  it('is three years and a day, the end within the calendar', () => {
    expect(LIVING_SPAN_BUDGET.days).toBe(3 * 365 + 1);
    expect(END).toBe('2029-01-15T09:00:00.000Z');
    expect(livingSpanEnd('9999-06-01T00:00:00.000Z')).toBe('9999-12-30T23:59:59.999Z');
  });

  it('a move to its end is taken; one a second past it is refused with a 422, the world left as it was', async () => {
    const { app, store } = world();
    expect(store.world.meta.origin).toBe(ORIGIN);
    const before = JSON.stringify(store.world.sandbox_state);
    for (const body of [
      { now: new Date(Date.parse(END) + 1000).toISOString() },
      { advance_seconds: LIVING_SPAN_BUDGET.days * DAY + 1 },
      { mode: 'manual', advance_seconds: LIVING_SPAN_BUDGET.days * DAY + 1 },
    ]) {
      const refused = await move(app, body);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body).toMatchObject({ status: 'error', message: overBudget });
      expect(refused.body.detail).toContain(`past ${END}`);
      expect(await clockOf(app)).toBe(ORIGIN);
      expect(JSON.stringify(store.world.sandbox_state)).toBe(before);
    }
    const taken = await move(app, { advance_seconds: LIVING_SPAN_BUDGET.days * DAY });
    expect(taken.status, taken.text).toBe(200);
    expect(await clockOf(app)).toBe(END);
    // Standing there, or going back, is not a move past it.
    expect((await move(app, { advance_seconds: 0 })).status).toBe(200);
    expect((await move(app, { advance_seconds: -DAY })).status).toBe(200);
    expect((await move(app, { advance_seconds: 2 * DAY })).status).toBe(422);
  });

  it('a reset makes the world anew at the clock: its origin, from which the span runs again', async () => {
    const { app, store } = world();
    expect((await move(app, { now: END })).status).toBe(200);
    expect((await call(app, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(store.world.meta.origin).toBe(END);
    const moved = await move(app, { advance_seconds: 365 * DAY });
    expect(moved.status, moved.text).toBe(200);
  });

  it('a clock given to an app past the span after its store origin is refused', () => {
    const { store } = world();
    const later = new Date(Date.parse(END) + 1000);
    expect(() => createApp({ seed: SEED, store, clock: later })).toThrow(overBudget);
    // Within it, the world goes on, its origin kept.
    const app = createApp({ seed: SEED, store, clock: new Date(END) });
    expect(app.services.store.world.meta.origin).toBe(ORIGIN);
  });

  it('--now past the span after a world file origin refuses the start and leaves the file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-span-'));
    dirs.push(dir);
    const db = join(dir, 'world.json');
    const first = await startSandbox({ seed: SEED, port: 0, db, clock: new Date(ORIGIN) });
    await first.close();
    const kept = readFileSync(db, 'utf8');
    const start = startSandbox({ seed: SEED, port: 0, db, clock: new Date(Date.parse(END) + DAY * 1000) });
    await expect(start).rejects.toThrow(StartError);
    await expect(start).rejects.toThrow(overBudget);
    expect(readFileSync(db, 'utf8')).toBe(kept);
    // The file is free again: a --now within the span starts it.
    const again = await startSandbox({ seed: SEED, port: 0, db, clock: new Date(END) });
    expect(again.app.services.store.world.meta.origin).toBe(ORIGIN);
    await again.close();
  });

  it('a clock that follows the machine past the span is not refused: the business stops at its end', async () => {
    const past = Date.parse(END) + 40 * DAY * 1000;
    const machine: Clock = {
      mode: 'system',
      now: () => new Date(past),
      advance: () => undefined,
      set: () => undefined,
    };
    const { store } = world();
    const drifted = createApp({ seed: SEED, store, clock: machine });
    const atEnd = world();
    expect((await move(atEnd.app, { now: END })).status).toBe(200);
    const lastDay = END.slice(0, 10);
    const before = new Date(Date.parse(END) - 2 * DAY * 1000).toISOString().slice(0, 10);
    const after = new Date(past - DAY * 1000).toISOString().slice(0, 10);
    expect((await ordersOn(drifted, before)).total).toBeGreaterThan(0);
    expect((await ordersOn(drifted, before)).text).toBe((await ordersOn(atEnd.app, before)).text);
    expect((await ordersOn(drifted, lastDay)).text).toBe((await ordersOn(atEnd.app, lastDay)).text);
    expect((await ordersOn(drifted, after)).total).toBe(0);
  }, 60_000);
});
