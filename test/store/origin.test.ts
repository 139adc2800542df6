import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { openWorldFile, seedDirectory, seedWorld } from '../../src/control/seeded-world.js';
import type { Store } from '../../src/store/store.js';
import { call, SEED, sandbox, tokenFor } from '../helpers.js';
import { itemIds, readEverything, readerOf, verticalLists } from '../living/world-reads.js';
import { snapshotOf } from './world-file.js';

/**
 * A world is a function of its inputs: its origin (the instant its clock started), its seed, and
 * what clients and the clock did, never of when a dataset was first read. Every dataset's history
 * ends on the morning of the origin's day and its living days run from there to the clock; a read
 * records nothing, in memory or in the world file.
 */

const ids = seedDirectory(SEED);
const START = new Date('2026-01-15T09:00:00Z');
const DAY = 86_400;

const dirs: string[] = [];
const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-origin-'));
  dirs.push(dir);
  return join(dir, 'world.json');
};

async function fileApp(file: string, clock?: Date): Promise<{ app: SandboxApp; store: Store }> {
  const store = await openWorldFile(file, () => seedWorld(SEED));
  opened.push(store);
  return { app: createApp({ seed: SEED, store, ...(clock ? { clock } : {}) }), store };
}

async function move(app: SandboxApp, seconds: number): Promise<void> {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  expect(moved.status, moved.text).toBe(200);
}

/** Every POS order of the showcase consumer over a period, all pages, as the API answers them. */
async function posOrders(
  app: SandboxApp,
  from: string,
  to: string,
): Promise<{ total: number; pages: string[] }> {
  const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
  const path = `/consumers/${ids.verticalConsumers.POS}/pos/orders?date_from=${from}&date_to=${to}&size=100`;
  const pages: string[] = [];
  for (let page = 1; ; page++) {
    const res = await call(app, 'GET', `${path}&page=${page}`, { token });
    expect(res.status, res.text).toBe(200);
    pages.push(res.text);
    if (page * 100 >= res.body.total) return { total: res.body.total as number, pages };
  }
}

/** A world file and its journal, as text. */
const fileOf = (file: string) => ({
  snapshot: readFileSync(file, 'utf8'),
  journal: existsSync(`${file}.journal`) ? readFileSync(`${file}.journal`, 'utf8') : '',
});

describe('the world of an origin', () => {
  it('two worlds moved 30 days answer the same orders, one read before the move and one only after', async () => {
    const [early, late] = [sandbox({ clock: START }), sandbox({ clock: START })];
    const before = await posOrders(early.app, '2026-01-15', '2026-02-15');
    await move(early.app, 30 * DAY);
    await move(late.app, 30 * DAY);
    const read = await posOrders(early.app, '2026-01-15', '2026-02-15');
    const unread = await posOrders(late.app, '2026-01-15', '2026-02-15');
    expect(read.total).toBeGreaterThan(before.total + 30 * 5);
    expect(unread.total).toBe(read.total);
    expect(unread.pages).toEqual(read.pages);
  }, 60_000);

  it('a --db world read through every vertical writes nothing: its file is the file of the same moves unread', async () => {
    const lists = verticalLists('2026-01-10', '2026-01-16');
    const readFile = tempFile();
    const read = await fileApp(readFile);
    const reader = await readerOf({ app: read.app, ids });
    const first = await readEverything(reader, lists, await itemIds(reader, lists));
    await move(read.app, DAY);
    await reader.renew();
    await readEverything(reader, lists, new Map());
    const quietFile = tempFile();
    const quiet = await fileApp(quietFile);
    await move(quiet.app, DAY);
    for (const store of [read.store, quiet.store]) await store.flush();
    expect(first.length).toBeGreaterThan(40);
    expect(fileOf(readFile)).toEqual(fileOf(quietFile));
    // Folded into their snapshots (a restart), still the same bytes.
    for (const store of opened.splice(0)) await store.close();
    for (const file of [readFile, quietFile]) opened.push(await openWorldFile(file, () => seedWorld(SEED)));
    for (const store of opened) await store.flush();
    expect(readFileSync(readFile, 'utf8')).toBe(readFileSync(quietFile, 'utf8'));
  }, 60_000);

  it('a world takes the instant its clock starts at as its origin, kept in its file; a reset takes the clock of then', async () => {
    const file = tempFile();
    const { app, store } = await fileApp(file, new Date('2026-03-02T14:30:00Z'));
    expect(store.world.meta.origin).toBe('2026-03-02T14:30:00.000Z');
    await move(app, DAY);
    await store.close();
    opened.splice(0);
    const again = await fileApp(file);
    expect(again.store.world.meta.origin).toBe('2026-03-02T14:30:00.000Z');
    expect((await call(again.app, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(again.store.world.meta.origin).toBe('2026-03-03T14:30:00.000Z');
    // A world over HTTP starts at its own clock: its history runs up to that morning.
    const created = await call(again.app, 'POST', '/__sandbox/worlds', {
      body: { clock: '2027-05-01T08:00:00Z' },
    });
    expect(created.status, created.text).toBe(201);
    const credentials = created.body.credentials as { account_id: string; sandbox: Record<string, string> };
    const token = await tokenFor(again.app, {
      accountId: credentials.account_id,
      clientId: credentials.sandbox.client_id as string,
      clientSecret: credentials.sandbox.client_secret as string,
    });
    const path = `/consumers/${ids.verticalConsumers.POS}/pos/orders?date_from=2027-04-30&date_to=2027-04-30`;
    const orders = await call(again.app, 'GET', path, { token });
    expect([orders.status, orders.body.total > 0], orders.text.slice(0, 300)).toEqual([200, true]);
    await again.app.services.worlds?.close();
  });
});

describe('a world file written before worlds had an origin', () => {
  /**
   * A file as the version before wrote it: the meta block without an origin, and each dataset
   * reached kept as the arguments of its first use (`until`, its day): one a client wrote into,
   * first used on the 20th, and one only read, on the 15th.
   */
  async function oldFile(): Promise<{ file: string; customer: string }> {
    const file = tempFile();
    const { app, store } = await fileApp(file);
    await move(app, 5 * DAY);
    const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    const made = await call(app, 'POST', `/consumers/${ids.verticalConsumers.POS}/pos/customers`, {
      token,
      body: { first_name: 'Kept', last_name: 'Upgrade' },
    });
    expect(made.status, made.text).toBe(200);
    await store.close();
    opened.splice(0);
    // Folded into a snapshot, then written as the version before wrote it.
    opened.push(await openWorldFile(file, () => seedWorld(SEED)));
    for (const done of opened.splice(0)) await done.close();
    const invoicing = ids.verticalConsumers.INVOICING as string;
    const connection = Object.values(seedWorld(SEED).connections).find((c) => c.consumerid === invoicing);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    const head = lines[0] as { meta: Record<string, unknown> };
    delete head.meta.origin;
    const pos = lines.find((line) => line.c === 'pos_datasets') as { a: Record<string, unknown> };
    pos.a.until = '2026-01-20';
    const read = { ...connectionArgs(connection), until: '2026-01-15' };
    lines.splice(lines.length - 1, 0, {
      c: 'invoicing_datasets',
      k: `${invoicing}:${read.connectionid}`,
      a: read,
      o: [],
    });
    const end = lines[lines.length - 1] as { records: number };
    end.records += 1;
    writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    return { file, customer: made.body.id as string };
  }

  const connectionArgs = (
    connection: { consumerid: string; connectionid: string; integrationid: number } | undefined,
  ) => ({
    consumerid: connection?.consumerid as string,
    connectionid: connection?.connectionid as string,
    integrationid: connection?.integrationid as number,
  });

  it('takes the earliest first use as its origin, and every dataset keeps its data', async () => {
    const { file, customer } = await oldFile();
    const { app, store } = await fileApp(file);
    // Written again, upgraded, before anything else.
    const snapshot = snapshotOf(file) as Record<string, Record<string, { a: Record<string, unknown> }>> & {
      meta: Record<string, unknown>;
    };
    expect(snapshot.meta.origin).toBe('2026-01-15T09:00:00.000Z');
    // The dataset only read, whose history ended on the origin's day, is what the origin builds.
    expect(Object.keys(snapshot.invoicing_datasets ?? {})).toEqual([]);
    // The dataset written into keeps its history's end, and the client's customer.
    const [pos] = Object.values(snapshot.pos_datasets ?? {});
    expect(pos?.a.until).toBe('2026-01-20');
    const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    const customers = await call(
      app,
      'GET',
      `/consumers/${ids.verticalConsumers.POS}/pos/customers?size=100`,
      {
        token,
      },
    );
    expect(customers.text).toContain(customer);
    // Its orders are those of a world whose history ended on the 20th, at the same clock.
    const kept = await posOrders(app, '2026-01-18', '2026-01-20');
    const twin = createApp({ seed: SEED, clock: new Date('2026-01-20T09:00:00Z') });
    expect(kept.pages).toEqual((await posOrders(twin, '2026-01-18', '2026-01-20')).pages);
    expect(store.world.meta.origin).toBe('2026-01-15T09:00:00.000Z');
  }, 60_000);
});
