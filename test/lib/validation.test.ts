import { describe, expect, it } from 'vitest';
import { INVOICE_STATE, seededDatastoreId } from '../../src/modules/datastores/datastores.seed.js';
import { type CallResult, call, SEED, sandbox, sandboxToken } from '../helpers.js';
import { accountingSandbox, invoiceBody, line, referenceOf } from '../modules/accounting/helpers.js';

/**
 * The entries of the validation body, by the type of the field and the JSON type of the value sent,
 * walked through real operations: each field below is one of an operation's fields, and each value
 * shape is sent in its place in an otherwise valid body. The service (pydantic v2, lax mode) answers
 * each refused cell with its own type, message and context, and the offending value as `input`.
 *
 * Where pydantic's lax mode takes a value the sandbox's schema refuses (a number sent as "12", a
 * boolean for a number, a timestamp for a datetime), the entry is pydantic's strict-mode one: those
 * cells are marked STRICT.
 */

const SHAPES = {
  text: 'lots',
  numericText: '12',
  true: true,
  null: null,
  list: [1],
  object: {},
  fraction: 1.5,
  huge: 1e20,
} as const;
type Shape = keyof typeof SHAPES;

/** An entry but its place and input. */
interface Refused {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}
/** What a cell answers: the entry at the field's place, or nothing there (the value is taken). */
type Expected = Refused | 'taken';

interface Field {
  /** The operation and the field, as a reader finds them. */
  name: string;
  /**
   * Builds the test's world and what sends `value` in the field's place of an otherwise valid
   * request; `loc`: where the entry is expected.
   */
  open: () => Promise<(value: unknown) => Promise<CallResult>>;
  loc: (string | number)[];
  cells: Record<Shape, Expected>;
}

// ---------------------------------------------------------------------------------------------
// The operations.

async function commerceOrder() {
  const s = sandbox();
  const token = await sandboxToken(s);
  const base = `/consumers/${s.ids.verticalConsumers.ECOMMERCE}/commerce`;
  const get = async (path: string) => (await call(s.app, 'GET', `${base}${path}`, { token })).body;
  const variant = (await get('/products?size=100')).items.find(
    (p: { status: string }) => p.status === 'published',
  ).variants[0].id;
  const where = {
    first_name: 'Ann',
    last_name: 'Peeters',
    street: 'Rue Haute',
    number: '12',
    city: 'Bruxelles',
    postal_code: '1000',
    country: 'BE',
  };
  const body = {
    customer: { email: 'ann.peeters@example.be', first_name: 'Ann', last_name: 'Peeters' },
    billing_address: where,
    shipping_address: where,
    currency: 'EUR',
    lines: [{ variant_id: variant, quantity: 1, unit_price: 10, tax_rate: 21 }],
  };
  return (change: (b: Record<string, unknown> & { lines: Record<string, unknown>[] }) => void) => {
    const copy = structuredClone(body);
    change(copy);
    return call(s.app, 'POST', `${base}/orders`, { token, body: copy });
  };
}

/** The field `key` of an eCommerce order, or of its first line. */
const inOrder =
  (key: string, inLine = false) =>
  async () => {
    const order = await commerceOrder();
    return (value: unknown) =>
      order((b) => {
        (inLine ? (b.lines[0] as Record<string, unknown>) : b)[key] = value;
      });
  };

/** The field `key` of an accounting invoice. */
const inInvoice = (key: string) => async () => {
  const a = await accountingSandbox();
  const ref = await referenceOf(a);
  const invoice = invoiceBody(ref, 'customer_invoice', [
    line(ref, { quantity: 1, unit_price: 100, vat: 'V21' }),
  ]);
  return (value: unknown) => a.post('/invoices', { ...invoice, [key]: value });
};

async function clientIsCompany() {
  const a = await accountingSandbox();
  return (value: unknown) => a.post('/clients', { name: 'Typed SRL', addresses: [], is_company: value });
}

async function datastoreRowData() {
  const s = sandbox();
  const token = await sandboxToken(s);
  const consumer = (await call(s.app, 'POST', '/consumers', { token, body: { name: 'Rows' } })).body
    .consumerid;
  const path = `/consumers/${consumer}/datastore/${seededDatastoreId(SEED, s.ids.accountId, INVOICE_STATE.name)}/data`;
  return (value: unknown) => call(s.app, 'POST', path, { token, body: [{ data: value }] });
}

async function clockNow() {
  const s = sandbox();
  return (value: unknown) => call(s.app, 'POST', '/__sandbox/clock', { body: { now: value } });
}

async function tokenAccountId() {
  const s = sandbox();
  return (value: unknown) =>
    call(s.app, 'POST', '/token', { body: { accountId: value, clientId: 'c', clientSecret: 's' } });
}

// ---------------------------------------------------------------------------------------------
// The table.

const e = (type: string, msg: string, ctx?: Record<string, unknown>): Refused => ({
  type,
  msg,
  ...(ctx ? { ctx } : {}),
});
const FLOAT_TYPE = e('float_type', 'Input should be a valid number');
const INT_TYPE = e('int_type', 'Input should be a valid integer');
const STRING_TYPE = e('string_type', 'Input should be a valid string');
const BOOL_TYPE = e('bool_type', 'Input should be a valid boolean');
const BOOL_PARSING = e('bool_parsing', 'Input should be a valid boolean, unable to interpret input');
const DATE_TYPE = e('date_type', 'Input should be a valid date');
const DATETIME_TYPE = e('datetime_type', 'Input should be a valid datetime');
const INEXACT = e(
  'date_from_datetime_inexact',
  'Datetimes provided to dates should have zero time - e.g. be exact dates',
);
const UUID_TYPE = e('uuid_type', 'UUID input should be a string, bytes or UUID object');
const LIST_TYPE = e('list_type', 'Input should be a valid list');
const DICT_TYPE = e('dict_type', 'Input should be a valid dictionary');
const MODEL_TYPE = e(
  'model_attributes_type',
  'Input should be a valid dictionary or object to extract fields from',
);
const INVOICE_TYPES = "'customer_invoice', 'customer_refund', 'supplier_invoice' or 'supplier_refund'";
const ENUM = e('enum', `Input should be ${INVOICE_TYPES}`, { expected: INVOICE_TYPES });
const AFTER_9999 = 'dates after 9999 are not supported as unix timestamps';

const FIELDS: Field[] = [
  {
    name: 'number: unit_price of an eCommerce order line',
    open: inOrder('unit_price', true),
    loc: ['body', 'lines', 0, 'unit_price'],
    cells: {
      text: e('float_parsing', 'Input should be a valid number, unable to parse string as a number'),
      numericText: FLOAT_TYPE, // STRICT
      true: FLOAT_TYPE, // STRICT
      null: FLOAT_TYPE,
      list: FLOAT_TYPE,
      object: FLOAT_TYPE,
      fraction: 'taken',
      huge: 'taken',
    },
  },
  {
    name: 'integer: quantity of an eCommerce order line',
    open: inOrder('quantity', true),
    loc: ['body', 'lines', 0, 'quantity'],
    cells: {
      text: e('int_parsing', 'Input should be a valid integer, unable to parse string as an integer'),
      numericText: INT_TYPE, // STRICT
      true: INT_TYPE, // STRICT
      null: INT_TYPE,
      list: INT_TYPE,
      object: INT_TYPE,
      fraction: e('int_from_float', 'Input should be a valid integer, got a number with a fractional part'),
      // STRICT: the sandbox holds no integer past 2^53; pydantic takes one written in full digits,
      // and says this of one written as 1e20.
      huge: e('int_parsing_size', 'Unable to parse input string as an integer, exceeded maximum size'),
    },
  },
  {
    name: 'string: currency of an eCommerce order',
    open: inOrder('currency'),
    loc: ['body', 'currency'],
    cells: {
      text: 'taken',
      numericText: 'taken',
      true: STRING_TYPE,
      null: STRING_TYPE,
      list: STRING_TYPE,
      object: STRING_TYPE,
      fraction: STRING_TYPE,
      huge: STRING_TYPE,
    },
  },
  {
    name: 'boolean (nullable): is_company of an accounting client',
    open: clientIsCompany,
    loc: ['body', 'is_company'],
    cells: {
      text: BOOL_PARSING,
      numericText: BOOL_PARSING,
      true: 'taken',
      null: 'taken',
      list: BOOL_TYPE,
      object: BOOL_TYPE,
      fraction: BOOL_TYPE,
      huge: BOOL_TYPE,
    },
  },
  {
    name: 'enum: invoice_type of an accounting invoice',
    open: inInvoice('invoice_type'),
    loc: ['body', 'invoice_type'],
    cells: {
      text: ENUM,
      numericText: ENUM,
      true: ENUM,
      null: ENUM,
      list: ENUM,
      object: ENUM,
      fraction: ENUM,
      huge: ENUM,
    },
  },
  {
    name: 'date: invoice_date of an accounting invoice',
    open: inInvoice('invoice_date'),
    loc: ['body', 'invoice_date'],
    cells: {
      text: e('date_from_datetime_parsing', 'Input should be a valid date or datetime, input is too short', {
        error: 'input is too short',
      }),
      numericText: INEXACT,
      true: DATE_TYPE,
      null: DATE_TYPE,
      list: DATE_TYPE,
      object: DATE_TYPE,
      fraction: INEXACT,
      huge: e('date_from_datetime_parsing', `Input should be a valid date or datetime, ${AFTER_9999}`, {
        error: AFTER_9999,
      }),
    },
  },
  {
    name: 'date-time: now of the sandbox clock',
    open: clockNow,
    loc: ['body', 'now'],
    cells: {
      text: e('datetime_from_date_parsing', 'Input should be a valid datetime or date, input is too short', {
        error: 'input is too short',
      }),
      numericText: DATETIME_TYPE, // STRICT
      true: DATETIME_TYPE,
      null: DATETIME_TYPE,
      list: DATETIME_TYPE,
      object: DATETIME_TYPE,
      fraction: DATETIME_TYPE, // STRICT
      huge: e('datetime_parsing', `Input should be a valid datetime, ${AFTER_9999}`, { error: AFTER_9999 }),
    },
  },
  {
    name: 'uuid: accountId of the token exchange',
    open: tokenAccountId,
    loc: ['body', 'accountId'],
    cells: {
      text: e('uuid_parsing', 'Input should be a valid UUID, invalid character: found `l` at 1', {
        error: 'invalid character: found `l` at 1',
      }),
      numericText: e(
        'uuid_parsing',
        'Input should be a valid UUID, invalid length: expected length 32 for simple format, found 2',
        { error: 'invalid length: expected length 32 for simple format, found 2' },
      ),
      true: UUID_TYPE,
      null: UUID_TYPE,
      list: UUID_TYPE,
      object: UUID_TYPE,
      fraction: UUID_TYPE,
      huge: UUID_TYPE,
    },
  },
  {
    name: 'array: lines of an eCommerce order',
    open: inOrder('lines'),
    loc: ['body', 'lines'],
    cells: {
      text: LIST_TYPE,
      numericText: LIST_TYPE,
      true: LIST_TYPE,
      null: LIST_TYPE,
      list: 'taken', // its item is refused, at its own place (below)
      object: LIST_TYPE,
      fraction: LIST_TYPE,
      huge: LIST_TYPE,
    },
  },
  {
    name: 'object: data of a datastore row',
    open: datastoreRowData,
    loc: ['body', 0, 'data'],
    cells: {
      text: DICT_TYPE,
      numericText: DICT_TYPE,
      true: DICT_TYPE,
      null: DICT_TYPE,
      list: DICT_TYPE,
      object: 'taken',
      fraction: DICT_TYPE,
      huge: DICT_TYPE,
    },
  },
  {
    name: 'nested model: customer of an eCommerce order',
    open: inOrder('customer'),
    loc: ['body', 'customer'],
    cells: {
      text: MODEL_TYPE,
      numericText: MODEL_TYPE,
      true: MODEL_TYPE,
      null: MODEL_TYPE,
      list: MODEL_TYPE,
      object: 'taken', // its fields are missing, each at its own place (below)
      fraction: MODEL_TYPE,
      huge: MODEL_TYPE,
    },
  },
];

interface Entry {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

const entryAt = (res: CallResult, loc: (string | number)[]): Entry | undefined =>
  res.status === 422 && Array.isArray(res.body?.detail)
    ? (res.body.detail as Entry[]).find((d) => JSON.stringify(d.loc) === JSON.stringify(loc))
    : undefined;

describe('validation entries by field type and JSON type of the value', () => {
  it.each(FIELDS.map((field) => [field.name, field] as const))('%s', async (_name, field) => {
    const send = await field.open();
    for (const [shape, value] of Object.entries(SHAPES) as [Shape, unknown][]) {
      const res = await send(value);
      const expected = field.cells[shape];
      const cell = `${field.name} given ${JSON.stringify(value)} (${shape}): ${res.status} ${res.text.slice(0, 400)}`;
      if (expected === 'taken') {
        expect(entryAt(res, field.loc), cell).toBeUndefined();
        continue;
      }
      expect(res.status, cell).toBe(422);
      expect(res.body.message, cell).toBe('Validation error');
      expect(entryAt(res, field.loc), cell).toEqual({ ...expected, loc: field.loc, input: value });
    }
  });
});

describe('the entries inside a value of the right JSON type', () => {
  it('a list item and a nested model are refused at their own place; a missing field names its object', async () => {
    const order = await commerceOrder();
    const items = await order((b) => {
      b.lines = [1 as never];
    });
    expect(entryAt(items, ['body', 'lines', 0])).toEqual({
      ...MODEL_TYPE,
      loc: ['body', 'lines', 0],
      input: 1,
    });
    const empty = await order((b) => {
      b.customer = {};
    });
    expect(entryAt(empty, ['body', 'customer', 'email'])).toEqual({
      type: 'missing',
      loc: ['body', 'customer', 'email'],
      msg: 'Field required',
      input: {},
    });
    const missing = await order((b) => {
      delete b.currency;
    });
    expect(entryAt(missing, ['body', 'currency'])?.input).toMatchObject({ lines: expect.any(Array) });
  });

  it('a body of null is none sent; a missing query parameter has no input', async () => {
    const a = await accountingSandbox();
    const none = await call(a.app, 'POST', '/consumers', {
      token: a.token,
      rawBody: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(none.body.detail).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    const query = await a.get('/outstandings?unposted_allowed=false');
    expect(entryAt(query, ['query', 'type'])).toEqual({
      type: 'missing',
      loc: ['query', 'type'],
      msg: 'Field required',
      input: null,
    });
  });

  it('a query parameter is read as the text it is: an integer that is not one, a bound with its limit', async () => {
    const a = await accountingSandbox();
    expect(entryAt(await a.get('/clients?size=1.5'), ['query', 'size'])).toEqual({
      type: 'int_parsing',
      loc: ['query', 'size'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: '1.5',
    });
    expect(entryAt(await a.get('/clients?size=101'), ['query', 'size'])).toEqual({
      type: 'less_than_equal',
      loc: ['query', 'size'],
      msg: 'Input should be less than or equal to 100',
      input: '101',
      ctx: { le: 100 },
    });
  });
});
