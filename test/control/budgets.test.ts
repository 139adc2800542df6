import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { JournalRecord } from '../../src/control/requests/index.js';
import { FIXTURE_BUDGET, REPORT_BUDGET, TIMELINE_BUDGET } from '../../src/lib/budgets.js';
import { messages } from '../../src/lib/errors.js';
import { call, SEED, sandbox, type TestSandbox } from '../helpers.js';

/**
 * Every control call declares what it may cost (src/lib/budgets.ts) and refuses past it with a 422
 * before doing any of it. One POS timeline event of 100 orders repeated 1,000 times (a 2.5 KB body)
 * used to be taken, and to hold the process for about a minute when the clock reached it; a repeated
 * block was kept, and stored, once per repeat; and a run the world could not keep was tried again,
 * whole, at every tick.
 */

let s: TestSandbox;
let pos: string;

beforeEach(() => {
  // A body limit above the documents' budget: the budget is what refuses them here.
  s = sandbox({ clock: new Date('2026-01-15T09:00:00Z'), bodyLimit: 16 * 1024 * 1024 });
  pos = s.ids.verticalConsumers.POS as string;
});

const amount = (n: number) => n.toLocaleString('en-US');

/** An event of `orders` POS orders of one line each (2 items an order), repeated `repeat` times. */
const burst = (consumer: string, orders: number, repeat: number, at = '2026-01-15T10:00:00Z') => ({
  at,
  repeat,
  every_seconds: 1,
  consumer,
  pos: {
    orders: Array.from({ length: orders }, () => ({
      creation_date: '{{at}}',
      closing_date: '{{at}}',
      items: [{ product: 'Espresso' }],
    })),
  },
});

const declare = (events: unknown[]) => call(s.app, 'POST', '/__sandbox/timeline', { body: { events } });
const timeline = async () => (await call(s.app, 'GET', '/__sandbox/timeline')).body.events as unknown[];

describe('the budget of a timeline declaration', () => {
  it('refuses 100 orders repeated 1,000 times at once with a 422, declaring nothing', async () => {
    const res = await declare([burst(pos, 100, 1000)]);
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({
      message: messages.overBudget('The timeline declaration', `${amount(TIMELINE_BUDGET.items)} items`),
      status: 'error',
    });
    expect(res.body.detail).toContain('events[0], repeated 1,000 times');
    expect(await timeline()).toEqual([]);
  });

  it.each([
    ['items', [burst('c', 100, 100), burst('c', 1, 1)], `${amount(TIMELINE_BUDGET.items)} items`],
    ['events', [burst('c', 1, 600), burst('c', 1, 401)], `${amount(TIMELINE_BUDGET.events)} events`],
    [
      'bytes',
      [{ ...burst('c', 1, 400), pos: { orders: [{ note: 'x'.repeat(11_000) }] } }],
      `${amount(TIMELINE_BUDGET.bytes)} bytes`,
    ],
  ])('counts each repeat against the %s of a declaration', async (_bound, events, bound) => {
    const res = await declare(events.map((event) => ({ ...event, consumer: pos })));
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toBe(messages.overBudget('The timeline declaration', bound));
    expect(await timeline()).toEqual([]);
  });

  it('takes a declaration at its budget, and the same budget in a fixture document', async () => {
    const atBudget = burst(pos, 100, 100);
    const accepted = await declare([atBudget]);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.events).toHaveLength(100);
    const loaded = await call(s.app, 'POST', '/__sandbox/fixtures', {
      body: { timeline: [atBudget, burst(pos, 1, 1)] },
    });
    expect(loaded.status, loaded.text).toBe(422);
    expect(loaded.body.message).toBe(
      messages.overBudget('The timeline declaration', `${amount(TIMELINE_BUDGET.items)} items`),
    );
    expect(loaded.body.detail).toMatch(/^timeline: /);
    expect(await timeline()).toHaveLength(100);
  });

  it('keeps a repeated block once, and shows it on every repeat', async () => {
    const before = s.app.services.store.world.meta.client_bytes ?? 0;
    const declared = await declare([burst(pos, 50, 100)]);
    expect(declared.status, declared.text).toBe(200);
    const block = JSON.stringify(declared.body.events[0].blocks);
    const records = Object.values(s.app.services.store.world.timeline);
    expect(records.filter((record) => record.blocks !== null)).toHaveLength(1);
    // The block once, and 100 small records: not 100 blocks.
    const added = (s.app.services.store.world.meta.client_bytes ?? 0) - before;
    expect(added).toBeLessThan(block.length * 10);
    for (const event of await timeline())
      expect(JSON.stringify((event as { blocks: unknown }).blocks)).toBe(block);
  });
});

describe('the timeline when the world cannot keep what it makes', () => {
  it('marks the event that does not fit failed with the reason, applies the others, and stops', async () => {
    const small = sandbox({ clock: new Date('2026-01-15T09:00:00Z'), maxWorldBytes: 1024 * 1024 });
    const consumer = small.ids.verticalConsumers.POS as string;
    const declared = await call(small.app, 'POST', '/__sandbox/timeline', {
      body: { events: [burst(consumer, 100, 40)] },
    });
    expect(declared.status, declared.text).toBe(200);
    const moved = await call(small.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 7200 } });
    expect(moved.status, moved.text).toBe(200);
    const events = (await call(small.app, 'GET', '/__sandbox/timeline')).body.events as {
      status: string;
      error: string | null;
    }[];
    const failed = events.filter((event) => event.status === 'failed');
    expect(events.filter((event) => event.status === 'applied').length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.error).toMatch(/^The world would hold \d+ bytes written by clients/);
    expect(events.some((event) => event.status === 'pending')).toBe(false);
    // Nothing left to do: a tick finds nothing due.
    await small.app.services.ticker.run();
    const again = (await call(small.app, 'GET', '/__sandbox/timeline')).body.events as { status: string }[];
    expect(again.map((event) => event.status)).toEqual(events.map((event) => event.status));
  });
});

describe('the budget of a fixture document', () => {
  let dir: string;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const withItems = (items: number) => ({
    datastores: [
      {
        name: 'Budget',
        columns: [{ name: 'n', type: 'number' }],
        rows: Array.from({ length: items }, (_, n) => ({ consumer: pos, data: { n } })),
      },
    ],
  });

  it('refuses a document of more items than its budget with a 422, and loads nothing', async () => {
    const before = JSON.stringify(s.app.services.store.world.datastores);
    const res = await call(s.app, 'POST', '/__sandbox/fixtures', {
      body: withItems(FIXTURE_BUDGET.items),
    });
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.body.message).toBe(
      messages.overBudget('The fixture document', `${amount(FIXTURE_BUDGET.items)} items`),
    );
    expect(JSON.stringify(s.app.services.store.world.datastores)).toBe(before);
  });

  it('refuses a document heavier than its budget, in process and in a file left unread', () => {
    const heavy = { consumers: [{ name: 'x'.repeat(FIXTURE_BUDGET.bytes) }] };
    expect(() => createApp({ seed: SEED, fixtures: heavy })).toThrow(
      messages.overBudget('The fixture document', `${amount(FIXTURE_BUDGET.bytes)} bytes`),
    );
    dir = mkdtempSync(join(tmpdir(), 'sandbox-budget-'));
    const file = join(dir, 'heavy.json');
    writeFileSync(file, `${JSON.stringify({ consumers: [] })}${' '.repeat(FIXTURE_BUDGET.bytes)}`);
    expect(() => createApp({ seed: SEED, fixtures: file })).toThrow(
      `The file holds ${amount(FIXTURE_BUDGET.bytes + 16)} bytes`,
    );
  });

  it('takes a document at its budget', async () => {
    const res = await call(s.app, 'POST', '/__sandbox/fixtures', {
      body: withItems(FIXTURE_BUDGET.items - 3),
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.datastores[0].rows).toHaveLength(FIXTURE_BUDGET.items - 3);
  });
});

describe('the budget of the readiness report', () => {
  it('refuses to read a journal of more requests than its budget, and reads one at it', async () => {
    const big = sandbox({ requestJournalSize: REPORT_BUDGET.records + 1 });
    const record = (): JournalRecord => ({
      seq: 0,
      chars: 0,
      at: Date.UTC(2026, 0, 15, 9),
      method: 'GET',
      path: '/consumers',
      url: 'http://sandbox/consumers',
      headers: null,
      principal: null,
      consumerId: null,
      connectionId: null,
      requestBody: null,
      requestTruncated: false,
      status: 200,
      responseBody: null,
      responseTruncated: false,
      durationMs: 1,
      fault: null,
    });
    for (let i = 0; i < REPORT_BUDGET.records; i++) big.app.services.requests.record(record());
    expect((await call(big.app, 'GET', '/__sandbox/report')).status).toBe(200);
    big.app.services.requests.record(record());
    const res = await call(big.app, 'GET', '/__sandbox/report');
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toBe(
      messages.overBudget('The readiness report', `${amount(REPORT_BUDGET.records)} requests`),
    );
    expect(res.body.detail).toContain(`The journal holds ${amount(REPORT_BUDGET.records + 1)} requests`);
  });
});
