import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { messages } from '../../src/lib/errors.js';
import { StartError, startSandbox } from '../../src/server.js';
import { WorldHub } from '../../src/worlds.js';
import { type CallResult, call, sandbox } from '../helpers.js';

/**
 * The sandbox's calendar runs from 1970-01-01T00:00:00.000Z to 9999-12-30T23:59:59.999Z: every way an
 * instant or a day comes in through the sandbox's own surfaces (the clock, a world's clock, the
 * programmatic start, the timeline, a fixture's dates, the pace) refuses one outside it with 422 and
 * the calendar's message, before anything is written. A clock set to 9999-12-31 used to be taken, and
 * the next POS, eCommerce or Banking read never came back: a loop over days compared +010000-01-01
 * with 9999-12-31 as texts.
 */

const PAST_THE_END = '9999-12-31T00:00:00Z';
const BEFORE_THE_START = '1969-12-31T23:59:59Z';

/** A refusal with the calendar's message: the error itself, or a validation naming it. */
function expectOutside(res: CallResult): void {
  expect(res.status, res.text).toBe(422);
  expect(`${res.body.message} ${JSON.stringify(res.body.detail)}`).toContain(messages.outsideCalendar);
}

describe('every instant the sandbox takes lies in its calendar', () => {
  it.each([PAST_THE_END, BEFORE_THE_START, '9999-12-30T23:30:00-01:00'])(
    'POST /__sandbox/clock refuses %s, and the clock stays',
    async (now) => {
      const s = sandbox();
      const before = (await call(s.app, 'GET', '/__sandbox/clock')).body.now;
      expectOutside(await call(s.app, 'POST', '/__sandbox/clock', { body: { now } }));
      expect((await call(s.app, 'GET', '/__sandbox/clock')).body.now).toBe(before);
    },
  );

  it('takes both ends themselves', async () => {
    // A world made near the end: its clock may go back anywhere, and forward to the end.
    const s = sandbox({ clock: new Date('9999-12-01T00:00:00Z') });
    for (const now of ['1970-01-01T00:00:00.000Z', '9999-12-30T23:59:59.999Z']) {
      const res = await call(s.app, 'POST', '/__sandbox/clock', { body: { now } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.now).toBe(now);
    }
  });

  it('a world asked for with a clock past the end is refused, and none is made', async () => {
    const app = createApp({ seed: 3, clock: new Date('2026-01-15T09:00:00Z'), maxWorlds: 0 });
    const hub = new WorldHub(app, { build: createApp, defaultSeed: 3 });
    const send = async (method: string, body: unknown): Promise<CallResult> => {
      const res = await hub.fetch(
        new Request('http://127.0.0.1:4010/__sandbox/worlds', {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text), text, headers: res.headers };
    };
    for (const clock of [PAST_THE_END, BEFORE_THE_START]) expectOutside(await send('POST', { clock }));
    expect(hub.list().items).toEqual([]);
    await hub.close();
  });

  it('startSandbox refuses a clock past the end before it listens', async () => {
    const start = startSandbox({ port: 0, clock: new Date(PAST_THE_END) });
    await expect(start).rejects.toMatchObject({ status: 422, message: messages.outsideCalendar });
  });

  it('a world file that kept a clock past the end refuses the start, closed; --now starts it anew', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-calendar-'));
    try {
      const db = join(dir, 'world.json');
      const first = await startSandbox({ port: 0, db, clock: new Date('2026-01-15T09:00:00Z') });
      // As a world file written before the calendar ended on 9999-12-30 could hold it.
      await first.store.transact((write) => {
        write.world.sandbox_state.clock = { mode: 'manual', now: '9999-12-31T00:00:00.000Z' };
      });
      await first.close();
      await expect(startSandbox({ port: 0, db })).rejects.toThrow(
        new StartError(
          `${db}: The clock would be at 9999-12-31T00:00:00.000Z (${messages.outsideCalendar}): start it with --now`,
        ),
      );
      const again = await startSandbox({ port: 0, db, clock: new Date('2026-01-15T09:00:00Z') });
      expect(again.clock.now().toISOString()).toBe('2026-01-15T09:00:00.000Z');
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a timeline event at, until or repeated past the calendar is refused, and nothing is declared', async () => {
    const s = sandbox();
    const consumer = s.ids.verticalConsumers.POS as string;
    const connection = Object.values(s.app.services.store.world.connections).find(
      (c) => c.consumerid === consumer,
    )?.connectionid;
    const outage = { consumer, connection, event: 'unreachable' };
    for (const event of [
      { ...outage, at: PAST_THE_END },
      { ...outage, at: BEFORE_THE_START },
      { ...outage, at: '2026-01-16T09:00:00Z', until: PAST_THE_END },
      // The last of three, a day apart, would fall on 9999-12-31.
      { ...outage, at: '9999-12-29T12:00:00Z', repeat: 3, every_seconds: 86_400 },
    ]) {
      expectOutside(await call(s.app, 'POST', '/__sandbox/timeline', { body: { events: [event] } }));
    }
    expect((await call(s.app, 'GET', '/__sandbox/timeline')).body.events).toEqual([]);
  });

  it.each([
    ['pos', 'Zelty', { orders: [{ creation_date: BEFORE_THE_START, items: [{ product: 'Espresso' }] }] }],
    [
      'pos',
      'Zelty',
      {
        orders: [
          {
            creation_date: '2026-01-14T12:00:00Z',
            closing_date: PAST_THE_END,
            items: [{ product: 'Espresso' }],
          },
        ],
      },
    ],
    ['payment', 7106, { payouts: [{ payment_date: '9999-12-31' }] }],
  ])('a %s fixture dated outside the calendar is refused with 422', async (key, integration, block) => {
    const app = createApp({ seed: 7 });
    const document = { consumers: [{ name: 'Calendar', connections: [{ integration, [key]: block }] }] };
    expectOutside(await call(app, 'POST', '/__sandbox/fixtures', { body: document }));
    const names = Object.values(app.services.store.world.consumers).map((c) => c.name);
    expect(names).not.toContain('Calendar');
  });

  it('a change of pace from a day past the end is refused', async () => {
    const s = sandbox();
    expectOutside(
      await call(s.app, 'POST', '/__sandbox/pace', { body: { pace: 'busy', from: '9999-12-31' } }),
    );
    expect((await call(s.app, 'GET', '/__sandbox/pace')).body.changes).toEqual([]);
  });
});
