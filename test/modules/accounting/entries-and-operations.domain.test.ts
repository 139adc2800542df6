import { describe, expect, it } from 'vitest';
import * as entries from '../../../src/modules/accounting/api/entries.domain.js';
import type * as wire from '../../../src/modules/accounting/api/entries.schemas.js';
import * as operations from '../../../src/modules/accounting/api/miscellaneous.domain.js';
import type * as records from '../../../src/modules/accounting/model/accounting.records.js';
import {
  matchingNumbersByLine,
  openPartnerLines,
} from '../../../src/modules/accounting/model/ledger/derived.js';
import { type Refusal, refusal } from '../domain-helpers.js';
import { findIn as find, seededLedger } from './seeded-ledger.js';

/** Journal entries, outstanding items and miscellaneous operations: the rules called directly. */

type Ledger = records.LedgerRecord;
type Entry = records.LedgerEntry;
const SEEDED = seededLedger();
const journal = (code: string) => find(SEEDED.journals, (j) => j.code === code).id;
const [VEN, BNK, OD] = ['VEN', 'BNK', 'OD'].map(journal) as [string, string, string];
const CLIENT = find(SEEDED.partners, (p) => p.code === 'C00001');
const SUPPLIER = find(SEEDED.partners, (p) => p.code === 'S00001');
const SALES = find(SEEDED.analytic_accounts, (a) => a.code === 'SALES');
const DEBIT = find(SEEDED.payment_methods, (m) => m.name === 'Direct debit');

type Line = records.LedgerEntryLine;
const line = (
  id: string,
  account_number: string,
  debit: number,
  credit: number,
  over: Partial<Line> = {},
) => ({
  ...{ id, account_number, partner_id: null, employee_id: null, description: `d ${id}`, debit, credit },
  ...{ analytic_distribution: [], tax_code: null, ...over },
});
// biome-ignore format: one record a line
function addEntry(ledger: Ledger, id: string, date: string, lines: Line[], over: Partial<Entry> = {}): Entry {
  const at = `${date}T09:00:00.000Z`;
  const entry: Entry = {
    ...{ id, journal_id: OD, number: `${id}-no`, date, due_date: null, reference: null, posted: true },
    ...{ currency: 'EUR', currency_exchange_rate: 1, origin: 'journal_entry', invoice_id: null },
    ...{ payment_method_id: null, start_date: null, end_date: null, lines, created_on: at, last_updated_on: at },
    ...over,
  };
  ledger.entries[id] = entry;
  return entry;
}
/**
 * The seeded folder with entries of its own only: o1..o3 operations (OD), s1 a sale (VEN), b1 a bank
 * entry (BNK) matched in part against s1, u1 an unposted operation.
 */
// biome-ignore format: one entry a line
function ledgerWithEntries(): Ledger {
  const ledger = structuredClone(SEEDED) as Ledger;
  Object.assign(ledger, { entries: {}, invoices: {}, matchings: {}, attachments: {} });
  const client = { partner_id: CLIENT.id };
  addEntry(ledger, 'o1', '2025-01-31', [line('o1-a', '620000', 100, 0), line('o1-b', '455000', 0, 100)]);
  addEntry(ledger, 'o2', '2025-03-01', [line('o2-a', '400000', 0, 40.1, client), line('o2-b', '600000', 40.1, 0)]);
  addEntry(ledger, 'o3', '2025-03-01', [line('o3-a', '440000', 10, 0, { partner_id: SUPPLIER.id }), line('o3-b', '600000', 0, 10)]);
  const sale = [line('s1-p', '400000', 121, 0, client), line('s1-r', '700000', 0, 121)];
  addEntry(ledger, 's1', '2025-02-15', sale, { journal_id: VEN, due_date: '2025-03-15' });
  addEntry(ledger, 'b1', '2025-02-20', [line('b1-b', '550000', 100.5, 0), line('b1-p', '400000', 0, 100.5, client)], { journal_id: BNK });
  addEntry(ledger, 'u1', '2025-02-01', [line('u1-a', '600000', 5, 0), line('u1-b', '440000', 0, 5)], { posted: false });
  const allocations = [{ entry_id: 's1', line_id: 's1-p', amount: 100.5 }, { entry_id: 'b1', line_id: 'b1-p', amount: 100.5 }];
  ledger.matchings.M1 = { number: 'M1', partner_id: CLIENT.id, date: '2025-02-20', allocations, created_on: 'x' };
  return ledger;
}

describe('drafts of journal entries', () => {
  type Item = wire.GenericJournalEntryInput['items'][number];
  const item = (over: Partial<Item> = {}): Item => ({
    ...{ account_type: 'general_account', debit: 10, credit: 0, prioritise_thirdparty_account: false },
    ...{ analytic_distribution: null, ...over },
  });
  const generic = (items: Item[]): wire.GenericJournalEntryInput => ({
    ...{ journal_id: OD, number: 'N1', currency: 'EUR', currency_exchange_rate: null, date: '2025-03-01' },
    ...{ posted: null, items },
  });

  it('fills what a generic entry leaves out', () => {
    const draft = entries.draftFromGeneric(
      generic([item(), item({ debit: 0, credit: 10, account: '600000' })]),
    );
    expect({ ...draft, items: [] }).toEqual({
      ...{ journal_id: OD, number: 'N1', reference: null, due_date: null, currency: 'EUR' },
      ...{ currency_exchange_rate: 1, date: '2025-03-01', posted: true, pdf: null, pdf_name: null },
      ...{ start_date: null, end_date: null, origin: 'journal_entry', items: [] },
    });
    expect(draft.items[1]).toEqual({
      ...{
        account_type: 'general_account',
        account: '600000',
        force_general_account: null,
        description: null,
      },
      ...{ debit: 0, credit: 10, analytic_distribution: [], tax_code: null, account_info: null },
    });
  });

  const tax = (tax_code: string) => ({ tax_code, tax_amount: 1 });
  // biome-ignore format: one case a line
  it.each<[string, Partial<Item>, string | null]>([
    ['tax_code before tax_info', { tax_code: 'A', tax_info: tax('B') }, 'A'],
    ['tax_info when tax_code is null', { tax_code: null, tax_info: tax('B') }, 'B'],
    ['an empty tax_code kept', { tax_code: '', tax_info: tax('B') }, ''],
    ['none', { tax_info: null }, null],
  ])('takes the tax code of an item: %s', (_label, over, expected) => {
    expect(entries.draftFromGeneric(generic([item(over)])).items[0]?.tax_code).toBe(expected);
  });

  it('copies distributions and the account to create, and keeps a given posted and rate', () => {
    const dist = [{ analytic_plan: 'p', analytic_accounts: [{ analytic_account: 'a', percentage: 100 }] }];
    const info = { account_number: '612345', account_name: 'New' };
    const body = { ...generic([item({ analytic_distribution: dist, account_info: info })]), posted: false };
    const draft = entries.draftFromGeneric({ ...body, currency_exchange_rate: 0.5 });
    const [first] = draft.items;
    expect([
      draft.posted,
      draft.currency_exchange_rate,
      first?.analytic_distribution,
      first?.account_info,
    ]).toEqual([...[false, 0.5, dist, info]]);
    expect([first?.analytic_distribution[0] === dist[0], first?.account_info === info]).toEqual([
      false,
      false,
    ]);
  });

  type LegacyItem = wire.JournalEntryInInput['items'][number];
  const legacyItem = (over: Partial<LegacyItem>): LegacyItem => ({
    ...{ account_number: '600000', debit: 10, credit: 0, currency: 'EUR', currency_exchange_rate: 1 },
    ...{ analytic_distribution: null, ...over },
  });
  const legacy = (items: LegacyItem[]) =>
    entries.draftFromLegacy(SEEDED, { journal_id: OD, name: 'L1', date: '2025-03-01', items });

  it('turns the deprecated shape into a draft: partner lines by account, one currency and rate', () => {
    const draft = legacy([
      ...[legacyItem({ account_number: '400000', partner_id: CLIENT.id, description: 'c' })],
      ...[legacyItem({ account_number: '440000', partner_id: SUPPLIER.id, currency_exchange_rate: 1 })],
      ...[legacyItem({ partner_id: CLIENT.id }), legacyItem({ account_number: '999999' })],
    ]);
    expect(draft.items.map((i) => [i.account_type, i.account, i.force_general_account])).toEqual([
      ...[
        ['customer_account', CLIENT.id, '400000'],
        ['supplier_account', SUPPLIER.id, '440000'],
      ],
      ...[
        ['general_account', '600000', null],
        ['general_account', '999999', null],
      ],
    ]);
    expect({ ...draft, items: [] }).toEqual({
      ...{ journal_id: OD, number: 'L1', reference: null, due_date: null, currency: 'EUR' },
      ...{ currency_exchange_rate: 1, date: '2025-03-01', posted: true, pdf: null, pdf_name: null },
      ...{ start_date: null, end_date: null, origin: 'journal_entry', items: [] },
    });
    expect(draft.items[0]).toMatchObject({ description: 'c', tax_code: null, account_info: null });
  });

  it('takes the currency and rate of the first line (1 for null), the main currency for no line', () => {
    const usd = { currency: 'USD', currency_exchange_rate: null };
    const draft = legacy([legacyItem(usd), legacyItem({ ...usd, currency_exchange_rate: 1 })]);
    expect([draft.currency, draft.currency_exchange_rate]).toEqual(['USD', 1]);
    expect([legacy([]).currency, legacy([]).currency_exchange_rate, legacy([]).items]).toEqual([
      'EUR',
      1,
      [],
    ]);
  });

  // biome-ignore format: one case a line
  it.each<[string, Partial<LegacyItem>, Refusal]>([
    ['a second currency', { currency: 'USD' }, { status: 422, message: 'Only one currency can be used.', detail: 'items[1]: USD, where the first line is in EUR', code: 'ERROR_MULTIPLE_CURRENCIES' }],
    ['a second rate', { currency_exchange_rate: 1.2 }, { status: 422, message: 'Exchange rates must be equal.', detail: 'items[1]: 1.2, where the first line has 1', code: 'ERROR_MULTIPLE_EXCHANGE_RATES' }],
    ['a rate against a first one of null (1)', { currency_exchange_rate: 1.5 }, { status: 422, message: 'Exchange rates must be equal.', detail: 'items[1]: 1.5, where the first line has 1', code: 'ERROR_MULTIPLE_EXCHANGE_RATES' }],
    ['a receivable line without partner', { account_number: '400000' }, { status: 422, message: 'Please provide a client/supplier account in the partner_id field.', detail: "items[1]: the account '400000' takes a client or supplier: give partner_id", code: 'ERROR_PARTNER_ACCOUNT_MISSING' }],
    ['a payable line with an empty partner', { account_number: '440000', partner_id: '' }, { status: 422, message: 'Please provide a client/supplier account in the partner_id field.', detail: "items[1]: the account '440000' takes a client or supplier: give partner_id", code: 'ERROR_PARTNER_ACCOUNT_MISSING' }],
  ])('refuses in the deprecated shape %s', (_label, over, expected) => {
    expect(refusal(() => legacy([legacyItem({ currency_exchange_rate: null }), legacyItem(over)]))).toEqual(expected);
  });
});

describe('journal entries on the wire', () => {
  it.each(['nope', '__proto__', 'valueOf'])(
    'answers 404 for the entry %s, and finds one in any case',
    (id) => {
      const ledger = ledgerWithEntries();
      expect(entries.requireEntry(ledger, 'O1').id).toBe('o1');
      expect(refusal(() => entries.requireEntry(ledger, id))).toEqual({
        ...{ status: 404, message: "The entry doesn't exist in the accounting system." },
        ...{ detail: `No journal entry with the id '${id}' in the folder`, code: 'ERROR_ENTRY_NOT_FOUND' },
      });
    },
  );

  it('shows an entry with its partner due dates, attachments, names and matching numbers', () => {
    const ledger = ledgerWithEntries();
    const sale = ledger.entries.s1 as Entry;
    Object.assign(sale, { invoice_id: 'inv', payment_method_id: DEBIT.id, reference: 'R' });
    (sale.lines[0] as Line).debit = 60.1;
    sale.lines.splice(1, 0, line('s1-q', '400000', 60.2, 0.3, { partner_id: CLIENT.id }));
    const dist = {
      analytic_plan: SALES.plan_id,
      analytic_accounts: [{ analytic_account: SALES.id, percentage: 100 }],
    };
    (sale.lines[2] as Line).analytic_distribution = [dist];
    const file = (id: string, document_type: 'invoice' | 'entry', document_id: string) => ({
      ...{ id, document_type, document_id, filename: `${id}.pdf`, base64_string: 'x', created_on: 'c' },
    });
    Object.assign(ledger.attachments, { f1: file('f1', 'entry', 's1'), f2: file('f2', 'invoice', 'inv') });
    ledger.attachments.f3 = file('f3', 'entry', 'o1');
    const mono = entries.toJournalEntry(ledger, sale, 'mono');
    // biome-ignore format: the expected entry
    expect({ ...mono, items: [] }).toEqual({
      ...{ id: 's1', reference: 'R', due_date: '2025-03-15', journal_id: VEN, name: 's1-no', journal_name: 'Sales' },
      ...{ date: '2025-02-15', posted: true, items: [] },
      // 60.1 + 60.2 debited and 0.3 credited on the client's lines, to the cent.
      due_dates: [{ due_date: '2025-03-15', payment_method: 'Direct debit', payment_method_id: DEBIT.id, debit: 120.3, credit: 0.3 }],
      attachments_info: { status: 'yes', attachments: [{ filename: 'f1.pdf', url: null }, { filename: 'f2.pdf', url: null }] },
    });
    const items = mono.items ?? [];
    // biome-ignore format: one line a row
    expect(items.map((i) => [i.id, i.account_name, i.partner_name, i.matching_numbers, i.analytic_account])).toEqual([
      ['s1-p', 'Trade debtors', 'Pagac SAS', ['M1'], null],
      ['s1-q', 'Trade debtors', 'Pagac SAS', [], null],
      ['s1-r', 'Sales of goods', null, [], SALES.id],
    ]);
    expect(items[2]).toMatchObject({ analytic_account_name: 'Sales department', currency: 'EUR' });
    const multi = entries.toJournalEntry(ledger, sale, 'multi').items ?? [];
    expect(multi.map((i) => i.analytic_distribution)).toEqual([[], [], [dist]]);
    expect(multi[2]?.analytic_distribution?.[0]).not.toBe(dist);
  });

  it('gives no due dates without a due date or without partner lines, and names what it cannot find', () => {
    const ledger = ledgerWithEntries();
    const o1 = ledger.entries.o1 as Entry;
    Object.assign(o1, { due_date: '2025-02-28', journal_id: 'gone' });
    (o1.lines[0] as Line).account_number = '999999';
    (o1.lines[1] as Line).partner_id = 'gone';
    const shown = entries.toJournalEntry(ledger, o1, 'mono');
    const noFile = { status: 'no', attachments: [] };
    expect([shown.due_dates, shown.journal_name, shown.attachments_info]).toEqual([[], null, noFile]);
    const names = (shown.items ?? []).map((i) => `${i.account_name} ${i.partner_name}`);
    expect(names).toEqual(['999999 null', 'Remuneration payable null']);
    expect(entries.toJournalEntry(ledger, ledger.entries.o2 as Entry, 'multi').due_dates).toEqual([]);
  });

  const NOT_3 = (from: string, to: string) =>
    `date_from ${from} and date_to ${to} are more than 3 months apart (give updated_after to list more)`;
  // biome-ignore format: one case a line
  it.each<[string, string, string | undefined, boolean]>([
    ['2025-01-01', '2025-04-01', undefined, true],
    ['2025-01-01', '2025-04-02', undefined, false],
    ['2025-01-01', '2025-04-02', '2025-01-01T00:00:00', true],
    ['2024-11-30', '2025-03-02', undefined, true],
    ['2024-11-30', '2025-03-03', undefined, false],
    ['2025-01-31', '2025-05-01', undefined, true],
    ['2025-01-31', '2025-05-02', undefined, false],
    ['2025-05-01', '2025-01-01', undefined, true],
    ['2023-11-15', '2024-02-15', undefined, true],
    ['2023-11-15', '2024-02-16', undefined, false],
  ])('%s to %s (updated_after %s): accepted %s', (date_from, date_to, updated_after, accepted) => {
    const filters = { unposted_allowed: 'true' as const, date_from, date_to, updated_after };
    if (accepted) expect(() => entries.assertEntryPeriod(filters)).not.toThrow();
    else
      expect(refusal(() => entries.listEntries(ledgerWithEntries(), filters))).toEqual({
        ...{ status: 400, detail: NOT_3(date_from, date_to), code: 'ERROR_MAX_DIFFERENCE_MONTHS' },
        message: "You can retrieve maximum 3 months of data at once. The difference between 'date_from' and 'date_to' is at maximum 3 months.",
      });
  });

  type Filters = entries.EntryFilters;
  // biome-ignore format: one case a line
  it.each<[string, Omit<Filters, 'unposted_allowed'>, 'true' | 'false', string[]]>([
    ['every posted entry, by date then number', {}, 'false', ['o1', 's1', 'b1', 'o2', 'o3']],
    ['unposted ones too', {}, 'true', ['o1', 'u1', 's1', 'b1', 'o2', 'o3']],
    ['a journal', { journal_id: OD }, 'true', ['o1', 'u1', 'o2', 'o3']],
    ['an unknown journal', { journal_id: '__proto__' }, 'true', []],
    ['dates, both inclusive', { date_from: '2025-02-01', date_to: '2025-02-20' }, 'true', ['u1', 's1', 'b1']],
    ['a date_to before date_from', { date_from: '2025-03-01', date_to: '2025-02-01' }, 'true', []],
    ['a partner on any line', { partner_id: CLIENT.id }, 'false', ['s1', 'b1', 'o2']],
    ['updated_after, strictly', { updated_after: '2025-02-20T09:00:00Z' }, 'false', ['o2', 'o3']],
    ['updated_after without offset (UTC) and a wide period', { updated_after: '2025-02-20T08:59:59', date_from: '2024-01-01', date_to: '2025-12-31' }, 'false', ['b1', 'o2', 'o3']],
  ])('lists %s', (_label, filters, unposted_allowed, expected) => {
    expect(entries.listEntries(ledgerWithEntries(), { ...filters, unposted_allowed }).map((e) => e.id)).toEqual(expected);
  });

  it('breaks ties of date and number by id', () => {
    const ledger = ledgerWithEntries();
    ledger.entries.o2a = { ...(ledger.entries.o2 as Entry), id: 'o2a', number: 'o2-no' };
    const listed = entries.listEntries(ledger, { unposted_allowed: 'false', date_from: '2025-03-01' });
    expect(listed.map((e) => e.id)).toEqual(['o2', 'o2a', 'o3']);
  });
});

describe('outstanding items', () => {
  it('shows the open lines of clients, what they owe positive, what they paid negative', () => {
    const ledger = ledgerWithEntries();
    Object.assign(ledger.entries.s1 as Entry, {
      payment_method_id: DEBIT.id,
      reference: 'R',
      invoice_id: 'inv',
    });
    const invoice = { invoice_number: 'VEN/2025/0009', payment_communication: '+++1+++', id: 'inv' };
    ledger.invoices.inv = invoice as records.LedgerInvoice;
    const items = entries.outstandingItems(ledger, 'client', false);
    // biome-ignore format: one line a row
    expect(items.map((i) => [i.id, i.amount, i.open_amount, i.matching_numbers, i.partner_id])).toEqual([
      ['s1-p', 121, 20.5, ['M1'], CLIENT.id],
      ['o2-a', -40.1, -40.1, [], CLIENT.id],
    ]);
    const dueDate = { due_date: '2025-03-15', payment_method: 'Direct debit', payment_method_id: DEBIT.id };
    expect(items[0]).toMatchObject({
      ...{ number: 's1-no', journal_id: VEN, journal_type: 'customer_invoice', date: '2025-02-15' },
      ...{ due_date: '2025-03-15', currency: 'EUR', currency_exchange_rate: 1, account_number: '400000' },
      ...{ reference: 'R', payment_communication: '+++1+++', posted: true },
      due_dates: [{ ...dueDate, amount: 20.5 }],
      original_document: {
        id: 'inv',
        number: 'VEN/2025/0009',
        journal_id: VEN,
        journal_type: 'customer_invoice',
      },
    });
    const o2 = {
      due_dates: [],
      payment_communication: null,
      original_document: { id: 'o2', number: 'o2-no' },
    };
    expect(items[1]).toMatchObject(o2);
  });

  it('shows the open lines of suppliers, unposted ones on request, with the sign of what is owed', () => {
    const ledger = ledgerWithEntries();
    const ids = (unposted: boolean) =>
      entries.outstandingItems(ledger, 'supplier', unposted).map((i) => `${i.id} ${i.amount}`);
    expect([ids(false), ids(true)]).toEqual([['o3-a -10'], ['o3-a -10']]);
    (ledger.entries.u1?.lines[1] as Line).partner_id = SUPPLIER.id;
    expect(ids(true)).toEqual(['u1-b 5', 'o3-a -10']);
    const [open] = openPartnerLines(ledger, 'supplier', true);
    if (!open) throw new Error('no open line');
    const numbers = matchingNumbersByLine(ledger);
    const item = entries.toOutstandingItem(ledger, { ...open, openCents: -1 }, 'supplier', numbers);
    expect([item.open_amount, item.partner_id, item.journal_type]).toEqual([
      0.01,
      SUPPLIER.id,
      'miscellaneous_operation',
    ]);
    (ledger.entries.u1 as Entry).journal_id = 'gone';
    expect(entries.outstandingItems(ledger, 'supplier', true)[0]?.journal_type).toBe('unknown');
  });
});

describe('miscellaneous operations', () => {
  type OperationIn = Parameters<typeof operations.draftOf>[0];
  const lineIn = (over: Partial<OperationIn['lines'][number]> = {}): OperationIn['lines'][number] => ({
    ...{ line_number: null, amount: 10, type: 'general_account', account_number: '600000', ...over },
  });

  it('drafts an operation: posted, rate 1 and line number 1 unless given', () => {
    const given = { partner_id: 'p', analytic_account: 'aa', description: 'x' };
    const body: OperationIn = {
      ...{ currency: 'EUR', currency_exchange_rate: null, operation_date: '2025-03-01', status: null },
      lines: [lineIn(), lineIn({ ...given, line_number: 4, amount: -10 })],
    };
    const line1 = { type: 'general_account', account_number: '600000' };
    expect(operations.draftOf(body)).toEqual({
      ...{ operation_number: null, currency: 'EUR', currency_exchange_rate: 1, operation_date: '2025-03-01' },
      ...{ journal_id: null, status: 'posted' },
      lines: [
        { ...line1, line_number: 1, description: null, amount: 10, partner_id: null, analytic_account: null },
        { ...line1, ...given, line_number: 4, amount: -10 },
      ],
    });
    const more = {
      operation_number: 'OD1',
      journal_id: OD,
      status: 'draft' as const,
      currency_exchange_rate: 2,
    };
    const draft = operations.draftOf({ ...body, ...more });
    expect([draft.operation_number, draft.journal_id, draft.status, draft.currency_exchange_rate]).toEqual([
      ...['OD1', OD, 'draft', 2],
    ]);
  });

  it.each(['s1', 'b1', 'nope', '__proto__'])(
    'answers 404 for %s, no operation, and finds one in any case',
    (id) => {
      const ledger = ledgerWithEntries();
      expect(operations.requireOperation(ledger, 'O2').id).toBe('o2');
      expect(refusal(() => operations.requireOperation(ledger, id))).toEqual({
        ...{ status: 404, message: "The miscellaneous operation doesn't exist in the accounting system." },
        ...{ detail: `No miscellaneous operation with the id '${id}' in the folder`, code: undefined },
      });
    },
  );

  // biome-ignore format: one case a line
  it.each<[string, operations.OperationFilters, string[]]>([
    ['every operation, drafts included', {}, ['o1', 'u1', 'o2', 'o3']],
    ['journal ids, trimmed', { journal_ids: ` ${VEN} , ${OD} ` }, ['o1', 'u1', 'o2', 'o3']],
    ['a journal that is not of operations', { journal_ids: VEN }, []],
    ['an unknown journal', { journal_ids: 'nope' }, []],
    ['dates, both inclusive', { date_from: '2025-02-01', date_to: '2025-03-01' }, ['u1', 'o2', 'o3']],
    ['a date_to before date_from', { date_from: '2025-03-01', date_to: '2025-01-31' }, []],
  ])('lists %s', (_label, filters, expected) => {
    expect(operations.listOperations(ledgerWithEntries(), filters).map((e) => e.id)).toEqual(expected);
  });

  it('shows an entry as an operation: credits positive, partner lines typed, status from the matching', () => {
    const ledger = ledgerWithEntries();
    const o2 = ledger.entries.o2 as Entry;
    o2.lines.push(
      line('o2-c', '400000', 0.1, 0.3),
      line('o2-d', '700000', 0.2, 0, { partner_id: CLIENT.id }),
    );
    const share = { analytic_account: 'aa', percentage: 100 };
    (o2.lines[1] as Line).analytic_distribution = [{ analytic_plan: 'p', analytic_accounts: [share] }];
    const shown = operations.toOperation(ledger, o2);
    expect({ ...shown, lines: [] }).toEqual({
      ...{ id: 'o2', operation_number: 'o2-no', currency: 'EUR', currency_exchange_rate: 1 },
      ...{ operation_date: '2025-03-01', journal_id: OD, status: 'posted', lines: [] },
    });
    // biome-ignore format: one line a row
    expect(shown.lines.map((l) => [l.line_number, l.amount, l.type, l.partner_id, l.analytic_account])).toEqual([
      [1, 40.1, 'customer_account', CLIENT.id, null],
      [2, -40.1, 'general_account', null, 'aa'],
      [3, 0.2, 'general_account', null, null],
      [4, -0.2, 'general_account', null, null],
    ]);
    const o3 = operations.toOperation(ledger, ledger.entries.o3 as Entry);
    expect(o3.lines[0]).toMatchObject({ type: 'supplier_account', amount: -10, partner_id: SUPPLIER.id });
  });

  const match = (amount: number) => (ledger: Ledger) => {
    const allocations = [{ entry_id: 'o2', line_id: 'o2-a', amount }];
    ledger.matchings.M2 = { number: 'M2', partner_id: CLIENT.id, date: 'd', allocations, created_on: 'x' };
  };
  const o2 = (ledger: Ledger) => ledger.entries.o2 as Entry;
  // biome-ignore format: one case a line
  it.each<[string, (l: Ledger) => void, string]>([
    ['posted with an open partner line', () => {}, 'posted'],
    ['posted with its partner lines matched', match(40.1), 'matched'],
    ['posted with its partner lines matched in part', match(40), 'posted'],
    ['a draft, even matched', (l) => { match(40.1)(l); o2(l).posted = false; }, 'draft'],
    ['without partner lines', (l) => { (o2(l).lines[0] as Line).partner_id = null; }, 'posted'],
  ])('gives the status %s', (_label, prepare, status) => {
    const ledger = ledgerWithEntries();
    prepare(ledger);
    expect(operations.toOperation(ledger, o2(ledger)).status).toBe(status);
  });
});
