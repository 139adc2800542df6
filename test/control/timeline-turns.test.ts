import { describe, expect, it } from 'vitest';
import { call } from '../helpers.js';
import { closingWorlds, expectAnswered, twoWorlds, waitsWhile } from './turns.js';

/**
 * A timeline at its budget, and the largest move of the clock, run in slices: the other worlds are
 * answered meanwhile. One event of 100 orders repeated 100 times used to hold the whole process for
 * seconds when it happened.
 */

closingWorlds();

/** 100 POS orders of one line (200 items), repeated `repeat` times a second apart. */
const burst = (consumer: string, repeat: number, at: string) => ({
  at,
  repeat,
  every_seconds: 1,
  consumer,
  pos: {
    orders: Array.from({ length: 100 }, () => ({
      creation_date: '{{at}}',
      closing_date: '{{at}}',
      items: [{ product: 'Espresso' }],
    })),
  },
});

describe('other worlds keep being answered', () => {
  it('while a timeline at its budget happens', async () => {
    const { s, read } = await twoWorlds();
    const pos = s.ids.verticalConsumers.POS as string;
    // Once small, so that what runs below is the work, not the first load of its code.
    const warm = await call(s.app, 'POST', '/__sandbox/timeline', {
      body: { events: [burst(pos, 2, '2026-01-15T08:00:00Z')] },
    });
    expect(warm.status, warm.text).toBe(200);
    // Due at once: they happen before the answer. Twice, for enough reads for a percentile.
    const declarations = async () => {
      for (const at of ['2026-01-15T08:20:00Z', '2026-01-15T08:40:00Z']) {
        const declared = await call(s.app, 'POST', '/__sandbox/timeline', {
          body: { events: [burst(pos, 100, at)] },
        });
        expect(declared.status, declared.text.slice(0, 300)).toBe(200);
      }
    };
    expectAnswered(await waitsWhile(declarations(), read), 'two timelines of 20,000 items');
    const events = (await call(s.app, 'GET', '/__sandbox/timeline')).body.events as { status: string }[];
    expect(events.filter((event) => event.status === 'applied')).toHaveLength(202);
  }, 60_000);

  it('while the clock moves by more days than one move plays', async () => {
    const { s, read } = await twoWorlds();
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 86_400 } });
    const moving = call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 400 * 86_400 } });
    expectAnswered(await waitsWhile(moving, read), 'a move of 400 days', 1);
    expect((await moving).status).toBe(200);
  }, 60_000);
});
