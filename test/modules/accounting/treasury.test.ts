import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiError, errors, serviceError } from '../../../src/lib/errors.js';
import {
  BankAccountItemOut,
  BankStatementItemOut,
  ServicePage_BankAccountItemOut_,
} from '../../../src/modules/accounting/api/bank.schemas.js';
import { ServicePage_EmployeeItem_ } from '../../../src/modules/accounting/api/employees.schemas.js';
import { FECItemOut } from '../../../src/modules/accounting/api/exports.schemas.js';
import {
  FinancialEntryItemOut,
  FinancialEntryItemOutOld,
} from '../../../src/modules/accounting/api/financial-entries.schemas.js';
import type { LedgerRecord } from '../../../src/modules/accounting/model/accounting.records.js';
import { call, everyOperationDocument, expectError, expectValidation } from '../../helpers.js';
import {
  type AccountingSandbox,
  accountingSandbox,
  all,
  closeBookYear,
  forConsumer,
  invoiceBody,
  line,
  type Reference,
  referenceOf,
  TINY_PDF,
} from './helpers.js';

/**
 * Money through the bank and cash accounts (bank accounts, bank statements, financial entries in the
 * current and the deprecated shape), employees, the FEC export, and what each integration covers.
 */

let a: AccountingSandbox;
let ref: Reference;
let ledger: LedgerRecord;

beforeEach(async () => {
  a = await accountingSandbox();
  ref = await referenceOf(a);
  const folder = (await a.get('/folders')).body[0].id;
  ledger = a.app.services.store.world.accounting_ledgers[`${a.consumerId}:${folder}`] as LedgerRecord;
});

const failure = errors.accountingFailure('');

const balanceOf = async (account: string, s: AccountingSandbox = a, folder = '') =>
  (
    await s.post(`/chart-of-accounts/balance${folder ? `?folder_id=${folder}` : ''}`, {
      accounts: [account],
      end: '202612',
    })
  ).body.items[0].balance as number;

/** The next numbers the journal gives in 2026, as GET journals shows them. */
async function nextNumbers(code: string, count: number): Promise<string[]> {
  const journal = (await all(a, '/journals')).find((j) => j.code === code);
  const next = journal.next_document_numbers.find(
    (n: { bookyear_name: string }) => n.bookyear_name === '2026',
  );
  const first = Number(next.next_document_number.split('/')[2]);
  return Array.from({ length: count }, (_, i) => `${code}/2026/${String(first + i).padStart(4, '0')}`);
}

const unchanged = async (request: () => Promise<unknown>) => {
  const before = JSON.stringify(a.app.services.store.world);
  await request();
  expect(JSON.stringify(a.app.services.store.world)).toBe(before);
};

/** A posted customer invoice of `untaxed` + 21 % VAT for a client. */
async function openInvoice(client: string, untaxed: number, number: string) {
  const l = line(ref, { quantity: 1, unit_price: untaxed, vat: 'V21' });
  const res = await a.post(
    '/invoices',
    invoiceBody(ref, 'customer_invoice', [l], { partner_id: client, invoice_number: number }),
  );
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; total: number; invoice_number: string };
}

describe('accounting bank accounts', () => {
  it('lists the bank journals (not the cash one) with their ledger and suspense accounts', async () => {
    const page = ServicePage_BankAccountItemOut_.parse((await a.get('/bank-accounts')).body);
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id: ref.journals.BNK?.id,
      journal_id: ref.journals.BNK?.id,
      code: 'BNK',
      currency: 'EUR',
      ledger_account: '550000',
      unallocated_account: '499000',
      iban: expect.stringMatching(/^BE\d{14}$/),
    });
    expectValidation(await a.get('/bank-accounts?size=101'), ['query', 'size']);
  });

  it('opens a bank account: a bank journal on the next free 55xx00 account, usable at once', async () => {
    const res = await a.post('/bank-accounts', {
      code: 'KBC2',
      currency: 'EUR',
      account_name: 'KBC savings',
      iban: 'be68 5390 0754 7034',
      bank_name: 'KBC',
    });
    expect(res.status, res.text).toBe(200);
    const account = BankAccountItemOut.parse(res.body);
    expect(account).toMatchObject({
      code: 'KBC2',
      iban: 'BE68539007547034',
      ledger_account: '550200',
      unallocated_account: '499000',
      account_name: 'KBC savings',
    });
    expect((await all(a, '/bank-accounts')).map((x) => x.code)).toEqual(['BNK', 'KBC2']);
    expect((await all(a, '/journals')).find((j) => j.id === account.id)).toMatchObject({
      journal_type: 'financial_operation',
      counterpart_account: '550200',
    });
    expect((await all(a, '/chart-of-accounts?classes=55')).map((x) => x.number)).toContain('550200');
    const second = await a.post('/bank-accounts', {
      code: 'ING',
      currency: 'USD',
      account_number: '123-456',
      bank_name: 'ING',
    });
    expect(second.body).toMatchObject({
      ledger_account: '550300',
      account_number: '123-456',
      currency: 'USD',
    });
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'a code already used by a journal',
      { code: 'ven', currency: 'EUR', iban: 'BE71096123456769', bank_name: 'X' },
      /already exists with the code 'ven'/,
    ],
    [
      'neither account number nor IBAN',
      { code: 'X1', currency: 'EUR', bank_name: 'X' },
      /account_number or the iban/,
    ],
    [
      'an IBAN with wrong check digits',
      { code: 'X1', currency: 'EUR', iban: 'BE68539007547035', bank_name: 'X' },
      /fails its check digits/,
    ],
    [
      'something that is not an IBAN',
      { code: 'X1', currency: 'EUR', iban: 'hello', bank_name: 'X' },
      /is not well formed/,
    ],
    [
      'a currency that is not ISO 4217',
      { code: 'X1', currency: 'Euro', iban: 'BE71096123456769', bank_name: 'X' },
      /not an ISO 4217 code/,
    ],
  ];
  const documentedAccount: Record<string, ApiError> = {
    'a code already used by a journal': serviceError('bankCodeAlreadyUsed'),
    'a currency that is not ISO 4217': serviceError('currencyNotFound'),
  };
  it.each(cases)('refuses %s, and writes nothing', async (label, body, detail) => {
    await unchanged(async () => {
      const res = await a.post('/bank-accounts', body);
      const error = documentedAccount[label] ?? failure;
      expectError(res, error);
      expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
      expect(res.body.detail).toMatch(detail);
    });
  });

  it('opens a bank account with a blank bank name, as the software does', async () => {
    const res = await a.post('/bank-accounts', {
      code: 'X1',
      currency: 'EUR',
      iban: 'BE71096123456769',
      bank_name: ' ',
    });
    expect(res.status, res.text).toBe(200);
  });

  it('refuses an IBAN that another bank account has', async () => {
    const iban = (await a.get('/bank-accounts')).body.items[0].iban;
    const res = await a.post('/bank-accounts', { code: 'DUP', currency: 'EUR', iban, bank_name: 'X' });
    expectError(res, failure);
    expect(res.body.detail).toMatch(/already exists with the IBAN/);
    expectValidation(await a.post('/bank-accounts', { code: 'X', currency: 'EUR' }), ['body', 'bank_name']);
  });
});

describe('accounting bank transactions (statements)', () => {
  const statement = (items: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
    bank_statement_date: '2026-01-15',
    bank_account_id: ref.journals.BNK?.id,
    currency: 'EUR',
    external_bank_statement_id: '2026001',
    items,
    ...extra,
  });

  it('books one entry per transaction: counterparts, fees, their VAT and the suspense account', async () => {
    const client = ref.clients[0]?.id as string;
    const supplier = ref.suppliers[0]?.id as string;
    const opening = await balanceOf('550000');
    const numbers = await nextNumbers('BNK', 4);
    const before = {
      suspense: await balanceOf('499000'),
      charges: await balanceOf('657000'),
      vat: await balanceOf('411000'),
    };
    const res = await a.post(
      '/bank-transactions',
      statement(
        [
          {
            amount: 121,
            description: 'Client pays',
            external_transaction_id: 'T1',
            counterpart: { counterpart_type: 'customer', id: client },
          },
          {
            amount: -51.21,
            fee_amount: 1,
            tax_amount: 0.21,
            description: 'Supplier paid',
            counterpart: { counterpart_type: 'supplier', id: supplier },
          },
          { amount: 10, description: 'Unknown transfer' },
          { amount: -3, general_ledger_account: '657000', description: 'Account fee' },
        ],
        { opening_balance: opening, pdf: TINY_PDF },
      ),
    );
    expect(res.status, res.text).toBe(200);
    const out = BankStatementItemOut.parse(res.body);
    expect(out).toMatchObject({
      external_bank_statement_id: '2026001',
      bank_account_id: ref.journals.BNK?.id,
    });
    expect(out.items.map((t) => t.fee_amount)).toEqual([0, 1, 0, 0]);
    const entries = await Promise.all(
      out.items.map(async (t) => (await a.get(`/journal/entries/${t.id}`)).body),
    );
    expect(entries.map((e) => e.name)).toEqual(numbers);
    expect(entries.map((e) => e.reference)).toEqual(['T1', '2026001', '2026001', '2026001']);
    expect(entries[0].attachments_info.status).toBe('yes');
    expect(
      entries[1].items.map((l: { account_number: string; debit: number; credit: number }) => [
        l.account_number,
        l.debit,
        l.credit,
      ]),
    ).toEqual([
      ['550000', 0, 51.21],
      ['657000', 1, 0],
      ['411000', 0.21, 0],
      ['440000', 50, 0],
    ]);
    expect(await balanceOf('550000')).toBeCloseTo(opening + 121 - 51.21 + 10 - 3, 2);
    expect(await balanceOf('499000')).toBeCloseTo(before.suspense - 10, 2);
    expect(await balanceOf('657000')).toBeCloseTo(before.charges + 4, 2);
    expect(await balanceOf('411000')).toBeCloseTo(before.vat + 0.21, 2);
    // The receipt is an open item of the client until it is matched with an invoice.
    const invoice = await openInvoice(client, 100, 'BT-INV-1');
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    const receipt = open.find((o) => o.number === numbers[0]);
    expect(receipt).toMatchObject({ open_amount: -121, partner_id: client });
    const matching = await a.post('/matching', { entries: [invoice.id, receipt.id], partner_id: client });
    expect(matching.body.balance).toBe(0);
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('paid');
  });

  it('does not import a statement or a transaction twice, and keeps the opening balance given', async () => {
    const first = await a.post(
      '/bank-transactions',
      statement([{ amount: 5, external_transaction_id: 'T9' }]),
    );
    expect(first.status, first.text).toBe(200);
    const again = await a.post('/bank-transactions', statement([{ amount: 5 }]));
    expectError(again, failure);
    expect(again.body.detail).toMatch(/statement '2026001' was already imported/);
    const transaction = await a.post(
      '/bank-transactions',
      statement([{ amount: 5, external_transaction_id: 'T9' }], { external_bank_statement_id: '2026002' }),
    );
    expectError(transaction, failure);
    expect(transaction.body.detail).toMatch(/transaction 'T9' was already imported/);
    const balance = await balanceOf('550000');
    const other = await a.post(
      '/bank-transactions',
      statement([{ amount: 5 }], { external_bank_statement_id: '2026003', opening_balance: balance + 1 }),
    );
    expect(other.status, other.text).toBe(200);
  });

  it('takes statements on a bank account opened through the API', async () => {
    const account = (
      await a.post('/bank-accounts', {
        code: 'USD1',
        currency: 'USD',
        iban: 'NL91ABNA0417164300',
        bank_name: 'ABN',
      })
    ).body;
    const res = await a.post(
      '/bank-transactions',
      statement([{ amount: 100, currency_exchange_rate: 0.9, general_ledger_account: '700000' }], {
        bank_account_id: account.id,
        currency: 'USD',
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(await balanceOf(account.ledger_account)).toBe(90);
  });

  const cases: [string, () => unknown, RegExp][] = [
    [
      'an unknown bank account',
      () => statement([{ amount: 1 }], { bank_account_id: 'nope' }),
      /bank account 'nope' does not exist/,
    ],
    [
      'the cash journal',
      () => statement([{ amount: 1 }], { bank_account_id: ref.journals.CSH?.id }),
      /bank account '.*' does not exist/,
    ],
    [
      'another currency than the account',
      () => statement([{ amount: 1 }], { currency: 'USD' }),
      /kept in EUR, not USD/,
    ],
    ['no transaction', () => statement([]), /needs at least one transaction/],
    ['a negative fee', () => statement([{ amount: -5, fee_amount: -1 }]), /cannot be negative/],
    [
      'a counterpart id without its type',
      () => statement([{ amount: 5, counterpart: { id: ref.clients[0]?.id } }]),
      /counterpart_type is required/,
    ],
    [
      'an unknown client',
      () => statement([{ amount: 5, counterpart: { counterpart_type: 'customer', id: 'nope' } }]),
      /partner 'nope' does not exist/,
    ],
    [
      'an unknown employee',
      () => statement([{ amount: 5, counterpart: { counterpart_type: 'employee', id: 'nope' } }]),
      /employee 'nope' does not exist/,
    ],
    [
      'a receivable account without its client',
      () => statement([{ amount: 5, general_ledger_account: '400000' }]),
      /give the counterpart's id/,
    ],
    [
      'an unknown account',
      () => statement([{ amount: 5, general_ledger_account: '999999' }]),
      /'999999' does not exist/,
    ],
    [
      'a closed book year',
      () => statement([{ amount: 5 }], { bank_statement_date: '2024-12-31' }),
      /closed book year 2024/,
    ],
    ['a PDF that is not one', () => statement([{ amount: 5 }], { pdf: 'aGVsbG8=' }), /not a PDF/],
    [
      'an invalid second transaction (nothing of the first is kept)',
      () => statement([{ amount: 5 }, { amount: -5, fee_amount: -1 }]),
      /items\[1\]: fee_amount and tax_amount cannot be negative/,
    ],
  ];
  const documentedStatement: Record<string, ApiError> = {
    'an unknown bank account': serviceError('journalNotFound'),
    'the cash journal': serviceError('journalNotFound'),
    'an unknown client': serviceError('partnerNotFound'),
    'an unknown employee': serviceError('employeeNotFound'),
    'a receivable account without its client': serviceError('accountNumberNotGoodScope'),
    'an unknown account': serviceError('accountNumberNotFound'),
    'a PDF that is not one': serviceError('invalidBase64'),
  };
  it.each(cases)('refuses %s, and writes nothing', async (label, body, detail) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    await unchanged(async () => {
      const res = await a.post('/bank-transactions', body());
      const error = documentedStatement[label] ?? failure;
      expectError(res, error);
      expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
      expect(res.body.detail).toMatch(detail);
    });
  });

  it('imports what the software takes: a zero amount, VAT without a fee, a blank statement id', async () => {
    for (const [i, body] of [
      statement([{ amount: 0 }], { external_bank_statement_id: '2026101' }),
      statement([{ amount: -5, tax_amount: 1 }], { external_bank_statement_id: '2026102' }),
      statement([{ amount: 5 }], { external_bank_statement_id: ' ' }),
    ].entries()) {
      const res = await a.post('/bank-transactions', body);
      expect(res.status, `${i}: ${res.text}`).toBe(200);
    }
  });

  it('refuses a transaction without counterpart on a bank account without suspense account', async () => {
    const journal = await a.post('/journal', {
      code: 'SAV',
      name: 'Savings',
      journal_type: 'bank',
      counterpart_account: '550100',
    });
    expect(journal.status, journal.text).toBe(200);
    const res = await a.post(
      '/bank-transactions',
      statement([{ amount: 5 }], { bank_account_id: journal.body.id }),
    );
    expectError(res, failure);
    expect(res.body.detail).toMatch(/no suspense account/);
  });

  it('validates the body (422) and replays with the same x-chift-client-requestid', async () => {
    expectValidation(await a.post('/bank-transactions', statement([{}])), ['body', 'items', 0, 'amount']);
    expectValidation(
      await a.post(
        '/bank-transactions',
        statement([{ amount: 1, counterpart: { counterpart_type: 'partner' } }]),
      ),
      // The counterpart is nullable: its own field is refused at its place.
      ['body', 'items', 0, 'counterpart', 'counterpart_type'],
      'enum',
    );
    const headers = { 'x-chift-client-requestid': 'statement-1' };
    const first = await a.post('/bank-transactions', statement([{ amount: 7 }]), { headers });
    const again = await a.post('/bank-transactions', statement([{ amount: 7 }]), { headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('accounting financial entries', () => {
  type Item = Record<string, unknown>;
  const entry = (items: Item[], extra: Item = {}) => ({
    date: '2026-01-15',
    journal_id: ref.journals.BNK?.id,
    currency: 'EUR',
    items,
    ...extra,
  });
  const client = (id: string | undefined, amount: number, extra: Item = {}): Item => ({
    account_type: 'customer_account',
    account: id,
    amount,
    ...extra,
  });
  const general = (account: string, amount: number, extra: Item = {}): Item => ({
    account_type: 'general_account',
    account,
    amount,
    ...extra,
  });

  it('books a receipt against the bank account, and settles the invoice its matching number names', async () => {
    const partner = ref.clients[3]?.id as string;
    const invoice = await openInvoice(partner, 200, 'FE-INV-1');
    const bank = await balanceOf('550000');
    const [number] = await nextNumbers('BNK', 1);
    const res = await a.post(
      '/financial-entries',
      entry([client(partner, 242, { automated_matching_number: 'FE-INV-1', description: 'Paid' })], {
        reference: 'FE-INV-1',
      }),
    );
    expect(res.status, res.text).toBe(200);
    const out = FinancialEntryItemOut.parse(res.body);
    expect(out).toMatchObject({ number, reference: 'FE-INV-1' });
    expect(out.items[0]).toMatchObject({ account: partner, amount: 242, counterpart_account: '550000' });
    expect(await balanceOf('550000')).toBeCloseTo(bank + 242, 2);
    expect((await a.get(`/invoices/${invoice.id}`)).body.status).toBe('paid');
    const payments = (await a.get(`/invoices/id/${invoice.id}/payments`)).body.items;
    expect(payments.map((p: { dedicated_amount: number }) => p.dedicated_amount)).toEqual([242]);
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    expect(open.some((o) => o.original_document?.id === invoice.id || o.number === out.number)).toBe(false);
  });

  it('settles part of an invoice, and leaves the rest open', async () => {
    const partner = ref.clients[4]?.id as string;
    const invoice = await openInvoice(partner, 100, 'FE-INV-2');
    const res = await a.post(
      '/financial-entries',
      entry([client(partner, 21, { automated_matching_number: 'FE-INV-2' })]),
    );
    expect(res.status, res.text).toBe(200);
    const after = (await a.get(`/invoices/${invoice.id}`)).body;
    expect(after.status).toBe('posted');
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    expect(open.find((o) => o.original_document?.id === invoice.id)).toMatchObject({ open_amount: 100 });
  });

  it('books the VAT of a general line, payments (negative amounts), cash and a forced bank account', async () => {
    const before = {
      sales: await balanceOf('700000'),
      vat: await balanceOf('451000'),
      cash: await balanceOf('570000'),
      savings: await balanceOf('550100'),
    };
    const sale = await a.post(
      '/financial-entries',
      entry([general('700000', 100, { tax_info: { tax_code: ref.vat.V21?.id, tax_amount: 21 } })]),
    );
    expect(sale.status, sale.text).toBe(200);
    expect(await balanceOf('700000')).toBeCloseTo(before.sales - 100, 2);
    expect(await balanceOf('451000')).toBeCloseTo(before.vat - 21, 2);
    const cash = await a.post(
      '/financial-entries',
      entry([general('612000', -30)], { journal_id: ref.journals.CSH?.id, number: 'CSH-1' }),
    );
    expect(cash.body).toMatchObject({ number: 'CSH-1' });
    expect(cash.body.items[0].counterpart_account).toBe('570000');
    expect(await balanceOf('570000')).toBeCloseTo(before.cash - 30, 2);
    const forced = await call(
      a.app,
      'POST',
      `${a.base}/financial-entries?financial_counterpart_account=550100`,
      {
        token: a.token,
        body: entry([general('580000', 40)]),
      },
    );
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.items[0].counterpart_account).toBe('550100');
    expect(await balanceOf('550100')).toBeCloseTo(before.savings + 40, 2);
    const bank = await balanceOf('550000');
    const deductible = await balanceOf('411000');
    const payable = await balanceOf('451000');
    const purchase = await a.post(
      '/financial-entries',
      entry([
        general('612000', -100, { tax_info: { tax_code: ref.vat.A21?.id, tax_amount: 21 } }),
        general('604000', -50, { tax_info: { tax_code: ref.vat.AIC21?.id, tax_amount: 10.5 } }),
      ]),
    );
    expect(purchase.status, purchase.text).toBe(200);
    // Purchase VAT is deductible; reverse-charge VAT is both due and deductible, and not paid.
    expect(await balanceOf('550000')).toBeCloseTo(bank - 121 - 50, 2);
    expect(await balanceOf('411000')).toBeCloseTo(deductible + 21 + 10.5, 2);
    expect(await balanceOf('451000')).toBeCloseTo(payable - 10.5, 2);
    const employee = Object.values(ledger.employees)[0]?.id;
    const salary = await a.post(
      '/financial-entries',
      entry([{ account_type: 'employee_account', account: employee, amount: -500 }]),
    );
    expect(salary.status, salary.text).toBe(200);
  });

  const cases: [string, () => unknown, RegExp][] = [
    [
      'an unknown journal',
      () => entry([general('612000', -1)], { journal_id: 'nope' }),
      /journal 'nope' does not exist/,
    ],
    [
      'a journal that is not a bank or cash journal',
      () => entry([general('612000', -1)], { journal_id: ref.journals.VEN?.id }),
      /cannot take a financial entry/,
    ],
    [
      'VAT on a client line',
      () =>
        entry([client(ref.clients[0]?.id, 1, { tax_info: { tax_code: ref.vat.V21?.id, tax_amount: 0.21 } })]),
      /tax_info is only for general_account lines/,
    ],
    [
      'a negative VAT amount',
      () => entry([general('700000', 1, { tax_info: { tax_code: ref.vat.V21?.id, tax_amount: -1 } })]),
      /cannot be negative/,
    ],
    [
      'an unknown VAT code',
      () => entry([general('700000', 1, { tax_info: { tax_code: 'nope', tax_amount: 1 } })]),
      /VAT code 'nope' does not exist/,
    ],
    ['an unknown client', () => entry([client('nope', 1)]), /partner 'nope' does not exist/],
    ['a general line on a receivable account', () => entry([general('400000', 1)]), /is a partner account/],
    [
      'another currency than the bank journal',
      () => entry([general('700000', 1)], { currency: 'USD' }),
      /only takes EUR, not USD/,
    ],
    [
      'a closed book year',
      () => entry([general('700000', 1)], { date: '2024-05-05' }),
      /closed book year 2024/,
    ],
    [
      'a number already used',
      () => entry([general('700000', 1)], { number: 'BNK/2025/0001' }),
      /already used/,
    ],
    ['a PDF that is not one', () => entry([general('700000', 1)], { pdf: 'aGVsbG8=' }), /not a PDF/],
  ];
  const documentedEntry: Record<string, ApiError> = {
    'an unknown journal': serviceError('journalNotFound'),
    'a journal that is not a bank or cash journal': serviceError('journalNotGoodScope'),
    'an unknown VAT code': serviceError('taxCodeNotFound'),
    'an unknown client': serviceError('partnerNotFound'),
    'a general line on a receivable account': serviceError('accountNumberNotGoodScope'),
    'a PDF that is not one': serviceError('invalidBase64'),
  };
  it.each(cases)('refuses %s, and writes nothing', async (label, body, detail) => {
    // No seeded year is closed: the cases dated in 2024 need it closed.
    await closeBookYear(a, '2024');
    await unchanged(async () => {
      const res = await a.post('/financial-entries', body());
      const error = documentedEntry[label] ?? failure;
      expectError(res, error);
      expect(res.body.error_code ?? null).toBe(error.errorCode ?? null);
      expect(res.body.detail).toMatch(detail);
    });
  });

  it("refuses no item as the service's schema does (minItems 1): a validation error", async () => {
    await unchanged(async () => {
      expectValidation(await a.post('/financial-entries', entry([])), ['body', 'items'], 'too_short');
    });
  });

  it('books what the software takes: a zero amount, matching numbers that match nothing', async () => {
    for (const body of [
      entry([general('612000', 0)], { number: 'FE-Z-1' }),
      entry([general('700000', 1, { automated_matching_number: 'X' })], { number: 'FE-Z-2' }),
      entry([client(ref.clients[0]?.id, 1, { automated_matching_number: 'NOPE-1' })], { number: 'FE-Z-3' }),
    ]) {
      const res = await a.post('/financial-entries', body);
      expect(res.status, res.text).toBe(200);
    }
    // The client's receipt stays open: nothing numbered NOPE-1 was there to match.
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    expect(open.find((o) => o.number === 'FE-Z-3')).toMatchObject({ open_amount: -1 });
  });

  it('refuses a counterpart account that is not a bank or cash account', async () => {
    const res = await call(
      a.app,
      'POST',
      `${a.base}/financial-entries?financial_counterpart_account=612000`,
      {
        token: a.token,
        body: entry([general('700000', 1)]),
      },
    );
    expectError(res, serviceError('accountNumberNotGoodScope'));
    expect(res.body.error_code).toBe('ERROR_ACCOUNT_NUMBER_NOT_GOOD_SCOPE');
    expect(res.body.detail).toMatch(/'612000' is not a bank or cash account/);
    const journal = await a.post('/journal', {
      code: 'OPS',
      name: 'Ops',
      journal_type: 'miscellaneous_operation',
    });
    expectError(
      await a.post('/financial-entries', entry([general('700000', 1)], { journal_id: journal.body.id })),
      serviceError('journalNotGoodScope'),
    );
  });

  it('takes the deprecated shape: partner lines name their account and partner', async () => {
    const partner = ref.clients[5]?.id as string;
    const res = await a.post('/financial-entry', {
      date: '2026-01-15',
      journal_id: ref.journals.BNK?.id,
      currency: 'EUR',
      items: [
        { type: 'customer_account', account_number: '400000', partner_id: partner, amount: 30 },
        { type: 'general_account', account_number: '657000', amount: -2 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const out = FinancialEntryItemOutOld.parse(res.body);
    expect(out.items.map((i) => i.counterpart_account)).toEqual(['550000', '550000']);
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    expect(open.find((o) => o.number === out.number)).toMatchObject({
      partner_id: partner,
      open_amount: -30,
    });
    const missing = await a.post('/financial-entry', {
      date: '2026-01-15',
      journal_id: ref.journals.BNK?.id,
      currency: 'EUR',
      items: [{ type: 'supplier_account', account_number: '440000', amount: 3 }],
    });
    expectError(missing, failure);
    expect(missing.body.detail).toMatch(/needs its partner_id/);
    const wrongSide = await a.post('/financial-entry', {
      date: '2026-01-15',
      journal_id: ref.journals.BNK?.id,
      currency: 'EUR',
      items: [{ type: 'customer_account', account_number: '440000', partner_id: partner, amount: 3 }],
    });
    expectError(wrongSide, serviceError('accountNumberNotGoodScope'));
    expect(wrongSide.body.detail).toMatch(/'440000' is not a receivable account/);
    expectValidation(await a.post('/financial-entry', { date: '2026-01-15', currency: 'EUR', items: [] }), [
      'body',
      'journal_id',
    ]);
  });

  it('replays with the same x-chift-client-requestid', async () => {
    const headers = { 'x-chift-client-requestid': 'financial-1' };
    const first = await a.post('/financial-entries', entry([general('700000', 3)]), { headers });
    const again = await a.post('/financial-entries', entry([general('700000', 3)]), { headers });
    expect(again.body).toEqual(first.body);
    expect(
      await all(a, '/journal/entries?unposted_allowed=false&updated_after=2026-01-15T00:00:00Z'),
    ).toHaveLength(1);
  });
});

describe('accounting employees and the FEC export (an integration that covers them)', () => {
  let multi: AccountingSandbox;
  let folder: string;
  beforeEach(async () => {
    multi = forConsumer(a, a.token, a.ids.multiFolderConsumerId);
    folder = (await multi.get('/folders')).body[1].id;
  });

  it('lists the employees by name, active or not, with their account', async () => {
    const page = ServicePage_EmployeeItem_.parse((await multi.get(`/employees?folder_id=${folder}`)).body);
    expect(page.total).toBe(4);
    const names = page.items.map((e) => e.name);
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));
    expect(page.items.filter((e) => e.active)).toHaveLength(2);
    expect(
      page.items.every((e) => e.account_number === '455000' && /^EMP-\d{3}$/.test(e.reference ?? '')),
    ).toBe(true);
    expect((await multi.get(`/employees?folder_id=${folder}&size=3&page=2`)).body.items).toHaveLength(1);
    expectValidation(await multi.get(`/employees?folder_id=${folder}&size=0`), ['query', 'size']);
    expectError(await multi.get('/employees'), failure);
  });

  it('exports one row per line of the posted entries of the period, balanced, in order', async () => {
    const rows = (await multi.get(`/export-fec?folder_id=${folder}&date_from=2025-01-01&date_to=2025-12-31`))
      .body as unknown[];
    const parsed = rows.map((r) => FECItemOut.parse(r));
    expect(parsed.length).toBeGreaterThan(50);
    expect(parsed.every((r) => r.EcritureDate >= '2025-01-01' && r.EcritureDate <= '2025-12-31')).toBe(true);
    const dates = parsed.map((r) => r.EcritureDate);
    expect(dates).toEqual([...dates].sort());
    const debit = parsed.reduce((t, r) => t + Math.round(r.Debit * 100), 0);
    const credit = parsed.reduce((t, r) => t + Math.round(r.Credit * 100), 0);
    expect(debit).toBe(credit);
    const sale = parsed.find((r) => r.JournalCode === 'VEN' && r.CompteNum === '400000');
    expect(sale?.CompAuxNum).not.toBe('');
    expect(sale?.PieceRef).toBe(sale?.EcritureNum);
    expect(parsed.some((r) => r.EcritureLet !== '' && r.DateLet !== null)).toBe(true);
    expect(parsed.some((r) => r.CompteNum === '455000' && r.CompAuxLib !== '')).toBe(true);
  });

  it('exports what is booked through the API, posted only, with its foreign currency', async () => {
    const ref2 = await referenceOf(multi, folder);
    const od = ref2.journals.OD?.id;
    const items = [
      { account_type: 'general_account', account: '612000', debit: 10, credit: 0 },
      { account_type: 'general_account', account: '550000', debit: 0, credit: 10 },
    ];
    const post = (number: string, extra: Record<string, unknown>) =>
      multi.post(`/journal-entries?folder_id=${folder}`, {
        journal_id: od,
        number,
        currency: 'EUR',
        date: '2026-02-02',
        items,
        ...extra,
      });
    expect((await post('FEC-1', { currency: 'USD', currency_exchange_rate: 0.5 })).status).toBe(200);
    expect((await post('FEC-2', { posted: false })).status).toBe(200);
    const rows = (await multi.get(`/export-fec?folder_id=${folder}&date_from=2026-02-01&date_to=2026-02-28`))
      .body;
    expect(rows.map((r: { EcritureNum: string }) => r.EcritureNum)).toEqual(['FEC-1', 'FEC-1']);
    expect(rows[0]).toMatchObject({
      CompteNum: '612000',
      Debit: 5,
      Credit: 0,
      Montantdevise: 10,
      Idevise: 'USD',
      JournalCode: 'OD',
    });
  });

  it('needs both dates; a date_to before date_from exports nothing', async () => {
    expectValidation(await multi.get(`/export-fec?folder_id=${folder}&date_from=2025-01-01`), [
      'query',
      'date_to',
    ]);
    expectValidation(
      await multi.get(`/export-fec?folder_id=${folder}&date_from=2025-13-01&date_to=2025-12-31`),
      ['query', 'date_from'],
    );
    const reversed = await multi.get(
      `/export-fec?folder_id=${folder}&date_from=2025-12-31&date_to=2025-01-01`,
    );
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body).toEqual([]);
  });
});

describe('accounting: the folder rule on every operation', () => {
  const reads = [
    '/analytic-accounts',
    '/analytic-accounts/multi-analytic-plans',
    '/analytic-accounts/x',
    '/miscellaneous-operation',
    '/miscellaneous-operation/x',
    '/attachments?type=invoice&document_id=x',
    '/bank-accounts',
    '/employees',
    '/export-fec?date_from=2025-01-01&date_to=2025-01-31',
  ];
  const writes: [string, unknown][] = [
    ['/analytic-accounts', { code: 'X', name: 'X', currency: 'EUR' }],
    ['/analytic-accounts/multi-analytic-plans/x', { code: 'X', name: 'X', currency: 'EUR' }],
    ['/miscellaneous-operation', { currency: 'EUR', operation_date: '2026-01-15', lines: [] }],
    ['/invoices/pdf/x', { base64_string: 'x' }],
    ['/bank-accounts', { code: 'X', currency: 'EUR', bank_name: 'X' }],
    [
      '/bank-transactions',
      {
        bank_statement_date: '2026-01-15',
        bank_account_id: 'x',
        currency: 'EUR',
        external_bank_statement_id: '1',
        items: [],
      },
    ],
    [
      '/expenses',
      {
        employee_id: 'x',
        total: 1,
        untaxed_amount: 1,
        tax_amount: 0,
        currency: 'EUR',
        date: '2026-01-15',
        // One line: the service's schema takes at least one (minItems 1), before any other check.
        lines: [
          { total: 1, untaxed_amount: 1, tax_amount: 0, account_number: '6', tax_rate: 0, tax_id: 'x' },
        ],
      },
    ],
    ['/journal/entries', { journal_id: 'x', name: 'x', date: '2026-01-15', items: [] }],
  ];

  it('requires folder_id on an integration with several folders, and an existing one', async () => {
    const multi = forConsumer(a, a.token, a.ids.multiFolderConsumerId);
    for (const path of reads) {
      const res = await multi.get(path);
      expectError(res, failure);
      expect(res.body.detail, path).toMatch(/folder_id is required/);
      const sep = path.includes('?') ? '&' : '?';
      expect((await multi.get(`${path}${sep}folder_id=nope`)).body.detail).toMatch(
        /folder 'nope' does not exist/,
      );
    }
    for (const [path, body] of writes) {
      const res = await multi.post(path, body);
      expectError(res, failure);
      expect(res.body.detail, path).toMatch(/folder_id is required/);
    }
  });
});

describe('accounting: what each integration covers (catalogue coverage)', () => {
  it('the default consumer (Odoo, 1000) covers every operation; the limits are on the coverage-limits consumer', async () => {
    const fec = await a.get('/export-fec?date_from=2025-01-01&date_to=2025-01-31');
    expect(fec.status).toBe(200);
    const employees = await a.get('/employees');
    expect(employees.status).toBe(200);
    expect(employees.body.items.length).toBeGreaterThan(0);

    const limited = forConsumer(a, a.token, a.ids.coverageLimitsConsumerId);
    const limitedFec = await limited.get('/export-fec?date_from=2025-01-01&date_to=2025-01-31');
    expectError(limitedFec, failure);
    expect(limitedFec.body.detail).toMatch(
      /Sandbox Books Desktop does not support accounting_export_fec \(NOT_SUPPORTED\)/,
    );
    const limitedEmployees = await limited.get('/employees');
    expectError(limitedEmployees, failure);
    expect(limitedEmployees.body.detail).toMatch(
      /does not support accounting_get_employees \(UNDER_ANALYSIS\)/,
    );
  });

  it('Sandbox Books Multi-Folder (90101) has not implemented financial entries, in either shape', async () => {
    const multi = forConsumer(a, a.token, a.ids.multiFolderConsumerId);
    const folder = (await multi.get('/folders')).body[0].id;
    const head = { date: '2026-01-15', journal_id: 'x', currency: 'EUR' };
    // One item in the current shape: its schema takes at least one (minItems 1), before any other check.
    const bodies: [string, unknown][] = [
      [
        '/financial-entries',
        { ...head, items: [{ account_type: 'general_account', account: '6', amount: 1 }] },
      ],
      ['/financial-entry', { ...head, items: [] }],
    ];
    for (const [path, body] of bodies) {
      const res = await multi.post(`${path}?folder_id=${folder}`, body);
      expectError(res, failure);
      expect(res.body.detail).toMatch(
        /does not support accounting_create_financial_entries \(NOT_IMPLEMENTED\)/,
      );
    }
  });

  it('Sandbox Books Desktop (90102) lists no bank accounts and imports no bank transactions', async () => {
    const limited = forConsumer(a, a.token, a.ids.coverageLimitsConsumerId);
    const list = await limited.get('/bank-accounts');
    expectError(list, failure);
    expect(list.body.detail).toMatch(/does not support accounting_get_bank_accounts \(NOT_SUPPORTED\)/);
    const statement = await limited.post('/bank-transactions', {
      bank_statement_date: '2026-01-15',
      bank_account_id: 'x',
      currency: 'EUR',
      external_bank_statement_id: '1',
      items: [],
    });
    expectError(statement, failure);
    expect(statement.body.detail).toMatch(
      /does not support accounting_create_bank_transactions \(NOT_SUPPORTED\)/,
    );
    // It implements the rest: the clients of its single folder.
    expect((await limited.get('/clients')).status).toBe(200);
  });
});

describe('accounting: the served document', () => {
  it('marks the deprecated operations deprecated, without MCP scopes', async () => {
    const doc = await everyOperationDocument(a.app);
    const base = '/consumers/{consumer_id}/accounting';
    const journal = doc.paths[`${base}/journal/entries`].post;
    const financial = doc.paths[`${base}/financial-entry`].post;
    expect(journal).toMatchObject({ operationId: 'accounting_create_journal_entry', deprecated: true });
    expect(financial).toMatchObject({ operationId: 'accounting_create_financial_entry', deprecated: true });
    for (const op of [journal, financial]) {
      expect(op.security.some((s: Record<string, unknown>) => 'mcp_auth' in s)).toBe(false);
    }
    expect(journal.requestBody.content['application/json'].schema.$ref).toMatch(/JournalEntryIn$/);
    expect(financial.requestBody.content['application/json'].schema.$ref).toMatch(/FinancialEntryItemInOld$/);
    expect(doc.paths[`${base}/journal/entries`].get.deprecated).toBeUndefined();
    expect(doc.paths[`${base}/financial-entries`].post.deprecated).toBeUndefined();
    expect(doc.paths[`${base}/miscellaneous-operation`].post.deprecated).toBe(true);
  });
});
