import { describe, expect, it } from 'vitest';
import * as analytics from '../../../src/modules/accounting/api/analytic-accounts.domain.js';
import * as bank from '../../../src/modules/accounting/api/bank.domain.js';
import type { BankStatementInInput } from '../../../src/modules/accounting/api/bank.schemas.js';
import { listEmployees, toEmployeeItem } from '../../../src/modules/accounting/api/employees.domain.js';
import { expenseDraftOf, toExpenseOut } from '../../../src/modules/accounting/api/expenses.domain.js';
import type { ExpenseInput } from '../../../src/modules/accounting/api/expenses.schemas.js';
import * as financial from '../../../src/modules/accounting/api/financial-entries.domain.js';
import type * as fwire from '../../../src/modules/accounting/api/financial-entries.schemas.js';
import * as reference from '../../../src/modules/accounting/api/reference.domain.js';
import type * as records from '../../../src/modules/accounting/model/accounting.records.js';
import { type Refusal, refusal } from '../domain-helpers.js';
import { seededLedger } from './seeded-ledger.js';

/**
 * Account balances (reference.domain.ts), bank accounts and statements, expenses, financial entries,
 * analytic accounts and employees: the rules called directly, each test on a ledger of its own.
 */

type Ledger = records.LedgerRecord;
const SEEDED = seededLedger();
const ledgerOf = (): Ledger => structuredClone(SEEDED) as Ledger;
const journalOf = (ledger: Ledger, code: string) => {
  const found = Object.values(ledger.journals).find((j) => j.code === code);
  if (!found) throw new Error(`no journal ${code}`);
  return found;
};
const analyticOf = (ledger: Ledger, code: string) => {
  const found = Object.values(ledger.analytic_accounts).find((a) => a.code === code);
  if (!found) throw new Error(`no analytic account ${code}`);
  return found;
};

describe('account balances', () => {
  const line = (account_number: string, debit: number, credit: number): records.LedgerEntryLine => ({
    ...{ id: `${account_number}-${debit}-${credit}`, account_number, partner_id: null, employee_id: null },
    ...{ description: null, debit, credit, analytic_distribution: [], tax_code: null },
  });
  /** The seeded chart with entries of its own only: 550000 debited, 700000 credited. */
  function ledgerWithEntries(): Ledger {
    const ledger = ledgerOf();
    ledger.entries = {};
    // biome-ignore format: one entry a line
    const moves: [string, number, boolean, string, number][] = [
      ['2024-02-29', 1, true, 'EUR', 1],
      ['2024-12-15', 100, true, 'EUR', 1],
      ['2025-01-31', 50.1, true, 'EUR', 1],
      ['2025-02-10', 1000, false, 'EUR', 1],
      ['2025-02-20', 10.01, true, 'USD', 1.5],
      ['2025-03-01', 0.1, true, 'EUR', 1],
      ['2025-03-31', 0.2, true, 'EUR', 1],
    ];
    moves.forEach(([date, amount, posted, currency, currency_exchange_rate], i) => {
      const at = `${date}T00:00:00.000Z`;
      ledger.entries[`e${i}`] = {
        ...{ id: `e${i}`, journal_id: 'j', number: `N${i}`, date, due_date: null, reference: null, posted },
        ...{ currency, currency_exchange_rate, origin: 'journal_entry' as const },
        ...{ invoice_id: null, payment_method_id: null },
        ...{ start_date: null, end_date: null, created_on: at, last_updated_on: at },
        lines: [line('550000', amount, 0), line('700000', 0, amount)],
      };
    });
    return ledger;
  }
  // 550000: 1 (2024-02-29), 100, 50.10, 1000 unposted, 10.01 USD at 1.5 = 15.02 (15.015 rounded), 0.1, 0.2.
  // biome-ignore format: one case a line
  it.each<[string, string | null | undefined, string, number, number]>([
    ['the book year of the end month', undefined, '202502', 166.12, 65.12],
    ['a start day standing for its month', '2025-02-14', '2025-03-01', 166.42, 15.32],
    ['a start month after the end month (an empty period)', '202506', '202502', 166.12, 0],
    ['an end month outside every book year (its own month)', null, '203001', 166.42, 0],
    ['the last day of a leap February', undefined, '202402', 1, 1],
    ['a period of one month', '202403', '202403', 1, 0],
    ['the whole of 2025 (0.1 + 0.2 to the cent)', '202501', '202512', 166.42, 65.42],
  ])('sums %s', (_label, start, end, debit, periodDebit) => {
    const [bank] = reference.balancesFor(ledgerWithEntries(), { accounts: [' 550000 '], start, end });
    expect(bank).toEqual({
      ...{ account_number: '550000', account_name: 'Bank current account', debit, credit: 0, balance: debit },
      ...{ period_debit: periodDebit, period_credit: 0, period_balance: periodDebit },
    });
  });

  it('takes prefixes, and every account for none', () => {
    const ledger = ledgerWithEntries();
    const byPrefix = reference.balancesFor(ledger, { accounts: ['70'], end: '202512' });
    expect(byPrefix.map((b) => `${b.account_number} ${b.balance}`)).toEqual([
      ...['700000 -166.42', '701000 0', '705000 0', '708000 0'],
    ]);
    expect(reference.balancesFor(ledger, { accounts: ['', ' '], end: '202512' })).toHaveLength(47);
  });

  // biome-ignore format: one case a line
  it.each<[string | null, string, string]>([
    [null, '2025-13', 'end'], [null, '202513', 'end'], [null, '2025-02-32', 'end'], [null, '2025', 'end'],
    ['202500', '202502', 'start'], ['2025/01', '202502', 'start'],
  ])('refuses the period %s to %s', (start, end, field) => {
    const value = field === 'end' ? end : start;
    expect(refusal(() => reference.balancesFor(ledgerOf(), { accounts: [], start, end }))).toEqual(
      { status: 400, message: 'Error while trying to perform your request', code: undefined, detail: `${field}: '${value}' is not a month YYYYMM (nor a day YYYY-MM-DD)` },
    );
  });
});

describe('bank accounts and statements', () => {
  it('shows a bank journal as a bank account, in the main currency unless it has its own', () => {
    const ledger = ledgerOf();
    const bnk = journalOf(ledger, 'BNK');
    expect(bank.toBankAccountItem(ledger, bnk)).toEqual({
      ...{ id: bnk.id, code: 'BNK', currency: 'EUR', account_name: 'Bank current account' },
      ...{ account_number: null, iban: 'BE34028032652033', bank_name: 'BNP Paribas Fortis' },
      ...{ journal_id: bnk.id, ledger_account: '550000', unallocated_account: '499000' },
    });
    Object.assign(bnk, { currency: null, bank_account_number: '001-234' });
    ledger.folder.main_currency = 'CHF';
    expect(bank.toBankAccountItem(ledger, bnk)).toMatchObject({ currency: 'CHF', account_number: '001-234' });
    bnk.currency = 'USD';
    expect(bank.toBankAccountItem(ledger, bnk).currency).toBe('USD');
  });

  it('lists the financial journals on a bank account, by code', () => {
    const ledger = ledgerOf();
    const bnk = journalOf(ledger, 'BNK');
    const add = (
      id: string,
      code: string,
      journal_type: records.JournalTypeValue,
      account: string | null,
    ) => {
      ledger.journals[id] = { ...bnk, id, code, journal_type, counterpart_account: account };
    };
    add('j1', 'AAA', 'financial_operation', '550100');
    add('j2', 'ZZZ', 'financial_operation', '999999');
    add('j3', 'AAB', 'miscellaneous_operation', '550000');
    add('j4', 'AAC', 'financial_operation', null);
    add('j5', 'AAD', 'financial_operation', '__proto__');
    expect(bank.listBankAccounts(ledger).map((j) => j.code)).toEqual(['AAA', 'BNK']);
  });

  it('drafts a bank account with nulls for what is left out', () => {
    const body = { code: 'B2', currency: 'EUR', bank_name: 'ING' };
    const nulls = { account_name: null, account_number: null, iban: null };
    expect(bank.bankAccountDraftOf(body)).toEqual({ ...body, ...nulls });
    const full = { ...body, account_name: 'n', account_number: '1', iban: 'BE1' };
    expect(bank.bankAccountDraftOf(full)).toEqual(full);
  });

  type Transaction = BankStatementInInput['items'][number];
  const transaction = (over: Partial<Transaction> = {}): Transaction => ({
    ...{ amount: 100, fee_amount: null, tax_amount: null, currency_exchange_rate: null, ...over },
  });
  const statement = (items: Transaction[]): BankStatementInInput => ({
    ...{ bank_statement_date: '2025-03-01', bank_account_id: 'b', currency: 'EUR' },
    ...{ external_bank_statement_id: 'S1', items },
  });
  const counterpart = { counterpart_type: 'customer' as const, id: 'c1', name: 'n', iban: null };

  it('drafts a statement: fee and tax 0, rate 1, counterpart as type and id', () => {
    const body = statement([
      ...[transaction(), transaction({ counterpart, fee_amount: 1.5, tax_amount: 0.32, description: 'd' })],
      ...[transaction({ counterpart: {}, general_ledger_account: '600000', external_transaction_id: 'T3' })],
    ]);
    const draft = bank.statementDraftOf({ ...body, opening_balance: 10 });
    expect({ ...draft, items: [] }).toEqual({
      ...{ date: '2025-03-01', bank_account_id: 'b', currency: 'EUR', external_bank_statement_id: 'S1' },
      ...{ opening_balance: 10, pdf: null, pdf_name: null, items: [] },
    });
    const none = {
      general_ledger_account: null,
      external_transaction_id: null,
      amount: 100,
      description: null,
    };
    const noFee = { fee_amount: 0, tax_amount: 0, currency_exchange_rate: 1 };
    const given = { general_ledger_account: '600000', external_transaction_id: 'T3' };
    expect(draft.items).toEqual([
      { ...none, ...noFee, counterpart: null },
      {
        ...none,
        ...noFee,
        description: 'd',
        fee_amount: 1.5,
        tax_amount: 0.32,
        counterpart: { type: 'customer', id: 'c1' },
      },
      { ...none, ...noFee, ...given, counterpart: { type: null, id: null } },
    ]);
    expect(bank.statementDraftOf(body).opening_balance).toBeNull();
  });

  it('answers the statement as sent, with the entry of each transaction (null past them)', () => {
    const body = statement([transaction({ counterpart }), transaction({ currency_exchange_rate: 1.1 })]);
    const out = bank.toStatementOut(body, 'st1', [{ id: 'e1' } as records.LedgerEntry]);
    expect({ ...out, items: [] }).toEqual({
      ...{ id: 'st1', bank_statement_date: '2025-03-01', bank_account_id: 'b', currency: 'EUR' },
      ...{ external_bank_statement_id: 'S1', items: [] },
    });
    const none = {
      general_ledger_account: null,
      description: null,
      external_transaction_id: null,
      amount: 100,
    };
    expect(out.items).toEqual([
      { ...none, fee_amount: 0, tax_amount: 0, currency_exchange_rate: 1, counterpart, id: 'e1' },
      { ...none, fee_amount: 0, tax_amount: 0, currency_exchange_rate: 1.1, counterpart: null, id: null },
    ]);
  });
});

describe('expenses', () => {
  const expenseLine = { total: 12.1, untaxed_amount: 10, tax_amount: 2.1, account_number: '615000' };
  const body: ExpenseInput = {
    ...{ employee_id: 'emp', total: 12.1, untaxed_amount: 10, tax_amount: 2.1, currency: 'EUR' },
    ...{ currency_exchange_rate: null, date: '2025-03-01', pdf_name: null },
    lines: [{ ...expenseLine, tax_rate: 21, tax_id: 'A21' }],
  };

  it('drafts an expense: rate 1, nulls for what is left out, a description per line', () => {
    const draft = expenseDraftOf(body);
    expect(draft).toEqual({
      ...{ employee_id: 'emp', total: 12.1, untaxed_amount: 10, tax_amount: 2.1, reference: null },
      ...{ number: null, currency: 'EUR', currency_exchange_rate: 1, date: '2025-03-01', pdf: null },
      ...{ pdf_name: null, lines: [{ ...expenseLine, tax_rate: 21, tax_id: 'A21', description: null }] },
    });
    const given = expenseDraftOf({ ...body, currency_exchange_rate: 1.2, reference: 'r', number: 'n' });
    expect([given.currency_exchange_rate, given.reference, given.number]).toEqual([1.2, 'r', 'n']);
    expect(draft.lines[0]).not.toBe(body.lines[0]);
  });

  it('answers the expense as booked: the number and id of its entry', () => {
    const entry = { id: 'e9', number: 'OD/2025/0009' } as records.LedgerEntry;
    const out = toExpenseOut({ ...body, number: 'asked' }, entry);
    expect(out).toEqual({
      ...{ ...body, id: 'e9', number: 'OD/2025/0009', reference: null, currency_exchange_rate: 1 },
      ...{ pdf: null, pdf_name: null, lines: [{ ...body.lines[0], description: null }] },
    });
  });
});

describe('financial entries', () => {
  type Item = fwire.FinancialEntryInput['items'][number];
  const entryIn = (items: Item[]): fwire.FinancialEntryInput => ({
    ...{ date: '2025-03-01', journal_id: 'bnk', currency: 'EUR', currency_exchange_rate: null, items },
  });
  const taxInfo = { tax_code: 'V21', tax_amount: 2.1 };
  const items: Item[] = [
    { account_type: 'customer_account', account: 'c1', amount: 121, automated_matching_number: 'VEN/1' },
    {
      account_type: 'general_account',
      account: '600000',
      amount: -12.1,
      tax_info: taxInfo,
      description: 'd',
    },
  ];

  it.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['550100', '550100'],
  ])('drafts an entry for the counterpart account %j as %j', (counterpart, expected) => {
    const draft = financial.draftOf(entryIn(items), counterpart);
    expect({ ...draft, items: [] }).toEqual({
      ...{ date: '2025-03-01', journal_id: 'bnk', currency: 'EUR', currency_exchange_rate: 1 },
      ...{
        reference: null,
        number: null,
        pdf: null,
        pdf_name: null,
        counterpart_account: expected,
        items: [],
      },
    });
    const tax = { ...taxInfo, vat_account: null, reversed_vat_account: null, description: null };
    const customer = { account_type: 'customer_account', account: 'c1', amount: 121, description: null };
    const general = { account_type: 'general_account', account: '600000', amount: -12.1, description: 'd' };
    expect(draft.items).toEqual([
      { ...customer, force_general_account: null, tax: null, automated_matching_number: 'VEN/1' },
      { ...general, force_general_account: null, tax, automated_matching_number: null },
    ]);
  });

  type OldItem = fwire.FinancialEntryOldInput['items'][number];
  const oldIn = (oldItems: OldItem[]): fwire.FinancialEntryOldInput => ({
    ...{ date: '2025-03-01', journal_id: 'bnk', currency: 'USD', currency_exchange_rate: 1.3 },
    items: oldItems,
  });

  it('drafts the deprecated shape: partner lines on their partner, forced on the account given', () => {
    const body = oldIn([
      { type: 'supplier_account', account_number: '440000', partner_id: 's1', amount: -50 },
      { type: 'general_account', account_number: '600000', partner_id: 'ignored', amount: 50 },
      { type: 'employee_account', account_number: '455000', partner_id: 'emp', amount: 1, description: 'x' },
    ]);
    const draft = financial.draftOfOld(body, '550000');
    const { counterpart_account, currency_exchange_rate, pdf_name } = draft;
    expect([counterpart_account, currency_exchange_rate, pdf_name]).toEqual(['550000', 1.3, null]);
    const shown = draft.items.map(
      (i) => `${i.account_type} ${i.account} ${i.force_general_account} ${i.description}`,
    );
    expect(shown).toEqual([
      ...['supplier_account s1 440000 null', 'general_account 600000 null null'],
      ...['employee_account emp 455000 x'],
    ]);
    expect(draft.items[0]).toMatchObject({ tax: null, automated_matching_number: null, amount: -50 });
  });

  it.each<[OldItem['type'], string | null | undefined]>([
    ['customer_account', undefined],
    ['supplier_account', null],
    ['employee_account', ''],
  ])('refuses a %s line without its partner (%j)', (type, partner_id) => {
    const general: OldItem = { type: 'general_account', account_number: '600000', amount: 1 };
    const body = oldIn([general, { type, account_number: '400000', partner_id, amount: -1 }]);
    expect(refusal(() => financial.draftOfOld(body, undefined))).toEqual({
      ...{ status: 400, message: 'Error while trying to perform your request', code: undefined },
      detail: `items[1]: a ${type} line needs its partner_id`,
    });
  });

  it('answers both shapes with the rate booked and the counterpart account on each item', () => {
    const booked = { id: 'e1', number: 'BNK/2025/0001', counterpartAccount: '550000', rate: 1 };
    const out = financial.toFinancialEntryOut({ ...entryIn(items), currency_exchange_rate: 7 }, booked);
    expect({ ...out, items: [] }).toEqual({
      ...{ id: 'e1', number: 'BNK/2025/0001', date: '2025-03-01', journal_id: 'bnk', currency: 'EUR' },
      ...{ currency_exchange_rate: 1, reference: null, items: [] },
    });
    expect(out.items.map((i) => [i.tax_info, i.automated_matching_number, i.counterpart_account])).toEqual([
      ...[
        [null, 'VEN/1', '550000'],
        [taxInfo, null, '550000'],
      ],
    ]);
    const line = { type: 'general_account' as const, account_number: '600000', amount: 5 };
    const old = financial.toFinancialEntryOldOut(oldIn([line]), { ...booked, rate: 1.3 });
    expect([old.currency_exchange_rate, old.reference]).toEqual([1.3, null]);
    const answered = { ...line, partner_id: null, description: null, counterpart_account: '550000' };
    expect(old.items).toEqual([answered]);
  });
});

describe('analytic accounts', () => {
  it('shows an account with its figures, none when it has none, the plan only in the multi-plan shape', () => {
    const account = analyticOf(ledgerOf(), 'SALES');
    const figures = new Map([[account.id, { debit: 10.5, credit: 0.25, balance: 10.25 }]]);
    const shown = analytics.toAnalyticAccount(account, figures);
    expect(shown).toEqual({
      ...{ id: account.id, active: true, code: 'SALES', name: 'Sales department', currency: 'EUR' },
      ...{ balance: 10.25, credit: 0.25, debit: 10.5, analytic_plan: account.plan_id },
    });
    const mono = analytics.toMonoAnalyticAccount(account, new Map());
    expect(mono).toEqual({ ...shown, balance: 0, credit: 0, debit: 0, analytic_plan: undefined });
    expect('analytic_plan' in mono).toBe(false);
  });

  it('lists the accounts plan by plan, in the order of the plans, then by code', () => {
    const ledger = ledgerOf();
    expect(analytics.listAnalyticAccounts(ledger).map((a) => a.code)).toEqual([
      ...['ADMIN', 'OPS', 'SALES', 'PRJ-099', 'PRJ-101', 'PRJ-102', 'PRJ-103'],
    ]);
    const [departments, projects] = Object.values(ledger.analytic_plans) as records.LedgerAnalyticPlan[];
    ledger.analytic_plans = Object.fromEntries([projects, departments].map((p) => [p?.id, p]));
    const copy = { ...analyticOf(ledger, 'OPS'), id: 'x1', code: 'AAA', plan_id: 'no-plan' };
    ledger.analytic_accounts.x1 = copy;
    expect(analytics.listAnalyticAccounts(ledger).map((a) => a.code)).toEqual([
      ...['AAA', 'PRJ-099', 'PRJ-101', 'PRJ-102', 'PRJ-103', 'ADMIN', 'OPS', 'SALES'],
    ]);
  });

  const NO_ACCOUNT = "The analytic account doesn't exist in the accounting system.";
  const NO_PLAN = "The analytic plan doesn't exist in the accounting system.";
  it('finds an account, in its plan or in none named', () => {
    const ledger = ledgerOf();
    const sales = analyticOf(ledger, 'SALES');
    expect(analytics.requireAnalyticAccount(ledger, sales.id)).toBe(sales);
    expect(analytics.requireAnalyticAccount(ledger, sales.id, sales.plan_id)).toBe(sales);
  });

  const sales = analyticOf(SEEDED as Ledger, 'SALES');
  const project = analyticOf(SEEDED as Ledger, 'PRJ-101');
  // biome-ignore format: one case a line
  it.each<[string, string, string | undefined, Refusal]>([
    ['an unknown account', 'nope', undefined, { status: 404, message: NO_ACCOUNT, detail: "No analytic account with the id 'nope' in the folder", code: 'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND' }],
    ['__proto__', '__proto__', undefined, { status: 404, message: NO_ACCOUNT, detail: "No analytic account with the id '__proto__' in the folder", code: 'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND' }],
    ['an id in capitals', sales.id.toUpperCase(), undefined, { status: 404, message: NO_ACCOUNT, detail: `No analytic account with the id '${sales.id.toUpperCase()}' in the folder`, code: 'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND' }],
    ['an account of another plan', sales.id, project.plan_id, { status: 404, message: NO_ACCOUNT, detail: `The analytic account '${sales.id}' is not in the plan '${project.plan_id}'`, code: 'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND' }],
    ['an unknown plan (before the account)', 'nope', 'plan', { status: 404, message: NO_PLAN, detail: "The analytic plan 'plan' does not exist", code: 'ERROR_ANALYTIC_PLAN_NOT_FOUND' }],
    ['the plan constructor', sales.id, 'constructor', { status: 404, message: NO_PLAN, detail: "The analytic plan 'constructor' does not exist", code: 'ERROR_ANALYTIC_PLAN_NOT_FOUND' }],
  ])('answers 404 for %s', (_label, id, plan, expected) => {
    expect(refusal(() => analytics.requireAnalyticAccount(ledgerOf(), id, plan))).toEqual(expected);
  });

  it.each<[boolean | null, boolean]>([
    [null, true],
    [true, true],
    [false, false],
  ])('drafts an account active %s as %s', (active, expected) => {
    const body = { code: 'C', name: 'N', currency: 'EUR', active };
    expect(analytics.draftOf(body)).toEqual({ code: 'C', name: 'N', currency: 'EUR', active: expected });
  });

  // biome-ignore format: one case a line
  it.each<[Parameters<typeof analytics.patchOf>[0], object]>([
    [{}, {}],
    [{ code: null, name: null, currency: null, active: null }, {}],
    [{ code: 'C2', name: '', currency: 'USD', active: false }, { code: 'C2', name: '', currency: 'USD', active: false }],
    [{ name: 'N2', active: true }, { name: 'N2', active: true }],
  ])('patches %j with %j', (body, expected) => {
    expect(analytics.patchOf(body)).toEqual(expected);
  });
});

describe('employees', () => {
  it('lists them by name, then id, and shows each as a copy', () => {
    const ledger = ledgerOf();
    const list = listEmployees(ledger);
    expect(list.map((e) => `${e.name} ${e.active}`)).toEqual([
      ...['Aaliyah Kerluke true', 'Aline Kohler true', 'Iseult Gleichner false', 'Lauriane Huet false'],
    ]);
    const first = list[0] as records.LedgerEmployee;
    ledger.employees['0'] = { ...first, id: '0' };
    expect(
      listEmployees(ledger)
        .slice(0, 2)
        .map((e) => e.id),
    ).toEqual(['0', first.id]);
    expect([toEmployeeItem(first), toEmployeeItem(first) === first]).toEqual([first, false]);
  });
});
