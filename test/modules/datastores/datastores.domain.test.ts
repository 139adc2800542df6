import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import {
  assertMatchesDefinition,
  createRows,
  definitionProblems,
  deleteRow,
  fitsType,
  listDatastores,
  listRows,
  relatedExecutionId,
  requireDatastore,
  requireRow,
  toDataItemOut,
  toDataStoreItem,
  updateRow,
} from '../../../src/modules/datastores/datastores.domain.js';
import type { DatastoreDataFilters } from '../../../src/modules/datastores/datastores.schemas.js';
import { seededDatastoreId } from '../../../src/modules/datastores/datastores.seed.js';
import type { Principal } from '../../../src/platform/tokens.js';
import type {
  ConsumerRecord,
  DatastoreColumnType,
  DatastoreDataRecord,
  DatastoreRecord,
  DatastoreStatus,
  World,
} from '../../../src/store/world.js';
import { refusal } from '../domain-helpers.js';

/** The datastore rules called directly, each test on a copy of the seeded world of seed 7. */

const SEEDED = seedWorld(7);
const world = (): World => structuredClone(SEEDED);
const DIR = seedDirectory(7);
const INVOICES = seededDatastoreId(7, DIR.accountId, 'invoice-sync-state');
const MAPPING = seededDatastoreId(7, DIR.accountId, 'customer-mapping');
const LEGACY = seededDatastoreId(7, DIR.accountId, 'legacy-export');
const OTHER = seededDatastoreId(7, DIR.otherAccount.accountId, 'order-tracking');
const ACCOUNTING = DIR.verticalConsumers.ACCOUNTING as string;
/** Rows of the sync consumer in the invoices datastore, oldest first, and the executions they name. */
const ROWS = [
  ...['15e27556-8414-41dc-b0be-63d7fbb1b2df', 'b2775f3c-9fc3-450d-8c42-f0f8fc71dad6'],
  ...['511050bb-1380-49bf-89de-3f6cf9088696', '4d3d41c8-e331-4484-9c4f-00108d57fd5a'],
  '5742c458-0fc3-4a6f-9a29-97fc177a1d59',
];
const RUN_1 = '8b173dae-517f-4b9a-9817-2c4e81066519';
const RUN_2 = '50166a08-7b4d-4f36-a8fd-622cfa5ecd6b';
const MAPPING_ROW = '1c5a2ee9-77ac-4106-a7e9-76fd18dc3fc1';
const ACCOUNTING_ROW = '661fb3d7-906c-4a9e-9fbf-63cb049c9b58';

const principal = (over: Partial<Principal> = {}): Principal => ({
  ...{ kind: 'api', clientid: 'key', accountid: DIR.accountId, envid: DIR.sandboxEnvId },
  ...{ consumers: null, mcp: null, ...over },
});
function get<T>(records: Record<string, T>, id: string): T {
  const found = records[id];
  if (!found) throw new Error(`no record ${id}`);
  return found;
}
const consumer = (w: World, id = DIR.syncConsumerId): ConsumerRecord => get(w.consumers, id);
const store = (w: World, id = INVOICES): DatastoreRecord => get(w.datastores, id);
const row = (w: World, id: string): DatastoreDataRecord => get(w.datastore_data, id);
/** Ids numbered from 1 and a manual clock, of the test's own. */
function deps(at = '2026-02-01T10:00:00.000Z') {
  let minted = 0;
  const ids = { next: (kind: string) => uuidFrom('domain-test', kind, ++minted) };
  return { ids, clock: manualClock(new Date(at)) };
}

const invalid = (...problems: string[]) => ({
  ...{ status: 422, message: 'The input does not match the definition of the datastore' },
  ...{ detail: problems.join('; '), code: undefined },
});
const NO_STORE = { status: 404, message: 'The datastore does not exist', detail: '', code: undefined };
const NO_ROW = { status: 404, message: 'The datastoredata does not exist', detail: '', code: undefined };
const VALID = { invoice_number: 'INV-1', amount: 12.5, synced_at: '2026-01-31T10:00:00Z' };

describe('datastores of an account', () => {
  it.each<[string, Partial<Principal>, DatastoreStatus | undefined, string[]]>([
    ['every one, in creation order', {}, undefined, [INVOICES, MAPPING, LEGACY]],
    ['the active ones', {}, 'active', [INVOICES, MAPPING]],
    ['the inactive ones', {}, 'inactive', [LEGACY]],
    [
      'the same from the production environment',
      { envid: DIR.productionEnvId },
      undefined,
      [INVOICES, MAPPING, LEGACY],
    ],
    ['those of another account', { accountid: DIR.otherAccount.accountId }, undefined, [OTHER]],
  ])('lists %s', (_name, caller, status, expected) => {
    expect(listDatastores(world(), principal(caller), status).map((d) => d.datastoreid)).toEqual(expected);
  });

  it('finds one by its id in any letter case', () => {
    const w = world();
    expect(requireDatastore(w, principal(), INVOICES.toUpperCase())).toBe(store(w));
  });

  it.each([
    ["another account's", OTHER],
    ['__proto__', '__proto__'],
    ['toString', 'toString'],
    ['an unknown id', '00000000-0000-4000-8000-000000000000'],
  ])('does not find %s', (_name, id) => {
    expect(refusal(() => requireDatastore(world(), principal(), id))).toEqual(NO_STORE);
  });

  it('answers the wire shapes of a datastore and a row', () => {
    const w = world();
    expect(toDataStoreItem(store(w, LEGACY))).toEqual({
      ...{ id: LEGACY, name: 'legacy-export', status: 'inactive' },
      definition: {
        columns: [
          { name: 'export_id', title: 'Export id', type: 'text', optional: false },
          { name: 'exported_on', title: 'Exported on', type: 'datetime', optional: false },
        ],
        search_column: null,
      },
    });
    expect(toDataItemOut(row(w, MAPPING_ROW))).toEqual({
      ...{ data: { source_id: 'CUS-100', target_id: '40001' }, id: MAPPING_ROW },
      ...{ created_on: '2025-12-23T10:39:00.000Z', modified_on: '2025-12-23T10:39:00.000Z' },
    });
  });
});

describe('rows of a consumer', () => {
  it('finds one by its id in any letter case', () => {
    const w = world();
    expect(requireRow(w, consumer(w), store(w), (ROWS[0] as string).toUpperCase())).toBe(
      row(w, ROWS[0] as string),
    );
  });

  it.each([
    ["another consumer's row", ACCOUNTING_ROW],
    ['a row of another datastore', MAPPING_ROW],
    ['__proto__', '__proto__'],
    ['hasOwnProperty', 'hasOwnProperty'],
  ])('does not find %s', (_name, id) => {
    const w = world();
    expect(refusal(() => requireRow(w, consumer(w), store(w), id))).toEqual(NO_ROW);
  });

  it.each<[string, DatastoreDataFilters, string[]]>([
    ['without filters, oldest first', {}, ROWS],
    ['of one execution', { executionid: RUN_2 }, [ROWS[2], ROWS[3]] as string[]],
    ['of an unknown execution', { executionid: 'nope' }, []],
    ['from an instant, included', { date_from: '2025-12-22T08:33:00.000Z' }, ROWS.slice(2)],
    ['from the next millisecond', { date_from: '2025-12-22T08:33:00.001Z' }, ROWS.slice(3)],
    ['up to an instant, included', { date_to: '2025-12-21T15:31:00Z' }, ROWS.slice(0, 2)],
    ['up to an instant without offset (UTC)', { date_to: '2025-12-21T15:31:00' }, ROWS.slice(0, 2)],
    ['up to an instant with an offset', { date_to: '2025-12-21T16:31:00+01:00' }, ROWS.slice(0, 2)],
    [
      'in a range',
      { date_from: '2025-12-21T00:00:00Z', date_to: '2025-12-22T23:59:59Z', executionid: RUN_1 },
      ROWS.slice(0, 2),
    ],
    ['in an empty range', { date_from: '2025-12-23T00:00:00Z', date_to: '2025-12-22T00:00:00Z' }, []],
  ])('lists those %s', (_name, filters, expected) => {
    const w = world();
    expect(listRows(w, consumer(w), store(w), filters).map((r) => r.datastoredataid)).toEqual(expected);
  });

  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['   ', null],
    [' chain-1 ', 'chain-1'],
    ['x'.repeat(100), 'x'.repeat(100)],
    ['x'.repeat(101), null],
    [` ${'x'.repeat(100)} `, 'x'.repeat(100)],
  ])('takes the execution header %j as %j', (header, expected) => {
    expect(relatedExecutionId(header)).toBe(expected);
  });
});

describe('column types', () => {
  it.each<[DatastoreColumnType, unknown, boolean]>([
    ['text', 'abc', true],
    ['text', '', true],
    ['text', 1, false],
    ['number', 1.5, true],
    ['number', -0, true],
    ['number', Number.NaN, false],
    ['number', Number.POSITIVE_INFINITY, false],
    ['number', '1', false],
    ['integer', 3, true],
    ['integer', 3.0, true],
    ['integer', 3.5, false],
    ['integer', '3', false],
    ['integer', 2 ** 60, true],
    ['boolean', false, true],
    ['boolean', 0, false],
    ['boolean', 'true', false],
    ['date', '2026-01-31', true],
    ['date', '2028-02-29', true],
    ['date', '2026-02-29', false],
    ['date', '2026-04-31', false],
    ['date', '2026-13-01', false],
    ['date', '2026-1-5', false],
    ['date', '2026-01-31T00:00:00Z', false],
    ['date', 20260131, false],
    ['datetime', '2026-01-31T10:00:00Z', true],
    ['datetime', '2026-01-31T10:00', true],
    ['datetime', '2026-01-31t10:00:00.123456789z', true],
    ['datetime', '2026-01-31T10:00:00+0100', true],
    ['datetime', '2026-01-31T10:00:00-05:30', true],
    ['datetime', '2026-02-30T10:00:00Z', false],
    ['datetime', '2026-01-31T25:00:00Z', false],
    ['datetime', '2026-01-31 10:00:00Z', false],
    ['datetime', '2026-01-31', false],
    ['datetime', '2026-01-31T10:00:00.1234567890Z', false],
    ['datetime', 1769853600000, false],
  ])('%s takes %j: %s', (type, value, expected) => {
    expect(fitsType(type, value)).toBe(expected);
  });
});

describe('matching a definition', () => {
  // invoice_number text, amount number, lines integer?, paid boolean?, due_date date?, synced_at datetime
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a complete row', { ...VALID, lines: 2, paid: true, due_date: '2026-02-28' }, []],
    ['optional columns left out', VALID, []],
    ['optional columns null', { ...VALID, lines: null, paid: null, due_date: null }, []],
    [
      'a required column missing',
      { amount: 1, synced_at: '2026-01-31T10:00:00Z' },
      ["column 'invoice_number' is required"],
    ],
    ['a required column null', { ...VALID, amount: null }, ["column 'amount' is required"]],
    ['a text as number', { ...VALID, amount: '12.5' }, ["column 'amount' must be a number, not string"]],
    ['a fraction as integer', { ...VALID, lines: 1.5 }, ["column 'lines' must be an integer, not number"]],
    ['a string as boolean', { ...VALID, paid: 'yes' }, ["column 'paid' must be true or false, not string"]],
    [
      'a 31 February',
      { ...VALID, due_date: '2026-02-31' },
      ["column 'due_date' must be a date (YYYY-MM-DD), not string"],
    ],
    [
      'an object as date-time',
      { ...VALID, synced_at: {} },
      ["column 'synced_at' must be a date-time (ISO 8601), not object"],
    ],
    [
      'an array as text',
      { ...VALID, invoice_number: ['a'] },
      ["column 'invoice_number' must be a string, not array"],
    ],
    ['an unknown column', { ...VALID, extra: 1 }, ["column 'extra' is not in the definition"]],
    ['an unknown column, even null', { ...VALID, extra: null }, ["column 'extra' is not in the definition"]],
    [
      'an empty row',
      {},
      [
        "column 'invoice_number' is required",
        "column 'amount' is required",
        "column 'synced_at' is required",
      ],
    ],
    [
      'several problems, in the order of the columns then the unknown ones',
      { zz: 1, amount: true, invoice_number: 5 },
      [
        "column 'invoice_number' must be a string, not number",
        "column 'amount' must be a number, not boolean",
        "column 'synced_at' is required",
        "column 'zz' is not in the definition",
      ],
    ],
  ])('%s', (_name, data, problems) => {
    const w = world();
    expect(definitionProblems(store(w).definition.columns, data)).toEqual(problems);
    if (problems.length === 0) expect(() => assertMatchesDefinition(store(w), data)).not.toThrow();
    else expect(refusal(() => assertMatchesDefinition(store(w), data))).toEqual(invalid(...problems));
  });

  it('does not take an inherited member for a column', () => {
    const w = world();
    const data = JSON.parse(
      '{"__proto__": "x", "invoice_number": "I", "amount": 1, "synced_at": "2026-01-31T10:00:00Z"}',
    );
    expect(definitionProblems(store(w).definition.columns, data)).toEqual([
      "column '__proto__' is not in the definition",
    ]);
    const columns = [{ name: 'toString', title: 't', type: 'text' as const, optional: false }];
    expect(definitionProblems(columns, {})).toEqual(["column 'toString' is required"]);
  });
});

describe('writing rows', () => {
  it('adds every item, linked to the execution, dated now', () => {
    const w = world();
    const items = [{ data: VALID }, { data: { ...VALID, invoice_number: 'INV-2', paid: false } }];
    const rows = createRows(w, deps(), consumer(w, ACCOUNTING), store(w), items, 'chain-9');
    expect(rows).toEqual(
      items.map((item, i) => ({
        ...{ datastoredataid: uuidFrom('domain-test', 'datastore-data', i + 1), datastoreid: INVOICES },
        ...{ consumerid: ACCOUNTING, executionid: 'chain-9', data: item.data },
        ...{ created_on: '2026-02-01T10:00:00.000Z', modified_on: '2026-02-01T10:00:00.000Z' },
      })),
    );
    expect(rows[0]?.data).not.toBe(items[0]?.data);
    for (const r of rows) expect(w.datastore_data[r.datastoredataid]).toBe(r);
    const listed = listRows(w, consumer(w, ACCOUNTING), store(w), { executionid: 'chain-9' });
    expect(listed).toEqual(rows);
  });

  it('links rows to no execution by default, and adds nothing for no items', () => {
    const w = world();
    expect(
      createRows(w, deps(), consumer(w), store(w, MAPPING), [{ data: { source_id: 'a', target_id: 'b' } }])[0]
        ?.executionid,
    ).toBeNull();
    expect(createRows(w, deps(), consumer(w), store(w), [])).toEqual([]);
  });

  it('adds none when one item is refused, naming each item and problem', () => {
    const w = world();
    const before = JSON.stringify(w.datastore_data);
    const items = [{ data: VALID }, { data: { ...VALID, amount: 'x' } }, { data: { extra: 1 } }];
    expect(refusal(() => createRows(w, deps(), consumer(w), store(w), items))).toEqual(
      invalid(
        "item 1: column 'amount' must be a number, not string",
        "item 2: column 'invoice_number' is required",
        "item 2: column 'amount' is required",
        "item 2: column 'synced_at' is required",
        "item 2: column 'extra' is not in the definition",
      ),
    );
    expect(JSON.stringify(w.datastore_data)).toBe(before);
  });

  it('updates the given columns, keeps the others and a null in an optional column', () => {
    const w = world();
    const target = row(w, ROWS[0] as string);
    const updated = updateRow(
      target,
      store(w),
      { data: { amount: 10, paid: null } },
      manualClock(new Date('2026-03-01T00:00:00Z')),
    );
    expect(updated).toBe(target);
    expect(updated.data).toEqual({
      ...{ invoice_number: 'INV-2025-9749', amount: 10, lines: 8, paid: null },
      ...{ due_date: '2025-12-20', synced_at: '2025-12-20T16:26:00.000Z' },
    });
    expect([updated.created_on, updated.modified_on]).toEqual([
      '2025-12-21T00:07:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a required column emptied', { amount: null }, ["column 'amount' is required"]],
    ['a value of the wrong type', { lines: '3' }, ["column 'lines' must be an integer, not string"]],
    ['an unknown column', { notes: 'x' }, ["column 'notes' is not in the definition"]],
  ])('refuses an update with %s, leaving the row as it was', (_name, data, problems) => {
    const w = world();
    const target = row(w, ROWS[0] as string);
    const before = JSON.stringify(target);
    expect(refusal(() => updateRow(target, store(w), { data }, manualClock()))).toEqual(invalid(...problems));
    expect(JSON.stringify(target)).toBe(before);
  });

  it('deletes a row, and only it', () => {
    const w = world();
    const count = Object.keys(w.datastore_data).length;
    deleteRow(w, row(w, ROWS[1] as string));
    expect(Object.keys(w.datastore_data)).toHaveLength(count - 1);
    expect(refusal(() => requireRow(w, consumer(w), store(w), ROWS[1] as string))).toEqual(NO_ROW);
    expect(listRows(w, consumer(w), store(w), {}).map((r) => r.datastoredataid)).toEqual([
      ROWS[0],
      ...ROWS.slice(2),
    ]);
  });
});
