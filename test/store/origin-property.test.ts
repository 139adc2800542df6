import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../src/control/seeded-world.js';
import { call, SEED, sandbox, type TestSandbox, tokenFor } from '../helpers.js';
import { ITEM_OF, itemIds, readerOf, verticalLists, type WorldReader } from '../living/world-reads.js';

/**
 * A world is a function of its inputs, whatever was read when: random programs of clock moves and
 * writes, run on two fresh worlds of one seed, each world reading at random points of its own (the
 * lists and items of every vertical), answer the same bytes to every read both made between the same
 * moves and writes, and to the final reads of everything, the webhook deliveries included (one world
 * reads from the start, the other only after the first day passed). A program's seed is printed
 * when it fails: `PROGRAM_SEEDS` holds the ones run.
 */

const START = new Date('2026-01-15T09:00:00Z');
const ids = seedDirectory(SEED);
const PROGRAM_SEEDS = [101, 202];
const STEPS = 240;
const FIRST_MOVE = 12;

/** A small seeded generator (mulberry32): the same seed, the same program. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Step =
  | { kind: 'read'; vertical: string; path: string }
  | { kind: 'move'; seconds: number }
  | { kind: 'write'; vertical: string; path: string; body: Record<string, unknown> };

/** Every read a program may make: each vertical's lists, over the weeks the program spans, and items. */
function readsOf(items: ReadonlyMap<string, string>): Step[] {
  const reads: Step[] = [];
  for (const [vertical, paths] of Object.entries(verticalLists('2026-01-12', '2026-02-20'))) {
    for (const path of paths) reads.push({ kind: 'read', vertical, path });
  }
  for (const [list, id] of items) {
    const [vertical, path] = list.split(' ') as [string, string];
    reads.push({ kind: 'read', vertical, path: (ITEM_OF[path] as string).replace('{id}', id) });
  }
  return reads;
}

/**
 * A program of `STEPS` steps: mostly reads, a few writes, and a few moves of the clock (an hour to
 * four days): each move builds every dataset reached again, for the new minute, in both worlds.
 */
function programOf(seed: number, reads: readonly Step[]): Step[] {
  const random = randomOf(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const steps: Step[] = [];
  for (let n = 0; n < STEPS; n++) {
    const roll = random();
    // A day passes early on: one world has read by then, the other reads only after it.
    if (n === FIRST_MOVE) steps.push({ kind: 'move', seconds: 86_400 });
    else if (roll < 0.02) steps.push({ kind: 'move', seconds: pick([3_600, 6 * 3_600, 86_400, 4 * 86_400]) });
    else if (roll < 0.07) {
      steps.push(
        random() < 0.5
          ? {
              kind: 'write',
              vertical: 'POS',
              path: '/pos/customers',
              body: { first_name: `P${n}`, last_name: 'Prop' },
            }
          : {
              kind: 'write',
              vertical: 'INVOICING',
              path: '/invoicing/contacts',
              body: { company_name: `Prop ${n}` },
            },
      );
    } else steps.push(pick(reads));
  }
  return steps;
}

/** A world of the seed at START, with a webhook that listens to each business announced. */
async function worldOf(): Promise<{ s: TestSandbox; reader: WorldReader }> {
  const s = sandbox({ clock: START });
  const token = await tokenFor(s.app, { accountId: ids.accountId, ...ids.sandbox });
  const connections = Object.values(seedWorld(SEED).connections);
  const integrationOf = (vertical: string) =>
    connections.find((c) => c.consumerid === ids.verticalConsumers[vertical])?.integrationid;
  for (const [event, vertical] of [
    ['pos.order.completed', 'POS'],
    ['commerce.order.created', 'ECOMMERCE'],
  ] as const) {
    const hook = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event, url: 'http://127.0.0.1:9/hooks', integrationid: integrationOf(vertical) },
    });
    expect(hook.status, hook.text).toBe(200);
  }
  return { s, reader: await readerOf(s) };
}

/**
 * Runs a program on a world, reading only where `reads(n)` says: the answer of each read, keyed by
 * the moves and writes before it and the read itself.
 */
async function run(steps: readonly Step[], reads: (n: number) => boolean) {
  const { s, reader } = await worldOf();
  const answers = new Map<string, string>();
  let epoch = 0;
  for (const [n, step] of steps.entries()) {
    if (step.kind === 'move') {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', {
        body: { advance_seconds: step.seconds },
      });
      expect(moved.status, moved.text).toBe(200);
      await reader.renew();
      epoch++;
    } else if (step.kind === 'write') {
      const token = await tokenFor(s.app, { accountId: ids.accountId, ...ids.sandbox });
      const consumer = ids.verticalConsumers[step.vertical] as string;
      const res = await call(s.app, 'POST', `/consumers/${consumer}${step.path}`, { token, body: step.body });
      expect([200, 201], res.text.slice(0, 300)).toContain(res.status);
      answers.set(`${epoch} write ${n}`, res.text);
      epoch++;
    } else if (reads(n)) {
      answers.set(`${epoch} ${step.vertical} ${step.path}`, await reader.read(step.vertical, step.path));
    }
  }
  await s.app.services.ticker.idle();
  return { s, reader, answers };
}

/** The final reads of a world: every read of the program's kinds, and the webhook deliveries. */
async function finalReads(s: TestSandbox, reader: WorldReader, reads: readonly Step[]): Promise<string[]> {
  const out: string[] = [];
  for (const step of reads) {
    if (step.kind === 'read')
      out.push(`${step.vertical} ${step.path} ${await reader.read(step.vertical, step.path)}`);
  }
  const deliveries = await call(s.app, 'GET', '/__sandbox/webhook-deliveries?limit=500');
  expect(deliveries.status).toBe(200);
  const events = (deliveries.body as { event: string; payload: unknown }[])
    .map((delivery) => `${delivery.event} ${JSON.stringify(delivery.payload)}`)
    .sort();
  return [...out, ...events];
}

describe('a world is a function of its inputs, whatever was read when', () => {
  it.each(PROGRAM_SEEDS)(
    'program %i: two worlds reading at different points answer the same bytes',
    async (seed) => {
      const items = await itemIds(
        await readerOf(sandbox({ clock: START })),
        verticalLists('2026-01-12', '2026-02-20'),
      );
      const reads = readsOf(items);
      const steps = programOf(seed, reads);
      const choose = randomOf(seed * 7919);
      const theirs = steps.map((_, n) => choose() < 0.3 && n > FIRST_MOVE);
      const [one, other] = [await run(steps, () => true), await run(steps, (n) => theirs[n] as boolean)];
      const context = `program seed ${seed}`;
      let compared = 0;
      for (const [key, text] of other.answers) {
        expect(one.answers.get(key), `${context}: ${key}`).toBe(text);
        compared++;
      }
      expect(compared, context).toBeGreaterThan(20);
      const [mine, yours] = [
        await finalReads(one.s, one.reader, reads),
        await finalReads(other.s, other.reader, reads),
      ];
      expect(mine.filter((line) => line.startsWith('pos.order.completed')).length, context).toBeGreaterThan(
        0,
      );
      for (const [n, line] of mine.entries()) expect(yours[n], `${context}: final read ${n}`).toBe(line);
      expect(yours.length, context).toBe(mine.length);
    },
    120_000,
  );
});
