import { describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { deepFreeze, SharedDatasets } from '../../src/store/shared-datasets.js';
import { Store } from '../../src/store/store.js';
import { emptyWorld, type World } from '../../src/store/world.js';
import { call, SEED, tokenFor } from '../helpers.js';

/**
 * Worlds of the same seed share the datasets they generate: the first build is kept by the process,
 * frozen, and a world that asks for the same inputs holds that very object. What one world writes
 * changes a copy of its own, never what another world reads.
 */

const ids = seedDirectory(SEED);
const pos = ids.verticalConsumers.POS as string;

async function client(app: SandboxApp) {
  const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
  return (method: string, path: string, body?: unknown) =>
    call(app, method, `/consumers/${pos}/pos${path}`, { token, body });
}

const posDatasets = (app: SandboxApp) => Object.values(app.services.store.world.pos_datasets);

describe('datasets shared by the worlds of a process', () => {
  it('a second world of the seed holds the dataset the first built, frozen', async () => {
    const first = createApp({ seed: SEED });
    const second = createApp({ seed: SEED });
    const one = await (await client(first))('GET', '/orders?size=100');
    const two = await (await client(second))('GET', '/orders?size=100');
    expect(one.status, one.text).toBe(200);
    expect(two.text).toBe(one.text);
    const [a] = posDatasets(first);
    const [b] = posDatasets(second);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(Object.values(a?.orders ?? {})[0])).toBe(true);
  });

  it("what one world writes stays in it: the other worlds, and worlds made later, read the seed's", async () => {
    const writer = createApp({ seed: SEED });
    const reader = createApp({ seed: SEED });
    const write = await client(writer);
    const read = await client(reader);
    const before = await read('GET', '/orders?size=100');
    const customer = (await write('GET', '/customers')).body.items[0];
    const order = before.body.items.find((o: { customer_id: string | null }) => o.customer_id === null);
    expect(customer?.id).toBeDefined();
    expect(order?.id).toBeDefined();

    const patched = await write('PATCH', `/orders/${order.id}`, { customer_id: customer.id });
    expect(patched.status, patched.text).toBe(200);
    expect((await write('GET', `/orders/${order.id}`)).body.customer_id).toBe(customer.id);

    expect((await read('GET', `/orders/${order.id}`)).body.customer_id).toBeNull();
    expect((await read('GET', '/orders?size=100')).text).toBe(before.text);
    const later = await client(createApp({ seed: SEED }));
    expect((await later('GET', '/orders?size=100')).text).toBe(before.text);
    // The writer's dataset is its own copy now; the shared one is as generated.
    const [mine] = posDatasets(writer);
    const [shared] = posDatasets(reader);
    expect(mine).not.toBe(shared);
    expect(Object.isFrozen(mine)).toBe(false);
    expect(shared?.orders[order.id]?.customer_id).toBeNull();
  });

  it('a write that fails leaves the shared dataset as generated, and its own copy equal to it', async () => {
    const app = createApp({ seed: SEED });
    const other = createApp({ seed: SEED });
    const write = await client(app);
    const listed = await write('GET', '/orders?size=5');
    const order = listed.body.items[0];
    const refused = await write('PATCH', `/orders/${order.id}`, { customer_id: 'no-such-customer' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await write('GET', '/orders?size=5')).text).toBe(listed.text);
    expect((await (await client(other))('GET', '/orders?size=5')).text).toBe(listed.text);
  });
});

describe('a store and the shared datasets', () => {
  type Data = { rows: Record<string, { n: number }> };
  type Things = Record<string, Record<string, Data>>;
  const counted = { builds: 0 };
  const build = () => {
    counted.builds++;
    return { rows: { a: { n: 1 }, b: { n: 2 } } } as Data;
  };
  const storeOf = (shared: SharedDatasets | null, cacheBytes?: number) =>
    Store.memory(emptyWorld(SEED, 'default', ['things']), {
      shared,
      ...(cacheBytes === undefined ? {} : { cacheBytes }),
      materializers: { things: build },
    });
  const things = (store: { world: World }) => store.world as unknown as Things;
  /** The dataset `k` as a store (or a write) sees it. */
  const held = (store: { world: World }) => things(store).things?.k as Data;
  const open = (store: Store, key = 'k') => store.materialize<Data>('things', key, { key });

  it('builds a dataset once for the stores that share, and once per store without sharing', () => {
    counted.builds = 0;
    const shared = new SharedDatasets(1024 * 1024);
    const a = open(storeOf(shared));
    const b = open(storeOf(shared));
    expect(counted.builds).toBe(1);
    expect(b).toBe(a);
    expect(shared.usage().datasets).toBe(1);
    open(storeOf(null));
    open(storeOf(null));
    expect(counted.builds).toBe(3);
  });

  it('a write changes its own copy; a refused one leaves the content; a rebuild replays it over a copy', async () => {
    const shared = new SharedDatasets(1024 * 1024);
    const store = storeOf(shared, 1);
    const other = storeOf(shared);
    const base = open(store);
    expect(open(other)).toBe(base);

    await expect(
      store.transact((write) => {
        held(write).rows.a = { n: 5 };
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // Each open below builds it again (a cache of one byte), from the shared base and the changes.
    expect(open(store)).toEqual(base);

    await store.transact((write) => {
      held(write).rows.b = { n: 7 };
    });
    const mine = open(store);
    expect(mine.rows).toEqual({ a: { n: 1 }, b: { n: 7 } });
    expect(mine).not.toBe(base);
    expect(Object.isFrozen(mine)).toBe(false);
    // Only the objects on the changed path are copies: the rest is still the shared one.
    expect(mine.rows.a).toBe(base.rows.a);
    expect(base.rows).toEqual({ a: { n: 1 }, b: { n: 2 } });
    expect(Object.isFrozen(base)).toBe(true);
    expect(open(other)).toBe(base);
    open(store, 'other');
    const rebuilt = open(store);
    expect(rebuilt.rows).toEqual({ a: { n: 1 }, b: { n: 7 } });
    expect(rebuilt.rows.a).toBe(base.rows.a);
    expect(base.rows.b).toEqual({ n: 2 });
  });

  it('keeps at most its bound, the least recently used going first', () => {
    const shared = new SharedDatasets(100);
    shared.put('a', { x: 'a' }, 40);
    shared.put('b', { x: 'b' }, 40);
    expect(shared.get('a')).toEqual({ x: 'a' });
    shared.put('c', { x: 'c' }, 40);
    expect(shared.get('b')).toBeUndefined();
    expect(shared.get('a')).toBeDefined();
    expect(shared.usage()).toEqual({ datasets: 2, bytes: 80, limit: 100 });
    shared.put('huge', { x: 'huge' }, 101);
    expect(shared.get('huge')).toBeUndefined();
  });

  it("keeps one minute of a living dataset: the clock's latest", () => {
    const shared = new SharedDatasets(1000);
    shared.put('pos|10:00', { at: '10:00' }, 10, 'pos');
    shared.put('other', { x: 1 }, 10);
    shared.put('pos|10:01', { at: '10:01' }, 10, 'pos');
    expect(shared.get('pos|10:00')).toBeUndefined();
    expect(shared.get('pos|10:01')).toEqual({ at: '10:01' });
    expect(shared.get('other')).toBeDefined();
    expect(shared.usage().bytes).toBe(20);
  });

  it('freezes every object below a dataset', () => {
    const value = { a: [{ b: { c: 1 } }], d: { e: [1, 2] } };
    deepFreeze(value);
    expect(Object.isFrozen(value.a[0]?.b)).toBe(true);
    expect(Object.isFrozen(value.d.e)).toBe(true);
    expect(() => {
      (value.d.e as number[]).push(3);
    }).toThrow(TypeError);
  });
});
