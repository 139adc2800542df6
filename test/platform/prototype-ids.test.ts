import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { FixtureError } from '../../src/control/fixtures.control.js';
import { runCli } from '../cli/helpers.js';
import { invoice } from '../control/fixture-helpers.js';
import { type CallResult, call, everyOperationDocument, SEED, sandbox, sandboxToken } from '../helpers.js';

/**
 * Ids named after what every plain object inherits (`__proto__`, `constructor`, `toString`,
 * `hasOwnProperty`). Records are kept in objects keyed by id, so an id taken from a request or a
 * document must only ever reach the object's own keys: a lookup that reaches the prototype answers a
 * function or Object.prototype (a 500, or a 200 of `{}`), and a write under `__proto__` replaces a
 * collection's prototype. Every operation of the served document is walked, so operations added
 * later come under it without new code.
 */

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any;

const PROTO_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The seeded consumer connected to the vertical a path belongs to. */
function consumerFor(template: string, vertical: Record<string, string>): string {
  const segment = /^\/consumers\/\{consumer_id\}\/([a-z]+)\//.exec(template)?.[1];
  const byVertical: Record<string, string> = {
    accounting: 'ACCOUNTING',
    invoicing: 'INVOICING',
    banking: 'BANKING',
    payment: 'PAYMENT',
    pos: 'POS',
    commerce: 'ECOMMERCE',
    pms: 'PMS',
  };
  const name = (segment && Object.hasOwn(byVertical, segment) ? byVertical[segment] : 'ACCOUNTING') as string;
  return vertical[name] as string;
}

function makeSampler(doc: Json) {
  const resolve = (schema: Json): Json => {
    let current = schema;
    for (let i = 0; i < 20 && current?.$ref; i++) {
      current = doc.components.schemas[String(current.$ref).split('/').pop() as string];
    }
    return current ?? {};
  };
  const ID_FIELD = /(^|_)id$|^id_|ids?$/i;
  /**
   * A plausible valid value of a schema; with `id`, string fields that name a record take it, and
   * the optional fields that name one are filled too.
   */
  const sample = (schema: Json, id?: string, name = '', depth = 0): Json => {
    const s = resolve(schema);
    if (depth > 6) return null;
    if (s.anyOf || s.oneOf) {
      const options = (s.anyOf ?? s.oneOf) as Json[];
      return sample(options.find((o) => resolve(o).type !== 'null') ?? options[0], id, name, depth + 1);
    }
    if (s.allOf) return Object.assign({}, ...s.allOf.map((p: Json) => sample(p, id, name, depth + 1)));
    if (s.enum) return s.enum[0];
    if (s.const !== undefined) return s.const;
    const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
    switch (type) {
      case 'object': {
        const out: Record<string, Json> = {};
        const optional =
          id === undefined ? [] : Object.keys(s.properties ?? {}).filter((f) => ID_FIELD.test(f));
        for (const field of new Set([...(s.required ?? []), ...optional])) {
          const fieldSchema = s.properties && Object.hasOwn(s.properties, field) ? s.properties[field] : {};
          out[field] = sample(fieldSchema, id, field, depth + 1);
        }
        return out;
      }
      case 'array':
        return [sample(s.items ?? {}, id, name, depth + 1)];
      case 'integer':
        return s.minimum ?? 1;
      case 'number':
        return 10.5;
      case 'boolean':
        return true;
      case 'string':
        if (id !== undefined && ID_FIELD.test(name) && !s.format) return id;
        if (name === 'country') return 'BE';
        if (name === 'currency') return 'EUR';
        if (s.format === 'email' || name === 'email') return 'someone@example.com';
        if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000001';
        if (s.format === 'date-time') return '2025-06-01T10:00:00Z';
        if (s.format === 'date') return '2025-06-01';
        return 'sample';
      default:
        return null;
    }
  };
  return { resolve, sample };
}

/** Values for the path parameters that are not under test: seeded ids where the walk knows one. */
function knownValue(name: string, schema: Json, sample: (s: Json) => Json, syncId: string): string {
  const known: Record<string, string> = { syncid: syncId, integrationid: '1000', image_type: 'logo' };
  if (Object.hasOwn(known, name)) return known[name] as string;
  const value = sample(schema);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : 'x';
}

/** Every object of the world still has an ordinary prototype (or none): no write replaced one. */
function prototypeProblems(world: unknown): string[] {
  const problems: string[] = [];
  const stack: [unknown, string][] = [[world, 'world']];
  const seen = new Set<object>();
  while (stack.length > 0 && problems.length < 10) {
    const [node, where] = stack.pop() as [unknown, string];
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) {
      problems.push(`${where} has a replaced prototype`);
    }
    for (const key of Object.keys(node)) {
      stack.push([(node as Record<string, unknown>)[key], `${where}.${key}`]);
    }
  }
  return problems;
}

const PROTOTYPE_KEYS = new Set(Reflect.ownKeys(Object.prototype));

afterEach(() => {
  expect(pollution()).toEqual([]);
});

/**
 * What a write through an inherited member added to Object.prototype (every object of the process
 * then answers it), taken off again so that the requests after it are judged on their own.
 */
function pollution(): string[] {
  const added = Reflect.ownKeys(Object.prototype).filter((key) => !PROTOTYPE_KEYS.has(key));
  for (const key of added) Reflect.deleteProperty(Object.prototype, key);
  return added.map((key) => `Object.prototype was given '${String(key)}'`);
}

/** The answer to a request, or what the app threw instead of answering. */
async function answer(request: () => Promise<CallResult>): Promise<CallResult | string> {
  try {
    return await request();
  } catch (error) {
    return `threw ${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

/** A 2xx answer to a read of one record that is no record: what Object.prototype serializes to. */
const isPrototypeRead = (method: string, status: number, text: string, body: Json): boolean =>
  method === 'GET' &&
  status >= 200 &&
  status < 300 &&
  (text.trim() === '' ||
    (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0));

describe('ids named after Object.prototype members', () => {
  it('no operation of /openapi.json answers 5xx or a prototype for them as path, query or body ids', async () => {
    const started = Date.now();
    const s = sandbox();
    const token = await sandboxToken(s);
    const doc = (await everyOperationDocument(s.app)) as Json;
    const { resolve, sample } = makeSampler(doc);
    const failures: string[] = [];
    let sent = 0;

    const send = async (method: string, path: string, body?: Json) => {
      sent++;
      const request = `${method} ${path} ${body === undefined ? '' : JSON.stringify(body).slice(0, 80)}`;
      const res = await answer(() =>
        call(s.app, method, path, { token, ...(body !== undefined ? { body } : {}) }),
      );
      if (typeof res === 'string') {
        failures.push(`${request}: ${res}`, ...pollution().map((p) => `${request}: ${p}`));
        return;
      }
      const where = `${request} -> ${res.status}`;
      if (res.status >= 500) failures.push(`${where}: ${res.text.slice(0, 160)}`);
      else if (isPrototypeRead(method, res.status, res.text, res.body))
        failures.push(`${where}: ${res.text}`);
      failures.push(...pollution().map((p) => `${where}: ${p}`));
    };

    for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
      // A reset would throw away the datasets the other requests built; it takes no id anyway.
      if (template === '/__sandbox/reset') continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const params = (op.parameters ?? []) as Json[];
        const pathParams = params.filter((p) => p.in === 'path');
        const others = pathParams.filter((p) => p.name !== 'consumer_id');
        const hasConsumer = pathParams.some((p) => p.name === 'consumer_id');
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        const consumer = consumerFor(template, s.ids.verticalConsumers);
        const known = (name: string, schema: Json) => knownValue(name, schema, sample, s.ids.syncId);

        const pathWith = (values: Record<string, string>) =>
          template.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(Object.hasOwn(values, name) ? (values[name] as string) : 'x'),
          );
        const baseValues = (): Record<string, string> => {
          const values: Record<string, string> = {};
          for (const p of pathParams)
            values[p.name] = p.name === 'consumer_id' ? consumer : known(p.name, p.schema);
          return values;
        };
        const writeBodies = (id: string): Json[] =>
          method === 'get' || method === 'delete'
            ? [undefined]
            : bodySchema
              ? [{}, sample(bodySchema), sample(bodySchema, id)]
              : [{}];

        for (const id of PROTO_IDS) {
          const requests: [string, Json][] = [];
          if (others.length > 0) {
            // Every id-like parameter at once, and each alone with the others valid.
            const all = baseValues();
            for (const p of others) all[p.name] = id;
            for (const body of writeBodies(id)) requests.push([pathWith(all), body]);
            if (others.length > 1) {
              for (const p of others) {
                const one = baseValues();
                one[p.name] = id;
                requests.push([pathWith(one), writeBodies(id).at(-1)]);
              }
            }
          }
          if (hasConsumer) {
            const values = baseValues();
            values.consumer_id = id;
            requests.push([pathWith(values), writeBodies(id).at(-1)]);
          }
          // Ids in a body (a line's variant, an invoice's partner) on the paths as served.
          if (method !== 'get' && method !== 'delete' && bodySchema) {
            requests.push([pathWith(baseValues()), sample(bodySchema, id)]);
          }
          // Ids in the query: every parameter that takes a string.
          if (method === 'get') {
            for (const q of params.filter((p) => p.in === 'query')) {
              const schema = resolve(q.schema);
              const types = [schema.type, ...(schema.anyOf ?? []).map((o: Json) => resolve(o).type)].flat();
              if (!types.includes('string') || schema.enum || schema.format) continue;
              requests.push([
                `${pathWith(baseValues())}?${new URLSearchParams({ [q.name]: id })}`,
                undefined,
              ]);
            }
          }
          for (const [path, body] of requests) await send(method.toUpperCase(), path, body);
        }
      }
    }

    failures.push(...prototypeProblems(s.app.services.store.world));
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
    // The walk stays cheap enough to run with the other suites.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});

describe('ids a client chooses', () => {
  it('an account number a client opens may not be `__proto__`; other such names are accounts like any', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const base = `/consumers/${s.ids.verticalConsumers.ACCOUNTING}/accounting`;
    const journals = await call(s.app, 'GET', `${base}/journals`, { token });
    const od = (journals.body.items as { id: string; code: string }[]).find((j) => j.code === 'OD');
    // Pairs, not an object: `__proto__` is no key of an object literal either.
    const statuses: [string, number[]][] = [];
    for (const [i, number] of ['__proto__', 'constructor', 'toString'].entries()) {
      const client = await call(s.app, 'POST', `${base}/clients`, {
        token,
        body: { name: `Client ${number}`, addresses: [], account_number: number },
      });
      const entry = await call(s.app, 'POST', `${base}/journal-entries`, {
        token,
        body: {
          journal_id: od?.id,
          number: `OD-PROTO-${i}`,
          currency: 'EUR',
          date: '2026-01-15',
          items: [
            { account_type: 'general_account', account: '550000', debit: 1, credit: 0 },
            {
              account_type: 'general_account',
              account: `7${number}`,
              debit: 0,
              credit: 1,
              account_info: { account_number: `7${number}`, account_name: 'Other income' },
            },
          ],
        },
      });
      const refused = await call(s.app, 'POST', `${base}/journal-entries`, {
        token,
        body: {
          journal_id: od?.id,
          number: `OD-PROTO-X${i}`,
          currency: 'EUR',
          date: '2026-01-15',
          items: [
            { account_type: 'general_account', account: '550000', debit: 1, credit: 0 },
            {
              account_type: 'general_account',
              account: number,
              debit: 0,
              credit: 1,
              account_info: { account_number: number, account_name: 'Other income' },
            },
          ],
        },
      });
      statuses.push([number, [client.status, entry.status, refused.status]]);
    }
    // `__proto__` is refused as a number (400), wherever it would open an account; the accounts
    // `constructor` and `toString` the clients opened are receivable ones, which a general line may
    // not use (422), as any client's.
    expect(statuses).toEqual([
      ['__proto__', [400, 200, 400]],
      ['constructor', [200, 200, 422]],
      ['toString', [200, 200, 422]],
    ]);
    const found: [string, number][] = [];
    for (const number of [
      '__proto__',
      'constructor',
      'toString',
      '7__proto__',
      '7constructor',
      '7toString',
    ]) {
      found.push([
        number,
        (await call(s.app, 'GET', `${base}/chart-of-accounts/${number}`, { token })).status,
      ]);
    }
    expect(found).toEqual([
      ['__proto__', 404],
      ['constructor', 200],
      ['toString', 200],
      ['7__proto__', 200],
      ['7constructor', 200],
      ['7toString', 200],
    ]);
    expect(prototypeProblems(s.app.services.store.world)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Fixtures: documents that load, then the same with one reference (or ref, or key) renamed.

/** A customer invoice of 100 + 21% VAT on 700000 for the client `client`. */
const accountingInvoice = (ref: string, analytic: string) =>
  invoice({ ref, journal_id: 'VEN' }, { analytic_account: analytic });

const oneConnection = (connection: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  consumers: [{ ref: 'owner', name: 'Prototype Ids', connections: [connection] }],
  ...extra,
});

/** One document per vertical, each loading as it is (checked first). */
const BASE_DOCUMENTS: Record<string, Json> = {
  accounting: oneConnection({
    integration: 1000,
    accounting: {
      clients: [{ ref: 'client', name: 'Client One', addresses: [] }],
      analytic_accounts: [
        { ref: 'bakery', code: 'BAKERY', name: 'Bakery', currency: 'EUR' },
        { ref: 'p200', code: 'PRJ-200', name: 'Project 200', currency: 'EUR', analytic_plan: 'projects' },
      ],
      bank_accounts: [
        {
          ref: 'kbc',
          code: 'KBC2',
          currency: 'EUR',
          account_name: 'KBC',
          iban: 'BE68539007547034',
          bank_name: 'KBC',
        },
      ],
      invoices: [accountingInvoice('paid-in-part', 'bakery'), accountingInvoice('settled', 'PRJ-200')],
      journal_entries: [
        {
          ref: 'transfer',
          journal_id: 'OD',
          number: 'OD/2026/9100',
          currency: 'EUR',
          date: '2026-01-09',
          items: [
            { account_type: 'general_account', account: '550000', debit: 121, credit: 0 },
            { account_type: 'customer_account', account: 'client', debit: 0, credit: 121 },
          ],
        },
      ],
      invoice_payments: [
        {
          date: '2026-01-10',
          payment_method_id: 'Bank transfer',
          currency: 'EUR',
          items: [{ invoice_id: 'paid-in-part', amount: 21 }],
        },
      ],
      expenses: [
        {
          employee_id: 'EMP-001',
          total: 121,
          untaxed_amount: 100,
          tax_amount: 21,
          reference: 'Train to Gent',
          currency: 'EUR',
          date: '2026-01-08',
          lines: [
            {
              total: 121,
              untaxed_amount: 100,
              tax_amount: 21,
              description: 'Train tickets',
              account_number: '610000',
              tax_rate: 21,
              tax_id: 'A21',
            },
          ],
        },
      ],
      bank_statements: [
        {
          bank_account_id: 'kbc',
          bank_statement_date: '2026-01-12',
          currency: 'EUR',
          external_bank_statement_id: 'KBC-2026-01',
          items: [
            {
              description: 'Client One pays',
              amount: 5,
              external_transaction_id: 'T1',
              counterpart: { counterpart_type: 'customer', id: 'client' },
            },
          ],
        },
      ],
      matchings: [{ entries: ['settled', 'transfer'], partner_id: 'client' }],
    },
  }),
  invoicing: oneConnection({
    integration: 7010,
    invoicing: {
      contacts: [{ ref: 'acme', company_name: 'Acme SA', is_customer: true }],
      products: [{ ref: 'day', name: 'Consulting day', unit_price: 800 }],
      invoices: [
        {
          ref: 'inv',
          invoice_type: 'customer_invoice',
          status: 'posted',
          currency: 'EUR',
          invoice_date: '2026-01-07',
          partner_id: 'acme',
          untaxed_amount: 1600,
          tax_amount: 336,
          total: 1936,
          lines: [
            {
              product_id: 'day',
              unit_price: 800,
              quantity: 2,
              untaxed_amount: 1600,
              tax_rate: 21,
              tax_amount: 336,
              total: 1936,
            },
          ],
        },
      ],
      payments: [
        { invoice_id: 'inv', amount: 1000, date: '2026-01-09', currency: 'EUR', payment_method_id: 'cash' },
      ],
      opportunities: [
        {
          name: 'Redesign',
          total: 12000,
          partner_id: 'acme',
          created_date: '2026-01-02',
          pipe_status: 'Proposal',
        },
      ],
    },
  }),
  commerce: JSON.parse(readFileSync('examples/fixtures/commerce-webhooks.json', 'utf8')),
  pos: oneConnection({
    integration: 'Zelty',
    pos: {
      customers: [{ ref: 'jan', first_name: 'Jan', last_name: 'Claes' }],
      orders: [
        {
          creation_date: '2026-01-14T12:00:00Z',
          customer_id: 'jan',
          items: [
            {
              product: 'Steak frites',
              quantity: 2,
              modifiers: [
                { modifier_id: 'béarnaise' },
                { modifier_id: 'Medium', modifier_group_id: 'Cooking' },
              ],
            },
          ],
        },
      ],
    },
  }),
  banking: oneConnection({
    integration: 10000,
    banking: {
      accounts: [
        {
          ref: 'main',
          description: 'Fixture account',
          opening_balance: 1000,
          transactions: [
            { amount: 250.5, execution_date: '2026-01-10T10:00:00Z', counterpart_name: 'Client' },
          ],
        },
      ],
      transactions: [{ account: 'main', amount: -50.5, execution_date: '2026-01-13T08:00:00Z' }],
    },
  }),
  payment: oneConnection({
    integration: 7106,
    payment: {
      payments: [{ amount: 100, description: 'Fixture sale', payment_date: '2026-01-10T10:00:00Z' }],
      payouts: [{ payment_date: '2026-01-16' }],
    },
  }),
  pms: oneConnection({
    integration: 9503,
    pms: {
      customers: [{ ref: 'marie', first_name: 'Marie', last_name: 'Dubois', country: 'fr', city: 'Lille' }],
      orders: [
        {
          customer: 'marie',
          check_in: '2026-01-12T15:00:00Z',
          check_out: '2026-01-14T10:00:00Z',
          lines: [
            { description: 'Single room, night', quantity: 2, unit_price: 90, tax: 10, category: 'ROOM' },
          ],
        },
      ],
    },
  }),
  datastores: oneConnection(
    { integration: 1000 },
    {
      datastores: [
        {
          name: 'prototype-map',
          columns: [{ name: 'source_id', type: 'text' }],
          search_column: 'source_id',
          rows: [{ consumer: 'owner', data: { source_id: 'S-1' } }],
        },
      ],
    },
  ),
};

/** Fields whose value names another record (by ref, id, code or name). */
const REFERENCE_FIELDS = new Set([
  'partner_id',
  'journal_id',
  'tax_code',
  'analytic_account',
  'analytic_plan',
  'payment_method_id',
  'invoice_id',
  'employee_id',
  'tax_id',
  'bank_account_id',
  'product_id',
  'variant_id',
  'customer_id',
  'location',
  'payment_method',
  'product',
  'modifier_id',
  'modifier_group_id',
  'account',
  'institution',
  'customer',
  'room',
  'tax',
  'category',
  'consumer',
  'integration',
  'pipe_status',
  'id',
]);
/** Lists whose items name records, and maps keyed by a record's name. */
const REFERENCE_LISTS = new Set(['entries', 'categories']);
const NAME_KEYED = new Set(['stock', 'attributes']);

type Path = (string | number)[];

const AT: Path = ['consumers', 0, 'connections', 0];

/** References the base documents leave to their defaults, which a mutation sets all the same. */
const OPTIONAL_REFERENCES: Record<string, Path[]> = {
  accounting: [[...AT, 'accounting', 'folder_id']],
  invoicing: [
    [...AT, 'invoicing', 'products', 0, 'tax_id'],
    [...AT, 'invoicing', 'invoices', 0, 'lines', 0, 'tax_id'],
  ],
  commerce: [[...AT, 'commerce', 'orders', 0, 'payment_method']],
  pos: [
    [...AT, 'pos', 'orders', 0, 'location'],
    [...AT, 'pos', 'orders', 0, 'payment_method'],
  ],
  banking: [[...AT, 'banking', 'accounts', 0, 'institution']],
  payment: [
    [...AT, 'payment', 'payments', 0, 'location'],
    [...AT, 'payment', 'payouts', 0, 'location'],
  ],
  pms: [
    [...AT, 'pms', 'orders', 0, 'location'],
    [...AT, 'pms', 'orders', 0, 'room'],
    [...AT, 'pms', 'orders', 0, 'payment_method'],
    [...AT, 'pms', 'orders', 0, 'lines', 0, 'tax'],
  ],
  datastores: [],
};

const clone = (value: Json): Json => structuredClone(value);

function setAt(root: Json, path: Path, value: Json): void {
  let node = root;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path.at(-1) as string | number] = value;
}

/**
 * The document with one reference (or one key of a map keyed by names) replaced by `id`, once per
 * rule: of the places that only differ by their indexes, the first.
 */
function* mutations(doc: Json, id: string, optional: Path[]): Generator<[string, Json]> {
  for (const at of optional) {
    const copy = clone(doc);
    setAt(copy, at, id);
    yield [at.join('.'), copy];
  }
  const walk = function* (node: Json, path: Path): Generator<[string, Json]> {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) yield* walk(node[i], [...path, i]);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (
        (typeof value === 'string' && REFERENCE_FIELDS.has(key)) ||
        (key === 'integration' && value !== null)
      ) {
        const copy = clone(doc);
        setAt(copy, at, id);
        yield [at.join('.'), copy];
      } else if (Array.isArray(value) && REFERENCE_LISTS.has(key) && value.length > 0) {
        const copy = clone(doc);
        setAt(copy, [...at, 0], id);
        yield [`${at.join('.')}[0]`, copy];
      } else if (value && typeof value === 'object' && !Array.isArray(value) && NAME_KEYED.has(key)) {
        const first = Object.keys(value)[0];
        if (first !== undefined) {
          const copy = clone(doc);
          const map: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(value)) {
            // Defined, not assigned: a `__proto__` key must be a key of the document, as JSON.parse makes it.
            Object.defineProperty(map, k === first ? id : k, {
              value: v,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          setAt(copy, at, map);
          yield [`${at.join('.')}{${first}}`, copy];
        }
      }
      yield* walk(value, at);
    }
  };
  const seen = new Set<string>();
  for (const [where, copy] of walk(doc, [])) {
    const rule = where.replace(/\.\d+(?=\.|$|\[|\{)/g, '');
    if (seen.has(rule)) continue;
    seen.add(rule);
    yield [where, copy];
  }
}

/**
 * The document with its refs renamed after Object.prototype members, four at a time (a name is
 * given once in a document), and what names them renamed alike: a ref is any text.
 */
function* refRenames(doc: Json): Generator<[string, Json]> {
  const refs = new Set<string>();
  const collect = (node: Json) => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') {
      if (typeof node.ref === 'string') refs.add(node.ref);
      Object.values(node).forEach(collect);
    }
  };
  collect(doc);
  const all = [...refs];
  for (let i = 0; i < all.length; i += PROTO_IDS.length) {
    const names = new Map(all.slice(i, i + PROTO_IDS.length).map((ref, k) => [ref, PROTO_IDS[k] as string]));
    const rename = (node: Json): Json =>
      Array.isArray(node)
        ? node.map(rename)
        : node && typeof node === 'object'
          ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rename(v)]))
          : typeof node === 'string' && names.has(node)
            ? names.get(node)
            : node;
    yield [`refs ${[...names].map(([from, to]) => `${from}=${to}`).join(' ')}`, rename(doc)];
  }
}

/** Loads a document at start (what --fixtures does): loaded, or refused with a FixtureError. */
function startWith(doc: Json): 'loaded' | FixtureError | Error {
  try {
    createApp({ seed: SEED, fixtures: doc });
    return 'loaded';
  } catch (error) {
    return error instanceof FixtureError ? error : (error as Error);
  }
}

describe('fixtures naming records after Object.prototype members', () => {
  it('each base document loads as it is', () => {
    for (const [name, doc] of Object.entries(BASE_DOCUMENTS)) {
      const outcome = startWith(doc);
      expect(outcome === 'loaded' ? outcome : `${name}: ${(outcome as Error).message}`).toBe('loaded');
    }
  });

  it('a reference or a key named so loads or is refused with a FixtureError, never another error', async () => {
    const started = Date.now();
    const failures: string[] = [];
    let tried = 0;
    for (const [name, doc] of Object.entries(BASE_DOCUMENTS)) {
      // Two kinds of inherited member: Object.prototype itself, and a function (constructor and
      // hasOwnProperty are found as toString is). Each load builds a connection's data: two it is.
      for (const id of ['__proto__', 'toString']) {
        for (const [where, mutated] of mutations(doc, id, OPTIONAL_REFERENCES[name] ?? [])) {
          tried++;
          const label = `${name} ${where} = ${id}`;
          const outcome = startWith(mutated);
          if (outcome !== 'loaded' && !(outcome instanceof FixtureError)) {
            failures.push(`${label}: ${outcome.constructor.name}: ${outcome.message.slice(0, 160)}`);
          }
          failures.push(...pollution().map((p) => `${label}: ${p}`));
          // Over HTTP, as JSON: `__proto__` is then an own key of the parsed body, not a prototype.
          if (id !== '__proto__') continue;
          const app = createApp({ seed: SEED });
          const res = await answer(() => call(app, 'POST', '/__sandbox/fixtures', { body: mutated }));
          if (typeof res === 'string') failures.push(`${label}: POST /__sandbox/fixtures ${res}`);
          else if (res.status >= 500)
            failures.push(`${label}: POST /__sandbox/fixtures -> ${res.status} ${res.text}`);
          failures.push(...pollution().map((p) => `${label} over HTTP: ${p}`));
          failures.push(...prototypeProblems(app.services.store.world).map((p) => `${label}: ${p}`));
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it('refs named so are names like any other: the document loads, at start and over HTTP', async () => {
    const failures: string[] = [];
    for (const [name, doc] of Object.entries(BASE_DOCUMENTS)) {
      for (const [where, renamed] of refRenames(doc)) {
        const outcome = startWith(renamed);
        if (outcome !== 'loaded') failures.push(`${name} ${where}: ${outcome.message.slice(0, 200)}`);
        failures.push(...pollution().map((p) => `${name} ${where}: ${p}`));
        const app = createApp({ seed: SEED });
        const res = await answer(() => call(app, 'POST', '/__sandbox/fixtures', { body: renamed }));
        if (typeof res === 'string') failures.push(`${name} ${where}: POST ${res}`);
        else if (res.status !== 200)
          failures.push(`${name} ${where}: POST -> ${res.status} ${res.text.slice(0, 200)}`);
        failures.push(...prototypeProblems(app.services.store.world).map((p) => `${name} ${where}: ${p}`));
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('an order line whose variant is `toString` is refused at its path, as an unknown variant is', () => {
    const doc = clone(BASE_DOCUMENTS.commerce);
    for (const variant of ['toString', 'constructor', '__proto__', 'no-such-variant']) {
      doc.consumers[0].connections[0].commerce.orders[0].lines[0].variant_id = variant;
      const outcome = startWith(doc);
      expect(outcome, variant).toBeInstanceOf(FixtureError);
      expect((outcome as FixtureError).path).toBe(
        'consumers[0].connections[0].commerce.orders[0].lines[0].variant_id',
      );
    }
  });

  it('--fixtures with such an order line: serve and env refuse it with the rule and exit code 2', () => {
    const doc = clone(BASE_DOCUMENTS.commerce);
    doc.consumers[0].connections[0].commerce.orders[0].lines[0].variant_id = 'toString';
    const dir = mkdtempSync(join(tmpdir(), 'prototype-ids-'));
    try {
      const file = join(dir, 'shop.json');
      writeFileSync(file, JSON.stringify(doc));
      for (const command of [['serve', '--port', '0'], ['env']]) {
        const out = runCli([...command, '--fixtures', file]);
        expect(out.code, out.stderr).toBe(2);
        expect(out.stderr).toContain(
          `Fixtures refused: ${file}, line 1, field consumers[0].connections[0].commerce.orders[0].lines[0].variant_id`,
        );
        expect(out.stderr).toContain("the variant 'toString' does not exist");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a record whose id is `__proto__` is refused by the schema; refs so named are names like any', async () => {
    const byId = startWith({ consumers: [{ id: '__proto__', name: 'Proto' }] });
    expect(byId).toBeInstanceOf(FixtureError);
    expect((byId as FixtureError).apiStatus).toBe(422);

    // A client named by the ref `constructor`, and an invoice of it.
    const app = createApp({ seed: SEED });
    const res = await call(app, 'POST', '/__sandbox/fixtures', {
      body: {
        consumers: [
          {
            ref: '__proto__',
            name: 'Books',
            connections: [
              {
                integration: 1000,
                accounting: {
                  clients: [{ ref: 'constructor', name: 'Constructor & Co', addresses: [] }],
                  invoices: [{ ...accountingInvoice('toString', 'SALES'), partner_id: 'constructor' }],
                },
              },
            ],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const [consumer] = res.body.consumers;
    expect(consumer.ref).toBe('__proto__');
    const records = consumer.connections[0].records.accounting;
    const token = await sandboxToken({ app, ids: sandbox().ids });
    const got = await call(
      app,
      'GET',
      `/consumers/${consumer.consumerid}/accounting/invoices/${records.invoices[0]}`,
      {
        token,
      },
    );
    expect(got.status).toBe(200);
    expect(got.body.partner_id).toBe(records.clients[0]);
  });
});
