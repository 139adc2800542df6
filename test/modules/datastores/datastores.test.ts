import { z } from '@hono/zod-openapi';
import { beforeEach, describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import { instantOf } from '../../../src/lib/clock.js';
import { errors } from '../../../src/lib/errors.js';
import {
  definitionProblems,
  fitsType,
  RELATED_EXECUTION_HEADER,
} from '../../../src/modules/datastores/datastores.domain.js';
import { DataItemOut, DataStoreItem } from '../../../src/modules/datastores/datastores.schemas.js';
import {
  CUSTOMER_MAPPING,
  INVOICE_STATE,
  LEGACY_EXPORT,
  OTHER_ACCOUNT_STORE,
  seededDataExecutionId,
  seededDatastoreId,
} from '../../../src/modules/datastores/datastores.seed.js';
import type { DatastoreColumnRecord, World } from '../../../src/store/world.js';
import {
  type CallOptions,
  call,
  expectError,
  expectValidation,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

const Store = DataStoreItem.strict();
const Row = DataItemOut.strict();
const MISSING = '00000000-0000-4000-8000-000000000000';

let s: TestSandbox;
let token: string;
let world: World;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  world = s.app.services.store.world;
});

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

const storeId = (name: string, accountid = s.ids.accountId) => seededDatastoreId(SEED, accountid, name);
const dataPath = (consumerid: string, datastoreid: string) =>
  `/consumers/${consumerid}/datastore/${datastoreid}/data`;
const rowPath = (consumerid: string, datastoreid: string, rowid: string) =>
  `${dataPath(consumerid, datastoreid)}/${rowid}`;

const invoices = () => storeId(INVOICE_STATE.name);
const mapping = () => storeId(CUSTOMER_MAPPING.name);

/** A row that matches the invoice-sync-state definition. */
const invoice = (extra: Record<string, unknown> = {}) => ({
  invoice_number: 'INV-1',
  amount: 12.5,
  synced_at: '2026-01-10T10:00:00Z',
  ...extra,
});

async function newConsumer(): Promise<string> {
  const res = await api('POST', '/consumers', { body: { name: 'Datastore consumer' } });
  expect(res.status).toBe(200);
  return res.body.consumerid as string;
}

async function rows(consumerid: string, datastoreid: string, query = '') {
  const res = await api('GET', `${dataPath(consumerid, datastoreid)}${query}`);
  expect(res.status, res.text).toBe(200);
  return z.array(Row).parse(res.body);
}

async function add(consumerid: string, datastoreid: string, items: unknown[], headers = {}) {
  const res = await api('POST', dataPath(consumerid, datastoreid), { body: items, headers });
  expect(res.status, res.text).toBe(200);
  return z.array(Row).parse(res.body);
}

const advance = (seconds: number) =>
  call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });

describe('GET /datastores', () => {
  it("lists the account's datastores, active and inactive, as DataStoreItem", async () => {
    const res = await api('GET', '/datastores');
    expect(res.status).toBe(200);
    const items = z.array(Store).parse(res.body);
    expect(items.map((d) => d.name)).toEqual([INVOICE_STATE.name, CUSTOMER_MAPPING.name, LEGACY_EXPORT.name]);
    expect(items[0]).toEqual({
      id: invoices(),
      name: INVOICE_STATE.name,
      status: 'active',
      definition: { columns: INVOICE_STATE.columns, search_column: 'invoice_number' },
    });
    expect(items.find((d) => d.name === LEGACY_EXPORT.name)).toMatchObject({
      status: 'inactive',
      definition: { search_column: null },
    });
  });

  it.each([
    ['active', [INVOICE_STATE.name, CUSTOMER_MAPPING.name]],
    ['inactive', [LEGACY_EXPORT.name]],
  ])('filters by status %s', async (status, names) => {
    const res = await api('GET', `/datastores?status=${status}`);
    expect(res.status).toBe(200);
    expect(res.body.map((d: { name: string }) => d.name)).toEqual(names);
  });

  it('refuses an unknown status with a validation error', async () => {
    expectValidation(await api('GET', '/datastores?status=archived'), ['query', 'status'], 'enum');
  });

  it('belong to the account: both environments see them, another account sees its own', async () => {
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    const prod = await call(s.app, 'GET', '/datastores', { token: production });
    expect(prod.body.map((d: { id: string }) => d.id)).toEqual([
      invoices(),
      mapping(),
      storeId(LEGACY_EXPORT.name),
    ]);
    const other = await tokenFor(s.app, s.ids.otherAccount);
    const theirs = await call(s.app, 'GET', '/datastores', { token: other });
    expect(theirs.body.map((d: { name: string }) => d.name)).toEqual([OTHER_ACCOUNT_STORE.name]);
  });

  it('needs a token, and is not open to MCP tokens', async () => {
    expectError(await call(s.app, 'GET', '/datastores'), errors.missingToken());
    const mcp = await api('POST', '/mcp-token', {
      body: {
        accountId: s.ids.accountId,
        ...s.ids.sandbox,
        consumerId: s.ids.syncConsumerId,
        scopes: ['consumers'],
      },
    });
    expect(mcp.status).toBe(200);
    expectError(
      await call(s.app, 'GET', '/datastores', { token: mcp.body.access_token }),
      errors.scopeDenied([]),
    );
    expectError(
      await call(s.app, 'GET', dataPath(s.ids.syncConsumerId, invoices()), { token: mcp.body.access_token }),
      errors.scopeDenied([]),
    );
  });

  it('the same seed seeds the same datastores and rows', () => {
    const again = seedWorld(SEED);
    expect(again.datastores).toEqual(world.datastores);
    expect(again.datastore_data).toEqual(world.datastore_data);
    expect(Object.keys(seedWorld(SEED + 1).datastores)).not.toEqual(Object.keys(world.datastores));
  });
});

describe('GET datastore data', () => {
  it("lists the consumer's seeded rows oldest first, as DataItemOut", async () => {
    const list = await rows(s.ids.syncConsumerId, invoices());
    expect(list).toHaveLength(5);
    const created = list.map((r) => r.created_on);
    expect([...created].sort()).toEqual(created);
    for (const row of list) {
      expect(definitionProblems(INVOICE_STATE.columns, row.data)).toEqual([]);
      expect(row.modified_on).toBe(row.created_on);
    }
  });

  it('only the rows of that consumer and that datastore', async () => {
    const mine = await rows(s.ids.syncConsumerId, mapping());
    const theirs = await rows(s.ids.verticalConsumers.ACCOUNTING as string, mapping());
    expect(mine).toHaveLength(3);
    expect(theirs).toHaveLength(1);
    expect(new Set([...mine, ...theirs].map((r) => r.id)).size).toBe(4);
    expect(await rows(s.ids.pendingConsumerId, invoices())).toEqual([]);
  });

  it('filters by executionid', async () => {
    const first = await rows(
      s.ids.syncConsumerId,
      invoices(),
      `?executionid=${seededDataExecutionId(world, s.ids.syncConsumerId, 1)}`,
    );
    const second = await rows(
      s.ids.syncConsumerId,
      invoices(),
      `?executionid=${seededDataExecutionId(world, s.ids.syncConsumerId, 2)}`,
    );
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    expect(first.map((r) => r.id)).not.toEqual(second.map((r) => r.id));
    expect(await rows(s.ids.syncConsumerId, invoices(), '?executionid=unknown')).toEqual([]);
  });

  it('filters by creation time, both bounds included, a time without offset being UTC', async () => {
    const all = await rows(s.ids.syncConsumerId, invoices());
    const second = all[1]?.created_on as string;
    const fourth = all[3]?.created_on as string;
    const between = await rows(
      s.ids.syncConsumerId,
      invoices(),
      `?date_from=${encodeURIComponent(second)}&date_to=${encodeURIComponent(fourth)}`,
    );
    expect(between.map((r) => r.id)).toEqual(all.slice(1, 4).map((r) => r.id));
    const local = second.replace(/\.\d+Z$/, '');
    const fromLocal = await rows(s.ids.syncConsumerId, invoices(), `?date_from=${local}`);
    expect(fromLocal.map((r) => r.id)).toEqual(all.slice(1).map((r) => r.id));
    // The second row's instant written at UTC+01:00.
    const plusOne = `${new Date(Date.parse(second) + 3_600_000).toISOString().slice(0, 23)}+01:00`;
    const shifted = await rows(s.ids.syncConsumerId, invoices(), `?date_to=${encodeURIComponent(plusOne)}`);
    expect(shifted.map((r) => r.id)).toEqual(all.slice(0, 2).map((r) => r.id));
    expect(await rows(s.ids.syncConsumerId, invoices(), `?date_from=${fourth}&date_to=${second}`)).toEqual(
      [],
    );
  });

  it.each([
    ['date_from', 'yesterday'],
    ['date_to', '2026-01-01'],
    ['date_from', '2026-13-01T00:00:00Z'],
  ])('422 for %s=%s', async (name, value) => {
    expectValidation(await api('GET', `${dataPath(s.ids.syncConsumerId, invoices())}?${name}=${value}`), [
      'query',
      name,
    ]);
  });
});

describe('POST datastore data', () => {
  it('adds rows, answered as DataItemOut and listed afterwards', async () => {
    const consumer = await newConsumer();
    const added = await add(consumer, invoices(), [
      { data: invoice() },
      { data: invoice({ invoice_number: 'INV-2', lines: 3, paid: true, due_date: '2026-02-28' }) },
    ]);
    expect(added).toHaveLength(2);
    const now = s.app.services.clock.now().toISOString();
    expect(added[0]).toEqual({ id: added[0]?.id, data: invoice(), created_on: now, modified_on: now });
    expect(added[1]?.data).toMatchObject({ lines: 3, paid: true, due_date: '2026-02-28' });
    expect((await rows(consumer, invoices())).map((r) => r.id)).toEqual(added.map((r) => r.id));
  });

  it('an empty list adds nothing', async () => {
    const consumer = await newConsumer();
    expect(await add(consumer, invoices(), [])).toEqual([]);
    expect(await rows(consumer, invoices())).toEqual([]);
  });

  it('optional columns may be left out or null', async () => {
    const consumer = await newConsumer();
    const [row] = await add(consumer, invoices(), [{ data: invoice({ paid: null, lines: null }) }]);
    expect(row?.data).toEqual(invoice({ paid: null, lines: null }));
  });

  it('an inactive datastore keeps taking rows (its status is informative)', async () => {
    const consumer = await newConsumer();
    const legacy = storeId(LEGACY_EXPORT.name);
    const [row] = await add(consumer, legacy, [
      { data: { export_id: 'E-9', exported_on: '2026-01-01T00:00:00+02:00' } },
    ]);
    expect(row?.data.export_id).toBe('E-9');
  });

  it('links the rows to the execution named by the SDK header of a local flow run', async () => {
    const consumer = await newConsumer();
    const [linked] = await add(consumer, invoices(), [{ data: invoice() }], {
      [RELATED_EXECUTION_HEADER]: 'exec-42',
    });
    await add(consumer, invoices(), [{ data: invoice({ invoice_number: 'INV-9' }) }]);
    const found = await rows(consumer, invoices(), '?executionid=exec-42');
    expect(found.map((r) => r.id)).toEqual([linked?.id]);
  });

  const mismatches: [string, Record<string, unknown>, string][] = [
    [
      'a required column missing',
      { amount: 1, synced_at: '2026-01-01T00:00:00Z' },
      "column 'invoice_number' is required",
    ],
    ['a required column null', invoice({ amount: null }), "column 'amount' is required"],
    [
      'a column not in the definition',
      invoice({ colour: 'red' }),
      "column 'colour' is not in the definition",
    ],
    [
      'text given a number',
      invoice({ invoice_number: 7 }),
      "column 'invoice_number' must be a string, not number",
    ],
    ['number given a string', invoice({ amount: '12.5' }), "column 'amount' must be a number, not string"],
    ['integer given a fraction', invoice({ lines: 1.5 }), "column 'lines' must be an integer, not number"],
    ['boolean given a string', invoice({ paid: 'yes' }), "column 'paid' must be true or false, not string"],
    [
      'date given a date-time',
      invoice({ due_date: '2026-01-01T00:00:00Z' }),
      "column 'due_date' must be a date (YYYY-MM-DD), not string",
    ],
    [
      'date not in the calendar',
      invoice({ due_date: '2026-02-30' }),
      "column 'due_date' must be a date (YYYY-MM-DD), not string",
    ],
    [
      'datetime given a date',
      invoice({ synced_at: '2026-01-01' }),
      "column 'synced_at' must be a date-time (ISO 8601), not string",
    ],
    [
      'datetime given an object',
      invoice({ synced_at: { at: 1 } }),
      "column 'synced_at' must be a date-time (ISO 8601), not object",
    ],
    ['number given an array', invoice({ amount: [1] }), "column 'amount' must be a number, not array"],
  ];

  it.each(mismatches)('422 for %s, naming the item and the column', async (_, data, problem) => {
    const consumer = await newConsumer();
    const res = await api('POST', dataPath(consumer, invoices()), { body: [{ data }] });
    expectError(res, errors.datastoreInputInvalid([]));
    expect(res.body.detail).toBe(`item 0: ${problem}`);
    expect(await rows(consumer, invoices())).toEqual([]);
  });

  it('names every problem of every item, and writes nothing when one item fails', async () => {
    const consumer = await newConsumer();
    const res = await api('POST', dataPath(consumer, invoices()), {
      body: [{ data: invoice() }, { data: { amount: 'x', extra: 1 } }],
    });
    expectError(res, errors.datastoreInputInvalid([]));
    expect(res.body.detail).toBe(
      "item 1: column 'invoice_number' is required; item 1: column 'amount' must be a number, not string; " +
        "item 1: column 'synced_at' is required; item 1: column 'extra' is not in the definition",
    );
    expect(await rows(consumer, invoices())).toEqual([]);
  });

  it.each([
    ['a body that is not a list', { data: invoice() }, ['body']],
    ['an item without data', [{ rows: invoice() }], ['body', 0, 'data']],
    ['data that is not an object', [{ data: [1, 2] }], ['body', 0, 'data']],
  ])('422 validation error for %s', async (_, body, loc) => {
    const consumer = await newConsumer();
    expectValidation(await api('POST', dataPath(consumer, invoices()), { body }), loc);
  });

  it('422 validation error without a JSON body', async () => {
    const consumer = await newConsumer();
    expectValidation(await api('POST', dataPath(consumer, invoices())), ['body'], 'missing');
  });
});

describe('PATCH datastore data', () => {
  it('merges the given columns into the row and moves modified_on', async () => {
    const consumer = await newConsumer();
    const [row] = await add(consumer, invoices(), [{ data: invoice({ paid: false }) }]);
    await advance(90);
    const res = await api('PATCH', rowPath(consumer, invoices(), row?.id as string), {
      body: { data: { paid: true, amount: 20 } },
    });
    expect(res.status, res.text).toBe(200);
    const changed = Row.parse(res.body);
    expect(changed).toEqual({
      id: row?.id,
      data: invoice({ paid: true, amount: 20 }),
      created_on: row?.created_on,
      modified_on: s.app.services.clock.now().toISOString(),
    });
    expect(changed.modified_on > changed.created_on).toBe(true);
    expect((await rows(consumer, invoices()))[0]).toEqual(changed);
  });

  it('null empties an optional column', async () => {
    const consumer = await newConsumer();
    const [row] = await add(consumer, invoices(), [{ data: invoice({ paid: true }) }]);
    const res = await api('PATCH', rowPath(consumer, invoices(), row?.id as string), {
      body: { data: { paid: null } },
    });
    expect(res.body.data).toEqual(invoice({ paid: null }));
  });

  it.each([
    [{ amount: null }, "column 'amount' is required"],
    [{ amount: 'lots' }, "column 'amount' must be a number, not string"],
    [{ colour: 'red' }, "column 'colour' is not in the definition"],
  ])('422 when the result would not match the definition: %j', async (data, problem) => {
    const consumer = await newConsumer();
    const [row] = await add(consumer, invoices(), [{ data: invoice() }]);
    const res = await api('PATCH', rowPath(consumer, invoices(), row?.id as string), { body: { data } });
    expectError(res, errors.datastoreInputInvalid([]));
    expect(res.body.detail).toBe(problem);
    expect((await rows(consumer, invoices()))[0]?.data).toEqual(invoice());
  });

  it('422 validation error for a body without data', async () => {
    const consumer = await newConsumer();
    const [row] = await add(consumer, invoices(), [{ data: invoice() }]);
    expectValidation(
      await api('PATCH', rowPath(consumer, invoices(), row?.id as string), { body: { paid: true } }),
      ['body', 'data'],
    );
  });
});

describe('DELETE datastore data', () => {
  it('answers 200 with an empty object, and the row is gone', async () => {
    const consumer = await newConsumer();
    const [row, kept] = await add(consumer, invoices(), [
      { data: invoice() },
      { data: invoice({ invoice_number: 'INV-2' }) },
    ]);
    const path = rowPath(consumer, invoices(), row?.id as string);
    const res = await api('DELETE', path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await rows(consumer, invoices())).map((r) => r.id)).toEqual([kept?.id]);
    expectError(await api('DELETE', path), errors.datastoreDataNotFound());
    expectError(await api('PATCH', path, { body: { data: {} } }), errors.datastoreDataNotFound());
  });

  it('deleting the consumer removes its rows, and only its rows', async () => {
    const consumer = await newConsumer();
    await add(consumer, invoices(), [{ data: invoice() }]);
    const before = Object.keys(world.datastore_data).length;
    expect((await api('DELETE', `/consumers/${consumer}`)).status).toBe(204);
    expect(Object.keys(world.datastore_data)).toHaveLength(before - 1);
    expect(Object.values(world.datastore_data).some((r) => r.consumerid === consumer)).toBe(false);
  });
});

describe('missing things, in the order they are checked', () => {
  const seededRow = () =>
    Object.values(world.datastore_data).find(
      (r) => r.consumerid === s.ids.syncConsumerId && r.datastoreid === invoices(),
    )?.datastoredataid as string;

  const cases: [string, () => [string, string, unknown?], ReturnType<typeof errors.consumerNotFound>][] = [];
  for (const [method, body] of [
    ['GET', undefined],
    ['POST', [{ data: invoice() }]],
  ] as const) {
    cases.push(
      [
        `${method} data of a missing consumer`,
        () => [method, dataPath(MISSING, invoices()), body],
        errors.consumerNotFound(),
      ],
      [
        `${method} data of another account's consumer`,
        () => [method, dataPath(s.ids.otherAccountConsumerId, invoices()), body],
        errors.consumerNotFound(),
      ],
      [
        `${method} data of a missing datastore`,
        () => [method, dataPath(s.ids.syncConsumerId, MISSING), body],
        errors.datastoreNotFound(),
      ],
      [
        `${method} data of another account's datastore`,
        () => [
          method,
          dataPath(s.ids.syncConsumerId, storeId(OTHER_ACCOUNT_STORE.name, s.ids.otherAccount.accountId)),
          body,
        ],
        errors.datastoreNotFound(),
      ],
    );
  }
  for (const [method, body] of [
    ['PATCH', { data: { paid: true } }],
    ['DELETE', undefined],
  ] as const) {
    cases.push(
      [
        `${method} a row of a missing consumer`,
        () => [method, rowPath(MISSING, invoices(), seededRow()), body],
        errors.consumerNotFound(),
      ],
      [
        `${method} a row of a missing datastore`,
        () => [method, rowPath(s.ids.syncConsumerId, MISSING, seededRow()), body],
        errors.datastoreNotFound(),
      ],
      [
        `${method} a missing row`,
        () => [method, rowPath(s.ids.syncConsumerId, invoices(), MISSING), body],
        errors.datastoreDataNotFound(),
      ],
      [
        `${method} a row through another datastore`,
        () => [method, rowPath(s.ids.syncConsumerId, mapping(), seededRow()), body],
        errors.datastoreDataNotFound(),
      ],
      [
        `${method} a row through another consumer`,
        () => [method, rowPath(s.ids.verticalConsumers.ACCOUNTING as string, invoices(), seededRow()), body],
        errors.datastoreDataNotFound(),
      ],
    );
  }

  it.each(cases)('404 for %s', async (_, request, error) => {
    const [method, path, body] = request();
    const before = JSON.stringify(world.datastore_data);
    expectError(await api(method, path, body === undefined ? {} : { body }), error);
    expect(JSON.stringify(world.datastore_data)).toBe(before);
  });

  it.each([
    ['consumer_id', () => dataPath('not-a-uuid', invoices())],
    ['datastoreid', () => dataPath(s.ids.syncConsumerId, 'not-a-uuid')],
    ['datastoredataid', () => rowPath(s.ids.syncConsumerId, invoices(), 'not-a-uuid')],
  ])('422 for a malformed %s', async (name, path) => {
    const method = name === 'datastoredataid' ? 'DELETE' : 'GET';
    expectValidation(await api(method, path()), ['path', name], 'uuid_parsing');
  });

  it('a production token on a sandbox consumer is 401 wrong environment', async () => {
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    expectError(
      await call(s.app, 'GET', dataPath(s.ids.syncConsumerId, invoices()), { token: production }),
      errors.wrongEnvironment(),
    );
  });

  it('the restricted key reaches the rows of its own consumer only', async () => {
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const own = await call(s.app, 'GET', dataPath(s.ids.restricted.consumerId, invoices()), {
      token: restricted,
    });
    expect(own.status).toBe(200);
    expectError(
      await call(s.app, 'GET', dataPath(s.ids.syncConsumerId, invoices()), { token: restricted }),
      errors.consumerNotFound(),
    );
  });
});

describe('definition rules', () => {
  const columns: DatastoreColumnRecord[] = [
    { name: 'a', title: 'A', type: 'text', optional: false },
    { name: 'b', title: 'B', type: 'integer', optional: true },
  ];

  it('a matching row has no problems; the problems follow the columns, then the unknown keys', () => {
    expect(definitionProblems(columns, { a: 'x' })).toEqual([]);
    expect(definitionProblems(columns, { a: 'x', b: 3 })).toEqual([]);
    expect(definitionProblems(columns, { z: 1, b: 'no' })).toEqual([
      "column 'a' is required",
      "column 'b' must be an integer, not string",
      "column 'z' is not in the definition",
    ]);
  });

  it.each([
    ['text', '', true],
    ['text', 1, false],
    ['number', -0.5, true],
    ['number', true, false],
    ['integer', 10, true],
    ['integer', 10.1, false],
    ['boolean', false, true],
    ['boolean', 0, false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date', '2024-2-1', false],
    ['datetime', '2026-01-15T09:00:00Z', true],
    ['datetime', '2026-01-15T09:00:00.123+02:00', true],
    ['datetime', '2026-01-15T09:00', true],
    ['datetime', '2026-01-15 09:00:00', false],
    ['datetime', '2026-01-32T09:00:00Z', false],
    ['datetime', 1736931600, false],
  ] as const)('%s accepts %j: %s', (type, value, expected) => {
    expect(fitsType(type, value)).toBe(expected);
  });

  it('query instants without an offset are UTC', () => {
    expect(instantOf('2026-01-15T09:00:00')).toBe(Date.parse('2026-01-15T09:00:00Z'));
    expect(instantOf('2026-01-15T10:00:00+01:00')).toBe(Date.parse('2026-01-15T09:00:00Z'));
  });
});

describe('seeded rows and executions', () => {
  it('link to executions that exist, of the same consumer', () => {
    const sandboxWorld = sandbox().app.services.store.world;
    const linked = Object.values(sandboxWorld.datastore_data).filter((row) => row.executionid !== null);
    expect(linked.length).toBeGreaterThan(0);
    for (const row of linked) {
      expect(sandboxWorld.executions[row.executionid as string]?.consumerid).toBe(row.consumerid);
    }
  });
});
