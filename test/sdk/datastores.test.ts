import { API } from '@chift/chift-nodejs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import {
  CUSTOMER_MAPPING,
  INVOICE_STATE,
  seededDatastoreId,
} from '../../src/modules/datastores/datastores.seed.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';

/** The official Node SDK's datastore methods against a listening sandbox (a fresh one per test). */
const SEED = 13;
const ids = seedDirectory(SEED);
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;

beforeEach(async () => {
  sandbox = await startSandbox({ seed: SEED, port: 0 });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
});

afterEach(async () => {
  await sandbox.close();
});

interface Row {
  id: string;
  data: Record<string, unknown>;
  created_on: string;
  modified_on: string;
}

const invoicesId = seededDatastoreId(SEED, ids.accountId, INVOICE_STATE.name);
const row = (n: number) => ({
  invoice_number: `SDK-${n}`,
  amount: n * 10,
  synced_at: '2026-01-10T10:00:00Z',
});

describe('official SDK against the sandbox: datastores', () => {
  it('lists the datastores with the fields the SDK reads (id, name)', async () => {
    const stores = (await client.DataStores.getDataStores()) as {
      id: string;
      name: string;
      status: string;
    }[];
    expect(stores.map((d) => d.name)).toContain(INVOICE_STATE.name);
    expect(stores.find((d) => d.name === INVOICE_STATE.name)?.id).toBe(invoicesId);
  });

  it('reads, adds, updates and deletes rows through a consumer, by id and by name', async () => {
    const consumer = await client.Consumers.getConsumerById(ids.syncConsumerId);
    const seeded = (await consumer.getDataByDataStoreId(invoicesId)) as Row[];
    expect(seeded.length).toBeGreaterThan(0);
    const byName = (await consumer.getDataByDataStoreName(INVOICE_STATE.name)) as Row[];
    expect(byName.map((r) => r.id)).toEqual(seeded.map((r) => r.id));

    const added = (await consumer.addDataByDataStoreId(invoicesId, [{ data: row(1) }])) as Row[];
    expect(added).toHaveLength(1);
    expect(added[0]?.data).toEqual(row(1));
    const addedByName = (await consumer.addDataByDataStoreName(INVOICE_STATE.name, [
      { data: row(2) },
      { data: row(3) },
    ])) as Row[];
    expect(addedByName.map((r) => r.data.invoice_number)).toEqual(['SDK-2', 'SDK-3']);

    const rowId = added[0]?.id as string;
    // The SDK types this answer as a list; the service answers the one row (DataItemOut).
    const updated = (await consumer.updateDataStoreData(invoicesId, rowId, {
      data: { paid: true },
    })) as unknown as Row;
    expect(updated.data).toEqual({ ...row(1), paid: true });

    const deleted = await consumer.deleteDataStoreData(invoicesId, rowId);
    expect(deleted).toEqual({});
    const after = (await consumer.getDataByDataStoreId(invoicesId)) as Row[];
    expect(after.map((r) => r.id)).not.toContain(rowId);
    expect(after).toHaveLength(seeded.length + 2);
  });

  it('passes the list filters through as query parameters', async () => {
    const consumer = await client.Consumers.getConsumerById(ids.syncConsumerId);
    const all = (await consumer.getDataByDataStoreId(invoicesId)) as Row[];
    const first = all[0] as Row;
    const upToFirst = (await consumer.getDataByDataStoreId(invoicesId, {
      date_to: first.created_on,
    } as never)) as Row[];
    expect(upToFirst.map((r) => r.id)).toEqual([first.id]);
  });

  it('the DataStores module reaches the same rows; a refused row comes back as the service error', async () => {
    const mappingId = seededDatastoreId(SEED, ids.accountId, CUSTOMER_MAPPING.name);
    const rows = (await client.DataStores.getConsumerDataStoreData(ids.syncConsumerId, mappingId)) as Row[];
    expect(rows).toHaveLength(3);
    // The SDK types the body of this module's create as one item; the operation takes a list.
    const [made] = (await client.DataStores.createConsumerDataStoreData(ids.syncConsumerId, mappingId, [
      { data: { source_id: 'S', target_id: 'T' } },
    ] as never)) as unknown as Row[];
    const changed = (await client.DataStores.updateConsumerDataStoreData(
      ids.syncConsumerId,
      mappingId,
      made?.id as string,
      { data: { note: 'sdk' } },
    )) as Row;
    expect(changed.data).toEqual({ source_id: 'S', target_id: 'T', note: 'sdk' });
    await client.DataStores.deleteConsumerDataStoreData(ids.syncConsumerId, mappingId, made?.id as string);
    await expect(
      client.DataStores.createConsumerDataStoreData(ids.syncConsumerId, mappingId, [
        { data: { source_id: 1 } },
      ] as never),
    ).rejects.toMatchObject({
      response: {
        status: 422,
        data: {
          message: 'The input does not match the definition of the datastore',
          status: 'error',
          detail:
            "item 0: column 'source_id' must be a string, not number; item 0: column 'target_id' is required",
        },
      },
    });
  });

  it('a name the account has no datastore of is refused by the SDK itself', async () => {
    const consumer = await client.Consumers.getConsumerById(ids.syncConsumerId);
    await expect(consumer.getDataByDataStoreName('no-such-store')).rejects.toThrow(
      'Datastore could not be found',
    );
  });
});
