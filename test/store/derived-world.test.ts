import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { openWorldFile, seedDirectory, seedWorld } from '../../src/control/seeded-world.js';
import { messages } from '../../src/lib/errors.js';
import { INVOICE_STATE } from '../../src/modules/datastores/datastores.seed.js';
import { MAX_FIELD_CHARS, RecordTooLargeError, type Store } from '../../src/store/store.js';
import { call, SEED, tokenFor } from '../helpers.js';
import { tempDir } from '../temp-dir.js';
import { snapshotOf, withDatasets } from './world-file.js';

/**
 * The world keeps what clients did, not what the seed generates: a connection's dataset (or a
 * folder's ledger) that a write changed is kept as the arguments it is built with and the changes
 * writes made to it, one only read as nothing at all; the datasets themselves live in a cache
 * bounded by bytes, and are built again, identically, when they left it.
 */

const ids = seedDirectory(SEED);
const v = ids.verticalConsumers as Record<string, string>;

/** One list of each vertical, read on its showcase consumer. */
const READS = [
  `/consumers/${v.ACCOUNTING}/accounting/journals`,
  `/consumers/${v.ACCOUNTING}/accounting/clients`,
  `/consumers/${v.POS}/pos/orders`,
  `/consumers/${v.POS}/pos/customers`,
  `/consumers/${v.ECOMMERCE}/commerce/orders`,
  `/consumers/${v.INVOICING}/invoicing/invoices`,
  `/consumers/${v.INVOICING}/invoicing/contacts`,
  `/consumers/${v.BANKING}/banking/accounts`,
  `/consumers/${v.PAYMENT}/payment/payments`,
  `/consumers/${v.PMS}/pms/locations`,
];

/** Writes into generated data of several verticals, and a read of each afterwards. */
const WRITES: { method: string; path: string; body?: unknown }[] = [
  {
    method: 'POST',
    path: `/consumers/${v.INVOICING}/invoicing/contacts`,
    body: { company_name: 'Derived Co' },
  },
  {
    method: 'POST',
    path: `/consumers/${v.POS}/pos/customers`,
    body: { first_name: 'Ada', last_name: 'Derived' },
  },
  {
    method: 'POST',
    path: `/consumers/${v.ACCOUNTING}/accounting/clients`,
    body: { name: 'Derived client', addresses: [] },
  },
  {
    method: 'POST',
    path: `/consumers/${v.INVOICING}/invoicing/contacts`,
    body: { company_name: 'Second Co' },
  },
  { method: 'POST', path: '/__sandbox/clock', body: { advance_seconds: 3 * 86_400 } },
  {
    method: 'POST',
    path: `/consumers/${v.POS}/pos/customers`,
    body: { first_name: 'Bo', last_name: 'Derived' },
  },
];

const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

const tempFile = () => join(tempDir('sandbox-derived-'), 'world.json');

async function fileApp(file: string, cacheBytes?: number): Promise<{ app: SandboxApp; store: Store }> {
  const store = await openWorldFile(
    file,
    () => seedWorld(SEED),
    cacheBytes === undefined ? {} : { cacheBytes },
  );
  opened.push(store);
  return { app: createApp({ seed: SEED, store }), store };
}

/** Every answer of a series of requests, as text, in order. */
async function answers(app: SandboxApp, requests: { method: string; path: string; body?: unknown }[]) {
  const fresh = () => tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
  let token = await fresh();
  const out: string[] = [];
  for (const { method, path, body } of requests) {
    const res = await call(app, method, path, { token, ...(body === undefined ? {} : { body }) });
    out.push(`${method} ${path} ${res.status} ${res.text}`);
    // A token lives 30 minutes of the sandbox clock: one moved by days needs a new one.
    if (path === '/__sandbox/clock') token = await fresh();
  }
  return out;
}

const reads = (paths: readonly string[]) => paths.map((path) => ({ method: 'GET', path }));

describe('the derived world', () => {
  it('reading every vertical stores nothing: no journal line, and no dataset in the next write nor in the file', async () => {
    const file = tempFile();
    const { app, store } = await fileApp(file);
    await store.flush();
    const journal = () => (existsSync(`${file}.journal`) ? readFileSync(`${file}.journal`, 'utf8') : '');
    const before = { snapshot: readFileSync(file, 'utf8'), journal: journal() };
    const answered = await answers(app, reads(READS));
    expect(
      answered.every((line) => / 200 /.test(line)),
      answered.join('\n').slice(0, 2000),
    ).toBe(true);
    await store.flush();
    // A read is not a write: the file and its journal are as they were.
    expect({ snapshot: readFileSync(file, 'utf8'), journal: journal() }).toEqual(before);
    // One write afterwards: its line holds its own change alone, nothing of the datasets read.
    await answers(app, [{ method: 'PATCH', path: `/consumers/${v.POS}`, body: { name: 'Renamed' } }]);
    await store.flush();
    const lines = journal().slice(before.journal.length).split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string).mk).toBeUndefined();
    expect(lines[0]?.length).toBeLessThan(1024);
    // Folded into the snapshot (a restart): the file holds no dataset, nor anything of them.
    await store.close();
    opened.splice(0);
    const again = await fileApp(file);
    await again.store.flush();
    expect(statSync(file).size - before.snapshot.length).toBeLessThan(1024);
    const snapshot = snapshotOf(file) as Record<string, Record<string, unknown>>;
    for (const collection of ['pos_datasets', 'invoicing_datasets', 'accounting_ledgers'])
      expect(Object.keys(snapshot[collection] ?? {}), collection).toEqual([]);
    // ...and answers the same reads with the same bytes.
    expect(await answers(again.app, reads(READS))).toEqual(answered);
  });

  it('a first read after the clock passed the open orders of the history closes them in what it builds, and writes nothing', async () => {
    const file = tempFile();
    const { app, store } = await fileApp(file);
    // Past the morning of the first day: the orders the history left open have all closed by now.
    await answers(app, [{ method: 'POST', path: '/__sandbox/clock', body: { advance_seconds: 8 * 3600 } }]);
    await store.flush();
    const journalBefore = readFileSync(`${file}.journal`, 'utf8');
    const answered = await answers(app, reads(READS));
    expect(answered.every((line) => / 200 /.test(line))).toBe(true);
    await store.flush();
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe(journalBefore);
    // None of the history's open orders (placed before 09:00 on the first day) is left open.
    const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    const open = await call(app, 'GET', `/consumers/${v.POS}/pos/orders?state=open&size=100`, { token });
    const history = (open.body.items as { creation_date: string }[]).filter(
      (order) => order.creation_date <= '2026-01-15T09:00:00.000Z',
    );
    expect([open.status, history]).toEqual([200, []]);
    // The same bytes as a world that never wrote the clock move: after a restart from the file.
    await store.close();
    opened.splice(0);
    const again = await fileApp(file);
    expect(await answers(again.app, reads(READS))).toEqual(answered);
  });

  it('the same requests give the same bytes with a cache of one byte, and after a restart from the file', async () => {
    const series = [...reads(READS), ...WRITES, ...reads(READS)];
    const reference = await answers(createApp({ seed: SEED }), series);
    expect(reference.filter((line) => !/^\S+ \S+ 20\d /.test(line))).toEqual([]);
    const file = tempFile();
    const tiny = await fileApp(file, 1);
    expect(await answers(tiny.app, series)).toEqual(reference);
    // Nothing but the dataset a write is busy with stays in a cache of one byte.
    expect(tiny.store.cacheUsage().datasets).toBeLessThanOrEqual(1);
    await tiny.store.close();
    opened.splice(0);
    const restarted = await fileApp(file, 1);
    expect(await answers(restarted.app, reads(READS))).toEqual(reference.slice(-READS.length));
  });

  it('a client-written change is kept as that change alone, over the generated dataset', async () => {
    const file = tempFile();
    const { app, store } = await fileApp(file);
    await answers(app, WRITES.slice(0, 2));
    await store.close();
    opened.splice(0);
    await (await fileApp(file)).store.flush();
    const snapshot = snapshotOf(file) as Record<
      string,
      Record<string, { a: unknown; o: { p: string[]; v?: unknown }[] }>
    >;
    const [pos] = Object.values(snapshot.pos_datasets ?? {});
    expect(pos?.o.map((op) => op.p[0])).toEqual(expect.arrayContaining(['customers']));
    expect(JSON.stringify(pos?.o).length).toBeLessThan(4 * 1024);
  });

  it('a deleted consumer takes its datasets with it, also those no longer in memory', async () => {
    const file = tempFile();
    const { app, store } = await fileApp(file, 1);
    await answers(app, [WRITES[1] as (typeof WRITES)[number]]);
    const key = store.generatedKeys('pos_datasets').find((k) => k.startsWith(`${v.POS}:`));
    expect(key).toBeDefined();
    expect(store.world.pos_datasets[key as string]).toBeUndefined(); // left the cache
    const deleted = await answers(app, [{ method: 'DELETE', path: `/consumers/${v.POS}` }]);
    expect(deleted[0]).toMatch(/ 204 /);
    expect(store.generatedKeys('pos_datasets')).not.toContain(key);
    await store.close();
    opened.splice(0);
    const again = await fileApp(file, 1);
    expect(again.store.generatedKeys('pos_datasets')).not.toContain(key);
  });

  it('opens a world file of the first format (one JSON object with the datasets in it) and converts it once', async () => {
    const written = createApp({ seed: SEED });
    const series = [...WRITES.slice(0, 3), ...reads(READS)];
    const reference = await answers(written, series);
    // The first format: the whole world in one object, generated datasets included.
    const file = tempFile();
    writeFileSync(file, JSON.stringify(written.services.store.world));
    const { app, store } = await fileApp(file);
    expect(readFileSync(file, 'utf8').startsWith('{"format"')).toBe(true);
    expect(await answers(app, reads(READS))).toEqual(reference.slice(-READS.length));
    expect(withDatasets(store).pos_datasets).toBeDefined();
  });

  it('refuses a field of a record longer than a record may hold with 413, and writes nothing', async () => {
    const app = createApp({ seed: SEED });
    const long = 'x'.repeat(MAX_FIELD_CHARS + 1);
    const [refused] = await answers(app, [
      { method: 'POST', path: `/consumers/${v.INVOICING}/invoicing/contacts`, body: { company_name: long } },
    ]);
    const body = JSON.parse((refused as string).replace(/^\S+ \S+ 413 /, ''));
    expect(refused).toMatch(/^POST \S+ 413 /);
    expect(body).toMatchObject({
      status: 'error',
      message: messages.recordTooLarge('company_name', MAX_FIELD_CHARS + 1, MAX_FIELD_CHARS),
    });
    const [list] = await answers(app, [
      { method: 'GET', path: `/consumers/${v.INVOICING}/invoicing/contacts` },
    ]);
    expect(list).not.toContain('xxxxxxxxxx');
    // A datastore row too (a record of the platform): its text columns are fields like any other.
    const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    const stores = (await call(app, 'GET', '/datastores', { token })).body as { id: string; name: string }[];
    const datastore = stores.find((d) => d.name === INVOICE_STATE.name)?.id as string;
    const row = (invoice_number: string) => [
      { data: { invoice_number, amount: 1.5, synced_at: '2026-01-10T10:00:00Z' } },
    ];
    const path = `/consumers/${v.INVOICING}/datastore/${datastore}/data`;
    const tooLong = await call(app, 'POST', path, { token, body: row(long) });
    expect(tooLong.status).toBe(413);
    expect(tooLong.body.message).toBe(
      messages.recordTooLarge('invoice_number', MAX_FIELD_CHARS + 1, MAX_FIELD_CHARS),
    );
    expect((await call(app, 'POST', path, { token, body: row('short') })).status).toBe(200);
  });

  it("keeps a file's content (base64_string) of any length the request body takes", async () => {
    const store = await openWorldFile(tempFile(), () => seedWorld(SEED));
    opened.push(store);
    const content = 'A'.repeat(MAX_FIELD_CHARS * 4);
    const record = (id: string, field: string) => ({
      connectionid: id,
      consumerid: 'x',
      collections: { a: { b: { [field]: content } } },
      count: 1,
      bytes: 1,
    });
    await store.transact((tx) => {
      tx.world.custom_records.c = record('c', 'base64_string');
    });
    await expect(
      store.transact((tx) => {
        tx.world.custom_records.d = record('d', 'name');
      }),
    ).rejects.toBeInstanceOf(RecordTooLargeError);
    expect(store.world.custom_records.d).toBeUndefined();
  });

  it('refuses writes past --max-world-bytes with 413 and takes them again once records are deleted', async () => {
    const app = createApp({ seed: SEED, maxWorldBytes: 6_000 });
    const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    const created: string[] = [];
    let refused: Awaited<ReturnType<typeof call<{ message: string }>>> | null = null;
    for (let i = 0; i < 100 && !refused; i++) {
      const res = await call(app, 'POST', '/consumers', {
        token,
        body: { name: `Quota ${i} ${'q'.repeat(200)}` },
      });
      if (res.status === 200) created.push(res.body.consumerid as string);
      else refused = res;
    }
    expect(created.length).toBeGreaterThan(5);
    expect(refused?.status).toBe(413);
    expect(refused?.body.message).toMatch(
      /^The world would hold \d+ bytes written by clients, more than its limit of 6000/,
    );
    const count = (await call(app, 'GET', '/consumers', { token })).body.length;
    for (const id of created.slice(0, 3)) {
      expect((await call(app, 'DELETE', `/consumers/${id}`, { token })).status).toBe(204);
    }
    const again = await call(app, 'POST', '/consumers', { token, body: { name: 'After deleting' } });
    expect(again.status).toBe(200);
    expect((await call(app, 'GET', '/consumers', { token })).body.length).toBe(count - 3 + 1);
  });

  it('a world loaded whole from fixtures keeps its datasets as their changes, through a tiny cache and a restart', async () => {
    const file = tempFile();
    const { app, store } = await fileApp(file, 1);
    const token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    const loaded = await call(app, 'POST', '/__sandbox/fixtures', {
      body: {
        replace: true,
        consumers: [
          {
            name: 'Fixture shop',
            connections: [
              { integration: 'Zelty', pos: { customers: [{ first_name: 'Fix', last_name: 'Ture' }] } },
            ],
          },
        ],
      },
    });
    expect(loaded.status, loaded.text).toBe(200);
    const consumer = (
      (await call(app, 'GET', '/consumers', { token })).body as { consumerid: string; name: string }[]
    ).find((c) => c.name === 'Fixture shop')?.consumerid as string;
    const path = `/consumers/${consumer}/pos/customers`;
    const before = await call(app, 'GET', path, { token });
    expect(before.status, before.text).toBe(200);
    expect(before.text).toContain('"first_name":"Fix"');
    // Kept as its arguments and its changes, not whole: the fixture's customer, not the generated ones.
    const [key] = store.generatedKeys('pos_datasets');
    expect(key?.startsWith(`${consumer}:`)).toBe(true);
    await store.close();
    opened.splice(0);
    const snapshot = snapshotOf(file) as Record<string, Record<string, { a: unknown; o: { p: string[] }[] }>>;
    const entry = snapshot.pos_datasets?.[key as string];
    expect(entry?.a).not.toBeNull();
    expect(entry?.o.every((op) => op.p.length > 0)).toBe(true);
    const again = await fileApp(file, 1);
    const after = await call(again.app, 'GET', path, {
      token: await tokenFor(again.app, { accountId: ids.accountId, ...ids.sandbox }),
    });
    expect(after.text).toBe(before.text);
  });

  it('a reset forgets the datasets in use and the bytes clients wrote', async () => {
    const app = createApp({ seed: SEED });
    await answers(app, WRITES.slice(0, 2));
    const store = app.services.store;
    expect(store.generatedKeys('pos_datasets')).toHaveLength(1);
    expect(store.world.meta.client_bytes).toBeGreaterThan(0);
    expect((await call(app, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(app.services.store.generatedKeys('pos_datasets')).toEqual([]);
    expect(app.services.store.world.meta.client_bytes ?? 0).toBe(0);
    expect(app.services.store.cacheUsage().datasets).toBe(0);
  });
});
