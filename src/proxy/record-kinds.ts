import type { z } from '@hono/zod-openapi';
import { VERTICALS } from '../verticals.js';

/**
 * The record kinds a recorded world keeps, each as the read that shows them and the kind of a
 * fixture block that declares them (docs/fixtures.md), and how a record read becomes a record the
 * block takes: the fields the block's item takes (the create operation's body where the block takes
 * that body, else the block's own schema), then, for a few kinds, the values the block names
 * otherwise (a category by its name, a variant's price). References between records are settled
 * when the document is written (record.ts): the record they name must have been recorded too.
 */

type Json = Record<string, unknown>;

/** What the recorder knows when it writes a record: the records of the connection, and its taxes. */
export interface Holding {
  /** The ids recorded of a kind of the connection's vertical. */
  has(kind: string, id: string): boolean;
  /** The code of a tax the client read (by id), if it read it. */
  taxCode(id: string): string | undefined;
}

export interface RecordedKind {
  /** The fixture block (the vertical's key) and the kind in it. */
  vertical: string;
  kind: string;
  /** The collection's path below /consumers/{consumer_id}/. */
  path: string;
  /** Whether the record describes a person or company (its values are personal). */
  personal: boolean;
  /** `body`: the record is the create operation's body; `block`: the block's own item schema. */
  shape: 'body' | 'block';
  /** The record as the block takes it, from the fields kept and the record read. */
  adjust?: (kept: Json, read: Json, query: URLSearchParams) => Json;
  /**
   * The record with its references to other records of the connection, or the reason it is left
   * out (a record it names was not read: the loader refuses a name it cannot find).
   */
  settle?: (record: Json, holding: Holding) => Json | { leftOut: string };
}

const asList = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** An invoicing record's tax by its code (ids of the software's taxes differ offline), else none. */
function taxByCode<T extends Json>(record: T, holding: Holding): T {
  if (typeof record.tax_id !== 'string') return record;
  const code = holding.taxCode(record.tax_id);
  const { tax_id: _tax, ...rest } = record;
  return (code === undefined ? rest : { ...rest, tax_id: code }) as T;
}

/** A variant's attributes ({"Size": "M"}), from the read's list of names and values. */
function attributesOf(value: unknown): Json {
  const pairs = asList(value).flatMap((attribute) =>
    typeof attribute.name === 'string' && attribute.value != null
      ? [[attribute.name, String(attribute.value)]]
      : [],
  );
  return pairs.length > 0 ? { attributes: Object.fromEntries(pairs) } : {};
}

export const RECORDED_KINDS: readonly RecordedKind[] = [
  { vertical: 'invoicing', kind: 'contacts', path: 'invoicing/contacts', personal: true, shape: 'body' },
  {
    vertical: 'invoicing',
    kind: 'products',
    path: 'invoicing/products',
    personal: false,
    shape: 'body',
    settle: (record, holding) => taxByCode(record, holding),
  },
  {
    vertical: 'invoicing',
    kind: 'invoices',
    path: 'invoicing/invoices',
    personal: false,
    shape: 'body',
    settle: (record, holding) => {
      const partner = record.partner_id;
      if (typeof partner === 'string' && !holding.has('contacts', partner))
        return { leftOut: 'its contact was not read' };
      const lines = asList(record.lines).map((line) => taxByCode(line, holding));
      if (
        lines.some((line) => typeof line.product_id === 'string' && !holding.has('products', line.product_id))
      )
        return { leftOut: 'a product of its lines was not read' };
      return { ...record, lines };
    },
  },
  { vertical: 'accounting', kind: 'clients', path: 'accounting/clients', personal: true, shape: 'body' },
  { vertical: 'accounting', kind: 'suppliers', path: 'accounting/suppliers', personal: true, shape: 'body' },
  { vertical: 'pos', kind: 'customers', path: 'pos/customers', personal: true, shape: 'body' },
  {
    vertical: 'commerce',
    kind: 'products',
    path: 'commerce/products',
    personal: false,
    shape: 'block',
    adjust: (kept, read) => {
      const variants = asList(read.variants).map((variant) => ({
        id: variant.id,
        ...(typeof variant.name === 'string' ? { name: variant.name } : {}),
        ...(typeof variant.sku === 'string' ? { sku: variant.sku } : {}),
        price: Number(asList(variant.prices)[0]?.price ?? 0),
        ...(typeof variant.available_quantity === 'number' ? { stock: variant.available_quantity } : {}),
        ...attributesOf(variant.variant_attributes),
      }));
      const categories = asList(read.categories).flatMap((category) =>
        typeof category.name === 'string' ? [category.name] : [],
      );
      return { ...kept, categories, ...(variants.length > 0 ? { variants } : { price: 0 }) };
    },
  },
  {
    vertical: 'commerce',
    kind: 'customers',
    path: 'commerce/customers',
    personal: true,
    shape: 'block',
    adjust: (kept, read) => {
      const main = asList(read.addresses).find((address) => address.address_type === 'main');
      const address = Object.fromEntries(
        ['country', 'street', 'number', 'city', 'postal_code'].flatMap((field) =>
          typeof main?.[field] === 'string' ? [[field, main[field]]] : [],
        ),
      );
      return { ...kept, ...address };
    },
  },
  {
    vertical: 'commerce',
    kind: 'orders',
    path: 'commerce/orders',
    personal: true,
    shape: 'body',
    settle: (record, holding) => {
      const lines = asList(record.lines);
      if (
        lines.some((line) => typeof line.variant_id !== 'string' || !holding.has('variants', line.variant_id))
      )
        return { leftOut: 'a variant of its lines was not read' };
      return record;
    },
  },
  {
    vertical: 'banking',
    kind: 'accounts',
    path: 'banking/accounts',
    personal: true,
    shape: 'block',
    // A recorded account's balance is its transactions': it opens at what they leave unexplained.
    adjust: ({ transactions: _none, ...kept }) => kept,
  },
  {
    vertical: 'banking',
    kind: 'transactions',
    path: 'banking/transactions',
    personal: true,
    shape: 'block',
    // The block takes the day a transaction is valued, which the read gives as an instant.
    adjust: (kept, _read, query) => ({
      ...kept,
      ...(typeof kept.value_date === 'string' ? { value_date: kept.value_date.slice(0, 10) } : {}),
      account: query.get('account_id') ?? '',
    }),
    settle: (record, holding) =>
      holding.has('accounts', String(record.account)) ? record : { leftOut: 'its account was not read' },
  },
];

/** The kind a read of `path` (below the consumer) shows, if one is recorded. */
export const recordedKindAt = (path: string): RecordedKind | undefined =>
  RECORDED_KINDS.find((kind) => kind.path === path);

/** A zod schema without its optional, nullable and default wrappers. */
function bare(schema: z.ZodType): z.ZodType {
  let at = schema as z.ZodType & { unwrap?: () => z.ZodType; def: { type: string; innerType?: z.ZodType } };
  for (let depth = 0; depth < 8 && at.def.innerType; depth += 1) at = at.def.innerType as typeof at;
  return at;
}

/** The item schema of a kind of a fixture block, from the verticals' modules. */
export function blockItemSchema(vertical: string, kind: string): z.ZodType | null {
  const module = VERTICALS.find((candidate) => candidate.key === vertical);
  const block = module?.fixtures ? (bare(module.fixtures.schema) as z.ZodType & { shape?: Json }) : null;
  const list = block?.shape?.[kind] as z.ZodType | undefined;
  if (!list) return null;
  const array = bare(list) as z.ZodType & { def: { element?: z.ZodType } };
  return array.def.element ? bare(array.def.element) : null;
}

/** What of a value the block's item takes: the fields its schema has, at any depth; nulls left out. */
export function pickBySchema(value: unknown, schema: z.ZodType, depth = 0): unknown {
  const at = bare(schema) as z.ZodType & { shape?: Record<string, z.ZodType>; def: { element?: z.ZodType } };
  if (depth > 12) return value;
  if (Array.isArray(value))
    return at.def.element
      ? value.map((item) => pickBySchema(item, at.def.element as z.ZodType, depth + 1))
      : value;
  if (value === null || typeof value !== 'object' || !at.shape) return value;
  const out: Json = {};
  for (const [name, field] of Object.entries(value as Json))
    if (field !== null && Object.hasOwn(at.shape, name))
      out[name] = pickBySchema(field, at.shape[name] as z.ZodType, depth + 1);
  return out;
}
