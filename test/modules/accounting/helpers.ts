import { expect } from 'vitest';
import { ledgerKey } from '../../../src/modules/accounting/model/accounting.records.js';
import {
  type CallOptions,
  type CallResult,
  call,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

/** A sandbox with a token and shortcuts to the accounting routes of one consumer. */
export interface AccountingSandbox extends TestSandbox {
  token: string;
  consumerId: string;
  base: string;
  get(path: string, options?: CallOptions): Promise<CallResult>;
  post(path: string, body: unknown, options?: CallOptions): Promise<CallResult>;
  patch(path: string, body: unknown, options?: CallOptions): Promise<CallResult>;
}

export async function accountingSandbox(consumer?: (s: TestSandbox) => string): Promise<AccountingSandbox> {
  const s = sandbox();
  const token = await sandboxToken(s);
  return forConsumer(s, token, consumer ? consumer(s) : (s.ids.verticalConsumers.ACCOUNTING as string));
}

export function forConsumer(s: TestSandbox, token: string, consumerId: string): AccountingSandbox {
  const base = `/consumers/${consumerId}/accounting`;
  return {
    ...s,
    token,
    consumerId,
    base,
    get: (path, options = {}) => call(s.app, 'GET', `${base}${path}`, { token, ...options }),
    post: (path, body, options = {}) => call(s.app, 'POST', `${base}${path}`, { token, body, ...options }),
    patch: (path, body, options = {}) => call(s.app, 'PATCH', `${base}${path}`, { token, body, ...options }),
  };
}

/**
 * Closes a book year of a folder (the default one unless `folder` is given). No seeded year is
 * closed: a test of the closed-year refusal closes one first. The ledger is made through the API (a
 * read builds it), then the year is marked closed through the store's write boundary.
 */
export async function closeBookYear(a: AccountingSandbox, name: string, folder = ''): Promise<void> {
  const q = folder ? `?folder_id=${folder}` : '';
  const years = await a.get(`/bookyears${q}`);
  expect(years.status, years.text).toBe(200);
  const key = ledgerKey(a.consumerId, folder || (await a.get('/folders')).body[0].id);
  await a.app.services.store.transact((store) => {
    const year = store.world.accounting_ledgers[key]?.bookyears.find((y) => y.name === name);
    if (!year) throw new Error(`no book year ${name} in the ledger ${key}`);
    year.closed = true;
  });
}

/** Every item of a paged list (pages of 100). */
// biome-ignore lint/suspicious/noExplicitAny: list items are read field by field in tests
export async function all(a: AccountingSandbox, path: string): Promise<any[]> {
  const out: unknown[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await a.get(`${path}${sep}page=${page}&size=100`);
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) break;
  }
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return out as any[];
}

/** Ids of the folder's reference data, looked up through the API. */
export interface Reference {
  vat: Record<string, { id: string; rate: number }>;
  journals: Record<string, { id: string; journal_type: string }>;
  methods: Record<string, string>;
  terms: Record<string, string>;
  clients: { id: string; name: string; active: boolean }[];
  suppliers: { id: string; name: string; active: boolean }[];
  plans: { id: string; name: string }[];
  analytic: { id: string; plan_id: string; code: string }[];
}

export async function referenceOf(a: AccountingSandbox, folder = ''): Promise<Reference> {
  const q = folder ? `?folder_id=${folder}` : '';
  const vat = await all(a, `/vat-codes${q}`);
  const journals = await all(a, `/journals${q}`);
  const methods = await all(a, `/payment-methods${q}`);
  const terms = await all(a, `/payment-terms${q}`);
  const clients = await all(a, `/clients${q}`);
  const suppliers = await all(a, `/suppliers${q}`);
  const plans = await all(a, `/analytic-plans${q}`);
  const ledgerKey = `${a.consumerId}:${folder || (await a.get('/folders')).body[0].id}`;
  const ledger = a.app.services.store.world.accounting_ledgers[ledgerKey];
  return {
    vat: Object.fromEntries(vat.map((v) => [v.code, { id: v.id, rate: v.rate }])),
    journals: Object.fromEntries(journals.map((j) => [j.code, { id: j.id, journal_type: j.journal_type }])),
    methods: Object.fromEntries(methods.map((m) => [m.name, m.id])),
    terms: Object.fromEntries(terms.map((t) => [t.name, t.id])),
    clients: clients.filter((c) => c.active),
    suppliers: suppliers.filter((c) => c.active),
    plans,
    // Tests of the core operations read analytic account ids straight from the ledger.
    analytic: Object.values(ledger?.analytic_accounts ?? {}).filter((x) => x.active),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface LineSpec {
  quantity: number;
  unit_price: number;
  vat: string;
  account?: string;
  analytic_account?: string;
}

/** A valid invoice line for a VAT code (amounts computed as the ledger checks them). */
export function line(ref: Reference, spec: LineSpec) {
  const code = ref.vat[spec.vat];
  if (!code) throw new Error(`no VAT code ${spec.vat}`);
  const untaxed = round2(spec.quantity * spec.unit_price);
  const tax = spec.vat === 'AIC21' ? 0 : round2((untaxed * code.rate) / 100);
  return {
    quantity: spec.quantity,
    unit_price: spec.unit_price,
    untaxed_amount: untaxed,
    tax_rate: code.rate,
    tax_amount: tax,
    total: round2(untaxed + tax),
    account_number: spec.account ?? (spec.vat.startsWith('V') ? '700000' : '604000'),
    tax_code: code.id,
    description: 'Test line',
    ...(spec.analytic_account ? { analytic_account: spec.analytic_account } : {}),
  };
}

/** A valid invoice body; `overrides` replace fields after the totals are computed. */
export function invoiceBody(
  ref: Reference,
  type: 'customer_invoice' | 'customer_refund' | 'supplier_invoice' | 'supplier_refund',
  lines: ReturnType<typeof line>[],
  overrides: Record<string, unknown> = {},
) {
  const untaxed = round2(lines.reduce((t, l) => t + l.untaxed_amount, 0));
  const tax = round2(lines.reduce((t, l) => t + l.tax_amount, 0));
  const partner = type.startsWith('customer') ? ref.clients[0] : ref.suppliers[0];
  return {
    invoice_type: type,
    currency: 'EUR',
    untaxed_amount: untaxed,
    tax_amount: tax,
    total: round2(untaxed + tax),
    invoice_date: '2026-01-15',
    due_date: '2026-02-14',
    partner_id: partner?.id,
    lines,
    ...overrides,
  };
}

export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< >>\nendobj\ntrailer\n<< >>\n%%EOF\n').toString(
  'base64',
);
