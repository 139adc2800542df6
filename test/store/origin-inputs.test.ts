import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxApp } from '../../src/app.js';
import { loadFixtures } from '../../src/control/fixtures.control.js';
import { call, sandbox, type TestSandbox, tokenFor } from '../helpers.js';
import { readEverything, readerOf, verticalLists, type WorldReader } from '../living/world-reads.js';

/**
 * Fixtures and timelines are inputs of a world as its seed and origin are: the same fixture file,
 * with its timeline, gives the same world whatever was read when, and however the clock got where
 * it stands: read before, between and after many small moves, or not at all until one move there.
 */

const START = new Date('2026-01-15T09:00:00Z');
const DAY = 86_400;
const TILL = '5b0f6f57-2d0c-4d38-9f43-6f6c0a1c0f01';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fixture file: a shop with its customers and orders, and a timeline of its next days. */
function fixtureFile(): string {
  const order = (creation: string, product: string) => ({
    creation_date: creation,
    closing_date: creation,
    items: [{ product }],
  });
  const doc = {
    consumers: [
      {
        ref: 'shop',
        name: 'Inputs Brasserie',
        connections: [
          {
            id: TILL,
            integration: 'Zelty',
            pos: {
              customers: [{ ref: 'jan', first_name: 'Jan', last_name: 'Claes' }],
              orders: [
                order('2026-01-14T12:00:00Z', 'Tomato soup'),
                order('2026-01-15T08:00:00Z', 'Steak frites'),
              ],
            },
          },
        ],
      },
    ],
    timeline: [
      { at: '2026-01-16T12:00:00Z', consumer: 'shop', pos: { orders: [order('{{at}}', 'Tomato soup')] } },
      {
        at: '2026-01-17T10:00:00Z',
        repeat: 5,
        every_seconds: 3_600,
        consumer: 'shop',
        pos: { orders: [order('{{at}}', 'Steak frites')] },
      },
      { at: '2026-01-19T09:30:00Z', consumer: 'shop', connection: TILL, event: 'unreachable' },
      { at: '2026-01-20T08:00:00Z', consumer: 'shop', connection: TILL, event: 'recovered' },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-inputs-'));
  dirs.push(dir);
  const file = join(dir, 'world.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** A world of the seed at START with the fixture file loaded, and the shop's consumer id. */
async function worldOf(file: string): Promise<{ s: TestSandbox; reader: WorldReader; shop: string }> {
  const s = sandbox({ clock: START });
  const loaded = await loadFixtures(s.app, file);
  const shop = loaded.consumers[0]?.consumerid as string;
  return { s, reader: await readerOf(s), shop };
}

async function move(app: SandboxApp, seconds: number): Promise<void> {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  expect(moved.status, moved.text).toBe(200);
}

/** Every read of the end: the showcase lists, the shop's orders, its connection, the timeline. */
async function finalReads(world: { s: TestSandbox; reader: WorldReader; shop: string }): Promise<string[]> {
  const { s, reader, shop } = world;
  await reader.renew();
  const out = await readEverything(reader, verticalLists('2026-01-12', '2026-01-22'), new Map());
  const token = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
  for (const path of [
    `/consumers/${shop}/pos/orders?date_from=2026-01-01&date_to=2026-01-31&size=100`,
    `/consumers/${shop}/connections`,
  ]) {
    const res = await call(s.app, 'GET', path, { token });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    out.push(`${path} ${res.text}`);
  }
  out.push((await call(s.app, 'GET', '/__sandbox/timeline')).text);
  return out;
}

describe('a fixture file and its timeline are inputs of the world', () => {
  it('read along many small moves, or only after one move, the world is the same', async () => {
    const file = fixtureFile();
    const watched = await worldOf(file);
    const lists = verticalLists('2026-01-12', '2026-01-22');
    await readEverything(watched.reader, lists, new Map());
    for (const hours of [5, 20, 24, 30, 17, 24, 24]) {
      await move(watched.s.app, hours * 3_600);
      await watched.reader.renew();
      await readEverything(watched.reader, lists, new Map());
    }
    const unwatched = await worldOf(file);
    await move(unwatched.s.app, 6 * DAY);
    const [seen, unseen] = [await finalReads(watched), await finalReads(unwatched)];
    expect(seen.length).toBeGreaterThan(35);
    // The timeline happened in both: the orders it made, the connection it stopped and started.
    expect(seen.at(-1)).not.toContain('"pending"');
    expect(seen.at(-1)).toContain('"recovered"');
    for (const [n, line] of seen.entries()) expect(unseen[n], `read ${n}`).toBe(line);
    expect(unseen).toHaveLength(seen.length);
  }, 120_000);
});
