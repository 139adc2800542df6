import { describe, expect, it } from 'vitest';
import { seedWorld } from '../../../src/control/seeded-world.js';
import { tinyPdf } from '../../../src/lib/pdf.js';
import * as B from '../../../src/modules/banking/api/banking.domain.js';
import type * as R from '../../../src/modules/banking/model/banking.records.js';
import { buildBankingDataset } from '../../../src/modules/banking/world/banking.living.js';
import { datasetStore, refusal } from '../domain-helpers.js';

/**
 * The Banking rules of banking.domain.ts, called directly: balances derived from the transactions
 * (current, available, the balance before each one and at the start of a day), the filters and order
 * of the lists, the counterparts, the attachments and the look-ups they refuse.
 */

const ARGS = { consumerid: 'consumer-a', connectionid: 'connection-a', integrationid: 90401 };
/** Seeded once; each test works on a copy of its own. */
const SEEDED = buildBankingDataset(7, ARGS);
const build = () => structuredClone(SEEDED);

/** The refusal `act` throws, as status, message, error code and detail. */
const generic = (detail: string) => ({
  status: 400,
  message: 'Error while trying to perform your request',
  code: undefined,
  detail,
});
const noAccount = (id: string) =>
  generic(`The account '${id}' does not exist (GET .../banking/accounts lists them)`);

const at = (day: string, time = '00:00') => `${day}T${time}:00.000Z`;
/** A transaction of `acc-a`, completed, dated 2025-03-01, with no counterpart: `over` says the rest. */
function tx(id: string, over: Partial<R.BankingTransaction> = {}): R.BankingTransaction {
  const when = at('2025-03-01', '09:00');
  return {
    ...{ id, bank_account_id: 'acc-a', amount: 0, tax_amount: null, currency: 'EUR', description: null },
    ...{ additional_information: null, counterpart_name: null, counterpart_reference: null },
    ...{
      remittance_information: null,
      creation_date: when,
      value_date: at('2025-03-01'),
      execution_date: when,
    },
    ...{ internal_transaction: false, operation_type: 'incoming_transfer', last_update_on: when },
    ...{ status: 'completed', attachments: [] },
    ...over,
  };
}

/**
 * The seeded dataset with two accounts of known transactions: acc-a (EUR, opening 100) and acc-b
 * (USD, opening 5). Rows: id account amount status value-day execution last-update operation
 * counterpart reference ('-' for none), given newest first so that the order found is computed.
 */
function dataset() {
  const data = build();
  const account = Object.values(data.accounts)[0] as R.BankingAccount;
  data.accounts['acc-a'] = { ...account, id: 'acc-a', currency: 'EUR', opening_balance: 100 };
  data.accounts['acc-b'] = { ...account, id: 'acc-b', currency: 'USD', opening_balance: 5 };
  data.transactions = {};
  for (const row of [
    't6 acc-a 0.2 completed 2025-03-04 2025-03-03T18:00 2025-03-04T10:00 interest - -',
    't5 acc-a -999 declined 2025-03-03 2025-03-03T12:00 2025-03-03T12:00 card Zeta BE01',
    't4 acc-a 500 pending 2025-03-03 2025-03-03T11:00 2025-03-03T11:00 incoming_transfer Zeta -',
    't3 acc-a -30 pending 2025-03-03 2025-03-03T10:00 2025-03-05T08:00 card Zeta BE01',
    't2 acc-a -20.1 completed 2025-03-01 2025-03-01T08:00 2025-03-02T09:00 outgoing_transfer Alpha -',
    't1 acc-a 50 completed 2025-03-01 2025-03-01T09:00 2025-03-01T09:00 incoming_transfer Zeta BE01',
    't7 acc-b 1000 completed 2025-03-02 2025-03-02T09:00 2025-03-02T09:00 swift_income Alpha US02',
  ]) {
    const [id = '', bank_account_id, amount, status, value, execution, update, operation, name, ref] =
      row.split(' ');
    const [d, t] = (execution ?? '').split('T') as [string, string];
    const [ud, ut] = (update ?? '').split('T') as [string, string];
    data.transactions[id] = tx(id, {
      ...{ bank_account_id, amount: Number(amount), status: status as R.BankingTransaction['status'] },
      ...{ value_date: at(value ?? ''), execution_date: at(d, t), last_update_on: at(ud, ut) },
      operation_type: operation as R.BankingTransaction['operation_type'],
      currency: data.accounts[bank_account_id ?? '']?.currency,
      counterpart_name: name === '-' ? null : (name ?? null),
      counterpart_reference: ref === '-' ? null : (ref ?? null),
    });
  }
  return data;
}
const accountA = (data: R.BankingDataset) => data.accounts['acc-a'] as R.BankingAccount;

describe('the dataset of a connection', () => {
  it('is built from the seed on first use, kept in the store, and the same object afterwards', () => {
    const store = datasetStore(seedWorld(7));
    const before = Object.keys(store.world.banking_datasets).length;
    const first = B.bankingDatasetOf(store, 'consumer-a', 'connection-z', 90401);
    expect(Object.keys(store.world.banking_datasets)).toHaveLength(before + 1);
    expect(B.bankingDatasetOf(store, 'consumer-a', 'connection-z', 90401)).toBe(first);
    const args = { ...ARGS, connectionid: 'connection-z', until: store.today() };
    expect(JSON.stringify(first)).toBe(JSON.stringify(buildBankingDataset(7, args)));
  });
});

describe('balances', () => {
  it('adds the completed transactions to the opening balance, and holds back the pending outgoing ones', () => {
    const data = dataset();
    const item = B.toAccountItem(data, accountA(data));
    expect([item.id, item.currency, item.current_balance, item.available_balance]).toEqual([
      'acc-a',
      'EUR',
      130.1,
      100.1,
    ]);
    expect(item.current_balance_last_update_date).toBe(at('2025-03-04', '10:00'));
    expect(item.available_balance_last_update_date).toBe(at('2025-03-05', '08:00'));
    const account = accountA(data);
    expect(item).toMatchObject({
      description: account.description,
      reference: account.reference,
      active: true,
    });
  });

  it.each([
    [100, '', 100, 100],
    [0.1, '0.2 completed', 0.3, 0.3],
    [100, '-30 pending', 100, 70],
    [100, '30 pending', 100, 100],
    [100, '-30 declined, 30 declined', 100, 100],
    [10, '-25.5 completed', -15.5, -15.5],
    [100, '-0.01 pending, -0.02 pending', 100, 99.97],
    [0, '19.99 completed, 19.99 completed, 19.99 completed', 59.97, 59.97],
    [-5, '5 completed, -0.1 pending', 0, -0.1],
  ])('from an opening of %d and %j, is %d, %d available', (opening, rows, current, available) => {
    const data = dataset();
    accountA(data).opening_balance = opening;
    data.transactions = {};
    for (const [i, row] of (rows ? rows.split(', ') : []).entries()) {
      const [amount, status] = row.split(' ') as [string, R.BankingTransaction['status']];
      data.transactions[`x${i}`] = tx(`x${i}`, { amount: Number(amount), status });
    }
    const item = B.toAccountItem(data, accountA(data));
    expect([item.current_balance, item.available_balance]).toEqual([current, available]);
    if (!rows)
      expect([item.current_balance_last_update_date, item.available_balance_last_update_date]).toEqual([
        null,
        null,
      ]);
  });

  it('gives each completed transaction the balance before it, in value, execution and id order', () => {
    const data = dataset();
    expect([...B.openingBalances(data, accountA(data))]).toEqual([
      ['t2', 100],
      ['t1', 79.9],
      ['t6', 129.9],
    ]);
    data.transactions.t0 = tx('t0', { amount: 1, execution_date: at('2025-03-01', '08:00') });
    expect([...B.openingBalances(data, accountA(data))].map(([id]) => id)).toEqual(['t0', 't2', 't1', 't6']);
  });

  it.each([
    ['2000-01-01', 100],
    ['2025-03-01', 100],
    ['2025-03-02', 129.9],
    ['2025-03-04', 129.9],
    ['2025-03-05', 130.1],
  ])('opens the day %s at %d', (on, balance) => {
    const data = dataset();
    expect(B.openingBalanceOn(data, 'acc-a', on)).toEqual({
      account_id: 'acc-a',
      date: on,
      opening_balance: balance,
      currency: 'EUR',
    });
  });

  it('carries, in the seeded accounts, the balance of each transaction to the next, up to the current one', () => {
    const data = build();
    const cents = (n: number) => Math.round(n * 100);
    for (const account of Object.values(data.accounts)) {
      const openings = B.openingBalances(data, account);
      let balance = cents(account.opening_balance);
      for (const [id, opening] of openings) {
        expect(cents(opening), id).toBe(balance);
        balance += cents(data.transactions[id]?.amount ?? Number.NaN);
      }
      const item = B.toAccountItem(data, account);
      expect(cents(item.current_balance)).toBe(balance);
      expect(B.openingBalanceOn(data, account.id, '2026-01-15').opening_balance).toBe(item.current_balance);
      const held = account.description === 'Current account';
      expect(item.available_balance < item.current_balance, account.description).toBe(held);
    }
  });
});

describe('transactions', () => {
  it.each([
    ['card', 'completed', 1, 'yes'],
    ['card', 'completed', 0, 'yes_to_request'],
    ['card', 'pending', 0, 'no'],
    ['card', 'declined', 0, 'no'],
    ['card', 'pending', 1, 'yes'],
    ['incoming_transfer', 'completed', 0, 'no'],
    ['direct_debit', 'completed', 2, 'yes'],
  ] as const)(
    'answers a %s transaction, %s with %d attachments, as %s',
    (operation_type, status, count, info) => {
      const attachments = Array.from({ length: count }, (_, i) => ({ id: `a${i}`, filename: `f${i}.pdf` }));
      const record = tx('t', { operation_type, status, attachments });
      const item = B.toTransactionItem(record, new Map([['t', 12.5]]));
      expect(item.attachments_info).toEqual({
        status: info,
        attachments: attachments.map((a) => ({ filename: a.filename, url: null })),
      });
      expect([item.opening_balance, 'attachments' in item]).toEqual([12.5, false]);
      expect(B.toTransactionItem(record, new Map()).opening_balance).toBeNull();
    },
  );

  it.each([
    [{}, 't6 t5 t4 t3 t1 t2'],
    [{ date_from: '2025-03-03' }, 't6 t5 t4 t3'],
    [{ date_to: '2025-03-01' }, 't1 t2'],
    [{ date_to: '2025-03-03' }, 't5 t4 t3 t1 t2'],
    [{ date_from: '2025-03-04', date_type: 'value_date' }, 't6'],
    [{ date_from: '2025-03-04', date_type: 'execution_date' }, ''],
    [{ date_to: '2025-03-03', date_type: 'execution_date' }, 't6 t5 t4 t3 t1 t2'],
    [{ date_from: '2025-03-02', date_to: '2025-03-01' }, ''],
    [{ updated_after: '2025-03-02' }, 't6 t5 t4 t3 t2'],
    [{ updated_after: '2025-03-05' }, 't3'],
    [{ updated_after: '2025-03-06' }, ''],
  ] as const)('lists the transactions of an account matching %j, newest first: %s', (filters, expected) => {
    const data = dataset();
    const items = B.listTransactions(data, { account_id: 'acc-a', ...filters });
    expect(items.map((t) => t.id).join(' ')).toBe(expected);
  });

  it('answers each listed transaction with the balance before it, null when it is not completed', () => {
    const data = dataset();
    const items = B.listTransactions(data, { account_id: 'acc-a' });
    expect(items.map((t) => t.opening_balance)).toEqual([129.9, null, null, null, 79.9, 100]);
    expect(B.listTransactions(data, { account_id: 'acc-b' }).map((t) => [t.id, t.opening_balance])).toEqual([
      ['t7', 5],
    ]);
  });

  it.each([
    [
      {},
      'Alpha - 1 transaction, the last on 2025-03-01|Alpha US02 1 transaction, the last on 2025-03-02|Zeta - 1 transaction, the last on 2025-03-03|Zeta BE01 3 transactions, the last on 2025-03-03',
    ],
    [{ account_id: 'acc-b' }, 'Alpha US02 1 transaction, the last on 2025-03-02'],
    [
      { account_id: 'acc-a', date_to: '2025-03-02' },
      'Alpha - 1 transaction, the last on 2025-03-01|Zeta BE01 1 transaction, the last on 2025-03-01',
    ],
    [
      { date_from: '2025-03-03' },
      'Zeta - 1 transaction, the last on 2025-03-03|Zeta BE01 2 transactions, the last on 2025-03-03',
    ],
    [{ date_from: '2025-03-02', date_to: '2025-03-02' }, 'Alpha US02 1 transaction, the last on 2025-03-02'],
    [{ date_from: '2025-03-05' }, ''],
    [{ date_from: '2025-03-03', date_to: '2025-03-01' }, ''],
  ])('groups the counterparts of %j by name and reference', (filters, expected) => {
    const data = dataset();
    const found = B.listCounterparts(data, filters).map(
      (c) => `${c.name} ${c.reference ?? '-'} ${c.details}`,
    );
    expect(found.join('|')).toBe(expected);
  });

  it.each([
    [
      't1',
      ['receipt.pdf', 'invoice.pdf'],
      ['receipt.pdf - Zeta - 50.00 EUR', 'invoice.pdf - Zeta - 50.00 EUR'],
    ],
    ['t2', ['r.pdf'], ['r.pdf - Alpha - 20.10 EUR']],
    ['t6', ['(x).pdf'], [' x .pdf -  - 0.20 EUR']],
    ['t7', ['é.pdf'], ['?.pdf - Alpha - 1000.00 USD']],
    ['t4', [], []],
  ])('draws the attachments of %s, %j, as PDFs', (id, files, texts) => {
    const data = dataset();
    const transaction = data.transactions[id] as R.BankingTransaction;
    transaction.attachments = files.map((filename, i) => ({ id: `att-${i}`, filename }));
    const pdfs = B.attachmentsOf(data, id);
    expect(pdfs.map((p) => p.id)).toEqual(files.map((_, i) => `att-${i}`));
    const decoded = pdfs.map((p) => Buffer.from(p.base64_string, 'base64').toString('latin1'));
    expect(decoded.map((pdf) => /\((.*)\) Tj/.exec(pdf)?.[1])).toEqual(texts);
    expect(pdfs.map((p) => p.base64_string)).toEqual(texts.map(tinyPdf));
  });
});

describe('refusals', () => {
  it.each(['nope', '__proto__', 'toString', ''])('refuses the account %j everywhere it is named', (id) => {
    const data = dataset();
    expect(refusal(() => B.requireAccount(data, id))).toEqual(noAccount(id));
    expect(refusal(() => B.listTransactions(data, { account_id: id }))).toEqual(noAccount(id));
    expect(refusal(() => B.listCounterparts(data, { account_id: id }))).toEqual(noAccount(id));
    expect(refusal(() => B.openingBalanceOn(data, id, '2025-03-01'))).toEqual(noAccount(id));
  });

  it.each(['nope', 'constructor', ''])('refuses the transaction %j', (id) => {
    const data = dataset();
    const expected = generic(`The transaction '${id}' does not exist`);
    expect(refusal(() => B.requireTransaction(data, id))).toEqual(expected);
    expect(refusal(() => B.attachmentsOf(data, id))).toEqual(expected);
  });

  it('finds the records it is asked for', () => {
    const data = dataset();
    expect(B.requireAccount(data, 'acc-b')).toBe(data.accounts['acc-b']);
    expect(B.requireTransaction(data, 't7')).toBe(data.transactions.t7);
  });
});
