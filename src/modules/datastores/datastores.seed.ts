import { uuidFrom } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import type { SeededIds } from '../../platform/credentials.js';
import { seededFaker } from '../../platform/seeding/fakers.js';
import type {
  DatastoreColumnRecord,
  DatastoreDataRecord,
  DatastoreRecord,
  DatastoreStatus,
  World,
} from '../../store/world.js';

/**
 * Seeded datastores: a few definitions per account (active and inactive, every column type, with
 * and without a search column) and rows for some consumers, a part of them written by executions.
 */

interface DatastoreSeed {
  name: string;
  status: DatastoreStatus;
  columns: DatastoreColumnRecord[];
  search_column: string | null;
}

const column = (
  name: string,
  title: string,
  type: DatastoreColumnRecord['type'],
  optional = false,
): DatastoreColumnRecord => ({ name, title, type, optional });

export const INVOICE_STATE: DatastoreSeed = {
  name: 'invoice-sync-state',
  status: 'active',
  columns: [
    column('invoice_number', 'Invoice number', 'text'),
    column('amount', 'Amount', 'number'),
    column('lines', 'Number of lines', 'integer', true),
    column('paid', 'Paid', 'boolean', true),
    column('due_date', 'Due date', 'date', true),
    column('synced_at', 'Synchronised at', 'datetime'),
  ],
  search_column: 'invoice_number',
};

export const CUSTOMER_MAPPING: DatastoreSeed = {
  name: 'customer-mapping',
  status: 'active',
  columns: [
    column('source_id', 'Id in the source system', 'text'),
    column('target_id', 'Id in the accounting system', 'text'),
    column('note', 'Note', 'text', true),
  ],
  search_column: 'source_id',
};

export const LEGACY_EXPORT: DatastoreSeed = {
  name: 'legacy-export',
  status: 'inactive',
  columns: [column('export_id', 'Export id', 'text'), column('exported_on', 'Exported on', 'datetime')],
  search_column: null,
};

export const OTHER_ACCOUNT_STORE: DatastoreSeed = {
  name: 'order-tracking',
  status: 'active',
  columns: [column('order_id', 'Order id', 'text'), column('total', 'Total', 'number')],
  search_column: 'order_id',
};

/** The id of a seeded datastore of an account. */
export const seededDatastoreId = (seed: number, accountid: string, name: string) =>
  uuidFrom('datastore', seed, accountid, name);

/**
 * The n-th (from 1) seeded flow execution of a consumer, oldest first: seeded rows are linked to it.
 * The order compares code units: instants of one format and lower-case UUIDs sort the same way as
 * with `localeCompare`, which would make every new process load ICU's collator (~5 ms) while it
 * builds its first world.
 */
export function seededDataExecutionId(world: World, consumerid: string, n: number): string | null {
  const runs = Object.values(world.executions)
    .filter((execution) => execution.consumerid === consumerid && execution.kind === 'flow')
    .sort((a, b) => byCodeUnits(a.start, b.start) || byCodeUnits(a.executionid, b.executionid));
  return runs[n - 1]?.executionid ?? null;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Rows are dated in the last days of 2025, before the sandbox clock's start. */
const ROWS_START = Date.parse('2025-12-20T08:00:00.000Z');

export function seedDatastores(world: World, seed: number, dir: SeededIds): void {
  const faker = seededFaker('en', [seed, 4242]);
  let minute = 0;
  const at = () => {
    minute += faker.number.int({ min: 30, max: 600 });
    return new Date(ROWS_START + minute * 60_000).toISOString();
  };

  const datastore = (accountid: string, spec: DatastoreSeed): DatastoreRecord => {
    const record: DatastoreRecord = {
      datastoreid: seededDatastoreId(seed, accountid, spec.name),
      accountid,
      name: spec.name,
      status: spec.status,
      definition: { columns: spec.columns.map((c) => ({ ...c })), search_column: spec.search_column },
      created_on: new Date(ROWS_START - 30 * 86_400_000).toISOString(),
    };
    world.datastores[record.datastoreid] = record;
    return record;
  };

  const row = (
    store: DatastoreRecord,
    consumerid: string,
    data: Record<string, unknown>,
    executionid: string | null,
  ) => {
    if (!own(world.consumers, consumerid)) return;
    const created = at();
    const record: DatastoreDataRecord = {
      datastoredataid: uuidFrom('datastore-data', seed, store.datastoreid, consumerid, minute),
      datastoreid: store.datastoreid,
      consumerid,
      executionid,
      data,
      created_on: created,
      modified_on: created,
    };
    world.datastore_data[record.datastoredataid] = record;
  };

  const invoiceRow = () => {
    const synced = at();
    return {
      invoice_number: `INV-2025-${faker.number.int({ min: 1000, max: 9999 })}`,
      amount: faker.number.float({ min: 10, max: 5000, fractionDigits: 2 }),
      lines: faker.number.int({ min: 1, max: 12 }),
      paid: faker.datatype.boolean(),
      due_date: synced.slice(0, 10),
      synced_at: synced,
    };
  };

  const invoices = datastore(dir.accountId, INVOICE_STATE);
  const mapping = datastore(dir.accountId, CUSTOMER_MAPPING);
  const legacy = datastore(dir.accountId, LEGACY_EXPORT);
  const otherStore = datastore(dir.otherAccount.accountId, OTHER_ACCOUNT_STORE);

  // The sync consumer: rows of two executions and a row added by hand.
  for (let n = 1; n <= 2; n++) {
    for (let i = 0; i < 2; i++)
      row(invoices, dir.syncConsumerId, invoiceRow(), seededDataExecutionId(world, dir.syncConsumerId, n));
  }
  row(invoices, dir.syncConsumerId, { ...invoiceRow(), paid: null, due_date: null }, null);
  for (let i = 0; i < 3; i++) {
    row(
      mapping,
      dir.syncConsumerId,
      { source_id: `CUS-${100 + i}`, target_id: `4000${i + 1}` },
      seededDataExecutionId(world, dir.syncConsumerId, 1),
    );
  }
  row(legacy, dir.syncConsumerId, { export_id: 'EXP-1', exported_on: at() }, null);

  const accountingConsumer = dir.verticalConsumers.ACCOUNTING;
  if (accountingConsumer) {
    row(invoices, accountingConsumer, invoiceRow(), seededDataExecutionId(world, accountingConsumer, 1));
    row(mapping, accountingConsumer, { source_id: 'CUS-900', target_id: '40900', note: 'seeded' }, null);
  }
  row(otherStore, dir.otherAccountConsumerId, { order_id: 'ORD-1', total: 99.5 }, null);
}
