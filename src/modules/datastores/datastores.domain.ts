import type { Clock } from '../../lib/clock.js';
import { instantOf } from '../../lib/clock.js';
import { errors } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import type { Principal } from '../../platform/tokens.js';
import type {
  ConsumerRecord,
  DatastoreColumnRecord,
  DatastoreColumnType,
  DatastoreDataRecord,
  DatastoreRecord,
  DatastoreStatus,
  World,
} from '../../store/world.js';
import type {
  DataItemInput,
  DataItemOutput,
  DataStoreItemOut,
  DatastoreDataFilters,
} from './datastores.schemas.js';

/**
 * Datastores are defined per account (both of its environments see the same definitions); their
 * rows belong to one consumer of one datastore. Every row written must match the definition.
 */

export const toDataStoreItem = (record: DatastoreRecord): DataStoreItemOut => ({
  id: record.datastoreid,
  name: record.name,
  status: record.status,
  definition: {
    columns: record.definition.columns.map((c) => ({
      name: c.name,
      title: c.title,
      type: c.type,
      optional: c.optional,
    })),
    search_column: record.definition.search_column,
  },
});

export const toDataItemOut = (record: DatastoreDataRecord): DataItemOutput => ({
  data: record.data,
  id: record.datastoredataid,
  created_on: record.created_on,
  modified_on: record.modified_on,
});

/** The account's datastores, in creation order, optionally of one status. */
export function listDatastores(
  world: World,
  principal: Principal,
  status?: DatastoreStatus,
): DatastoreRecord[] {
  return Object.values(world.datastores).filter(
    (d) => d.accountid === principal.accountid && (status === undefined || d.status === status),
  );
}

/** A datastore of the caller's account; another account's does not exist for the caller. */
export function requireDatastore(world: World, principal: Principal, datastoreid: string): DatastoreRecord {
  const record = own(world.datastores, datastoreid.toLowerCase());
  if (!record || record.accountid !== principal.accountid) throw errors.datastoreNotFound();
  return record;
}

/** A row of the consumer in the datastore; a row of another consumer or datastore does not exist. */
export function requireRow(
  world: World,
  consumer: ConsumerRecord,
  datastore: DatastoreRecord,
  datastoredataid: string,
): DatastoreDataRecord {
  const row = own(world.datastore_data, datastoredataid.toLowerCase());
  if (!row || row.consumerid !== consumer.consumerid || row.datastoreid !== datastore.datastoreid) {
    throw errors.datastoreDataNotFound();
  }
  return row;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether a JSON value fits a column type. */
export function fitsType(type: DatastoreColumnType, value: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value);
    case 'datetime': {
      if (typeof value !== 'string') return false;
      const match = DATETIME.exec(value);
      return match !== null && isCalendarDate(match[1] ?? '') && !Number.isNaN(Date.parse(value));
    }
  }
}

const TYPE_WORDS: Record<DatastoreColumnType, string> = {
  text: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'a date-time (ISO 8601)',
};

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * What keeps a row from matching a definition, one entry per offending column: a column missing
 * (or null) that is not optional, a column the definition does not have, a value of the wrong type.
 */
export function definitionProblems(
  columns: readonly DatastoreColumnRecord[],
  data: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  const known = new Map(columns.map((c) => [c.name, c]));
  for (const column of columns) {
    const value = Object.hasOwn(data, column.name) ? data[column.name] : undefined;
    if (value === undefined || value === null) {
      if (!column.optional) problems.push(`column '${column.name}' is required`);
    } else if (!fitsType(column.type, value)) {
      problems.push(`column '${column.name}' must be ${TYPE_WORDS[column.type]}, not ${kindOf(value)}`);
    }
  }
  for (const name of Object.keys(data)) {
    if (!known.has(name)) problems.push(`column '${name}' is not in the definition`);
  }
  return problems;
}

/** 422 unless the row matches the definition, naming each offending column in the detail. */
export function assertMatchesDefinition(datastore: DatastoreRecord, data: Record<string, unknown>): void {
  const problems = definitionProblems(datastore.definition.columns, data);
  if (problems.length) throw errors.datastoreInputInvalid(problems);
}

/** The consumer's rows of the datastore, oldest first, filtered by creation time and execution. */
export function listRows(
  world: World,
  consumer: ConsumerRecord,
  datastore: DatastoreRecord,
  filters: DatastoreDataFilters,
): DatastoreDataRecord[] {
  const from = filters.date_from !== undefined ? instantOf(filters.date_from) : undefined;
  const to = filters.date_to !== undefined ? instantOf(filters.date_to) : undefined;
  return Object.values(world.datastore_data).filter((row) => {
    if (row.consumerid !== consumer.consumerid || row.datastoreid !== datastore.datastoreid) return false;
    if (filters.executionid !== undefined && row.executionid !== filters.executionid) return false;
    const created = Date.parse(row.created_on);
    return (from === undefined || created >= from) && (to === undefined || created <= to);
  });
}

/**
 * Header the official SDK sends while it runs a flow locally: the id of the consumer's (chain)
 * execution. Rows added with it are linked to that execution (the executionid filter finds them).
 */
export const RELATED_EXECUTION_HEADER = 'x-chift-relatedchainexecutionid';

/** The execution a request's rows belong to: the header's value when it is a plausible id. */
export function relatedExecutionId(header: string | undefined): string | null {
  const value = header?.trim() ?? '';
  return value.length > 0 && value.length <= 100 ? value : null;
}

/**
 * Rows one consumer may hold in one datastore: the service documents no bound, and its list
 * (GET .../data) answers them all at once, unpaged.
 */
export const MAX_DATASTORE_ROWS = 10_000;

/** Refuses with 413 rows that would take the consumer's rows of the datastore past MAX_DATASTORE_ROWS. */
function assertRoomForRows(
  world: World,
  consumer: ConsumerRecord,
  datastore: DatastoreRecord,
  count: number,
  known?: number,
) {
  let held = known ?? 0;
  if (known === undefined) {
    for (const row of Object.values(world.datastore_data)) {
      if (row.consumerid === consumer.consumerid && row.datastoreid === datastore.datastoreid) held += 1;
    }
  }
  if (held + count > MAX_DATASTORE_ROWS) {
    throw errors.listFull(
      'rows per consumer in a datastore',
      MAX_DATASTORE_ROWS,
      `The consumer holds ${held} rows in this datastore and ${count} were given: DELETE .../data/{datastoredataid} removes one`,
    );
  }
}

/**
 * Adds rows: every item is checked first (a 422 names the item's index and its problems), then
 * all are written, or none (413 past MAX_DATASTORE_ROWS). `held`, when the caller knows it (a fixture
 * filling a datastore it just made), is how many rows the consumer has in the datastore already:
 * the rows of the world are then not counted again for each row.
 */
export function createRows(
  world: World,
  deps: { ids: IdSource; clock: Clock },
  consumer: ConsumerRecord,
  datastore: DatastoreRecord,
  items: readonly DataItemInput[],
  executionid: string | null = null,
  held?: number,
): DatastoreDataRecord[] {
  const problems = items.flatMap((item, index) =>
    definitionProblems(datastore.definition.columns, item.data).map((p) => `item ${index}: ${p}`),
  );
  if (problems.length) throw errors.datastoreInputInvalid(problems);
  assertRoomForRows(world, consumer, datastore, items.length, held);
  const now = deps.clock.now().toISOString();
  return items.map((item) => {
    const row: DatastoreDataRecord = {
      datastoredataid: deps.ids.next('datastore-data'),
      datastoreid: datastore.datastoreid,
      consumerid: consumer.consumerid,
      executionid,
      data: { ...item.data },
      created_on: now,
      modified_on: now,
    };
    world.datastore_data[row.datastoredataid] = row;
    return row;
  });
}

/**
 * Changes a row: the given columns replace the row's (null empties an optional column, and is kept
 * as null as on creation), the others stay, and the result must match the definition.
 */
export function updateRow(
  row: DatastoreDataRecord,
  datastore: DatastoreRecord,
  input: DataItemInput,
  clock: Clock,
): DatastoreDataRecord {
  const merged: Record<string, unknown> = { ...row.data, ...input.data };
  assertMatchesDefinition(datastore, merged);
  row.data = merged;
  row.modified_on = clock.now().toISOString();
  return row;
}

export function deleteRow(world: World, row: DatastoreDataRecord): void {
  delete world.datastore_data[row.datastoredataid];
}
