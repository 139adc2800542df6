import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import {
  AttachmentItemOut,
  BankingAccountItem,
  BankingFinancialInstitutionItem,
  BankingOpeningBalanceItem,
  BankingTransactionItem,
} from '../../../src/modules/banking/api/banking.schemas.js';
import { isValidIban } from '../../../src/platform/seeding/finance-fakes.js';
import { call, expectError, expectValidation } from '../../helpers.js';
import {
  all,
  cents,
  expectFailure,
  forVertical,
  type VerticalSandbox,
  verticalSandbox,
} from '../verticals/finance-helpers.js';

/** The Banking vertical through HTTP: accounts, balances derived from transactions, filters, errors. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('banking');
});

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape).sort();

async function accounts(): Promise<Item[]> {
  return all(v, '/accounts');
}

describe('banking: institutions and accounts', () => {
  it('lists the banks and the accounts with every field', async () => {
    const banks = await all(v, '/financial-institutions');
    expect(banks).toHaveLength(2);
    for (const b of banks) {
      expect(Object.keys(BankingFinancialInstitutionItem.parse(b)).sort()).toEqual(
        keysOf(BankingFinancialInstitutionItem),
      );
      expect(b.bic).toMatch(/^[A-Z]{6}[A-Z0-9]{5}$/);
    }
    const list = await accounts();
    expect(list.map((a) => [a.description, a.currency])).toEqual([
      ['Current account', 'EUR'],
      ['Savings account', 'EUR'],
      ['USD account', 'USD'],
    ]);
    for (const a of list) {
      expect(Object.keys(BankingAccountItem.parse(a)).sort()).toEqual(keysOf(BankingAccountItem));
      expect(a.reference_type).toBe('IBAN');
      expect(isValidIban(a.reference)).toBe(true);
      expect(a.active).toBe(true);
      expect(a.holder_name).toBeTruthy();
    }
  });

  it('derives balances: the current one from completed transactions, the available one less pending debits', async () => {
    for (const account of await accounts()) {
      const transactions = await all(v, `/transactions?account_id=${account.id}`);
      const completed = transactions.filter((t) => t.status === 'completed');
      const pending = transactions.filter((t) => t.status === 'pending' && t.amount < 0);
      // Chronological: each completed transaction starts from where the one before left the balance.
      const chronological = [...completed].reverse();
      for (let i = 1; i < chronological.length; i++) {
        const before = chronological[i - 1];
        expect(cents(chronological[i].opening_balance)).toBe(
          cents(before.opening_balance) + cents(before.amount),
        );
      }
      const last = chronological.at(-1);
      expect(cents(account.current_balance)).toBe(cents(last.opening_balance) + cents(last.amount));
      const held = pending.reduce((s, t) => s + cents(t.amount), 0);
      expect(cents(account.available_balance)).toBe(cents(account.current_balance) + held);
      for (const t of transactions.filter((x) => x.status !== 'completed'))
        expect(t.opening_balance).toBeNull();
      // The balance on the day after everything is the current balance.
      const after = await v.get(`/opening-balance?account_id=${account.id}&date=2026-02-01`);
      expect(after.body).toEqual({
        account_id: account.id,
        date: '2026-02-01',
        opening_balance: account.current_balance,
        currency: account.currency,
      });
    }
    const [current] = await accounts();
    const txs = await all(v, `/transactions?account_id=${current.id}`);
    expect(txs.some((t) => t.status === 'pending')).toBe(true);
    expect(txs.some((t) => t.status === 'declined')).toBe(true);
    expect(current.available_balance).toBeLessThan(current.current_balance);
  });

  it('gives the opening balance of any day: the balance before its first transaction', async () => {
    const [current] = await accounts();
    const txs = (await all(v, `/transactions?account_id=${current.id}`))
      .filter((t) => t.status === 'completed')
      .reverse();
    const firstOfJuly = txs.find((t) => t.value_date >= '2025-07-01');
    const res = await v.get(`/opening-balance?account_id=${current.id}&date=2025-07-01`);
    expect(res.status).toBe(200);
    expect(Object.keys(BankingOpeningBalanceItem.parse(res.body)).sort()).toEqual(
      keysOf(BankingOpeningBalanceItem),
    );
    expect(res.body.opening_balance).toBe(firstOfJuly.opening_balance);
    const first = txs[0];
    // The eve of the history's first day.
    const start = await v.get(`/opening-balance?account_id=${current.id}&date=2020-12-31`);
    expect(start.body.opening_balance).toBe(first.opening_balance);
  });

  it.each([
    ['/opening-balance?date=2025-01-01', ['query', 'account_id']],
    ['/opening-balance?account_id=x', ['query', 'date']],
    ['/opening-balance?account_id=x&date=2025-02-30', ['query', 'date']],
    ['/opening-balance?account_id=x&date=2025-01-01&size=0', ['query', 'size']],
  ])('validates %s', async (path, loc) => {
    expectValidation(await v.get(path), loc);
  });
});

describe('banking: transactions', () => {
  it('lists an account’s transactions newest first, every field filled as typed', async () => {
    const [current] = await accounts();
    const txs = await all(v, `/transactions?account_id=${current.id}`);
    expect(txs.length).toBeGreaterThan(150);
    for (const t of txs) {
      expect(Object.keys(BankingTransactionItem.parse(t)).sort()).toEqual(keysOf(BankingTransactionItem));
      expect(t.bank_account_id).toBe(current.id);
      expect(t.currency).toBe('EUR');
      expect(t.value_date < '2026-01-15').toBe(true);
      // The history runs from January 2021.
      expect(t.value_date >= '2021-01-01').toBe(true);
    }
    const order = txs.map((t) => `${t.value_date}${t.execution_date}`);
    expect(order).toEqual([...order].sort().reverse());
    const types = new Set(txs.map((t) => t.operation_type));
    for (const type of ['incoming_transfer', 'outgoing_transfer', 'card', 'direct_debit', 'fee'])
      expect(types).toContain(type);
    // Card payments: with their receipt, or one to ask for.
    const cards = txs.filter((t) => t.operation_type === 'card' && t.status === 'completed');
    expect(cards.some((t) => t.attachments_info.status === 'yes')).toBe(true);
    expect(cards.some((t) => t.attachments_info.status === 'yes_to_request')).toBe(true);
    expect(txs.filter((t) => t.internal_transaction)).toHaveLength(1);
  });

  it('filters by value date or execution date, and by update day', async () => {
    const [current] = await accounts();
    const every = await all(v, `/transactions?account_id=${current.id}`);
    const march = await all(
      v,
      `/transactions?account_id=${current.id}&date_from=2025-03-01&date_to=2025-03-31`,
    );
    expect(march.length).toBeGreaterThan(0);
    expect(march.map((t) => t.id)).toEqual(
      every
        .filter((t) => t.value_date.slice(0, 10) >= '2025-03-01' && t.value_date.slice(0, 10) <= '2025-03-31')
        .map((t) => t.id),
    );
    const byExecution = await all(
      v,
      `/transactions?account_id=${current.id}&date_from=2025-03-01&date_to=2025-03-31&date_type=execution_date`,
    );
    expect(byExecution.map((t) => t.id)).toEqual(
      every
        .filter(
          (t) =>
            t.execution_date.slice(0, 10) >= '2025-03-01' && t.execution_date.slice(0, 10) <= '2025-03-31',
        )
        .map((t) => t.id),
    );
    expect((await all(v, `/transactions?account_id=${current.id}&date_type=value_date`)).length).toBe(
      every.length,
    );
    const updated = await all(v, `/transactions?account_id=${current.id}&updated_after=2026-01-01`);
    expect(updated.length).toBeGreaterThan(0);
    expect(updated.map((t) => t.id)).toEqual(
      every.filter((t) => t.last_update_on >= '2026-01-01').map((t) => t.id),
    );
  });

  it('refuses an unknown account, and a missing one', async () => {
    expectFailure(await v.get('/transactions?account_id=nope'), "The account 'nope' does not exist");
    expectValidation(await v.get('/transactions'), ['query', 'account_id'], 'missing');
    expectFailure(
      await v.get('/opening-balance?account_id=nope&date=2025-01-01'),
      "The account 'nope' does not exist",
    );
    expectFailure(await v.get('/counterparts?account_id=nope'), "The account 'nope' does not exist");
  });

  it.each([
    ['date_type=booking_date', ['query', 'date_type']],
    ['date_from=2025-1-1', ['query', 'date_from']],
    ['updated_after=2025-01-01T00:00:00Z', ['query', 'updated_after']],
    ['size=101', ['query', 'size']],
    ['page=0', ['query', 'page']],
  ])('validates %s', async (query, loc) => {
    expectValidation(await v.get(`/transactions?account_id=x&${query}`), loc);
  });

  it('pages through an account’s transactions', async () => {
    const [current] = await accounts();
    const first = await v.get(`/transactions?account_id=${current.id}&size=10`);
    const second = await v.get(`/transactions?account_id=${current.id}&size=10&page=2`);
    expect(first.body.items).toHaveLength(10);
    expect(second.body.items[0].id).not.toBe(first.body.items[9].id);
    expect(second.body.total).toBe(first.body.total);
    const past = await v.get(`/transactions?account_id=${current.id}&page=1000`);
    expect(past.body).toMatchObject({ items: [], page: 1000, size: 50, total: first.body.total });
  });
});

describe('banking: counterparts and attachments', () => {
  it('groups the counterparts of the transactions by name and reference', async () => {
    const list = await all(v, '/counterparts');
    expect(list.length).toBeGreaterThan(10);
    const names = list.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const txs = (
      await Promise.all((await accounts()).map((a) => all(v, `/transactions?account_id=${a.id}`)))
    ).flat();
    const named = txs.filter((t) => t.counterpart_name);
    const counted = list.reduce((s, c) => s + Number(/^(\d+) transaction/.exec(c.details)?.[1]), 0);
    expect(counted).toBe(named.length);
    for (const c of list) {
      const mine = named.filter(
        (t) => t.counterpart_name === c.name && (t.counterpart_reference ?? null) === c.reference,
      );
      expect(c.details).toBe(
        `${mine.length} transaction${mine.length === 1 ? '' : 's'}, the last on ${mine
          .map((t) => t.value_date.slice(0, 10))
          .sort()
          .at(-1)}`,
      );
    }
  });

  it('filters counterparts by account and dates', async () => {
    const [, savings, usd] = await accounts();
    const ofUsd = await all(v, `/counterparts?account_id=${usd.id}`);
    const usdTxs = await all(v, `/transactions?account_id=${usd.id}`);
    expect(ofUsd.map((c) => c.name).sort()).toEqual(
      [...new Set(usdTxs.filter((t) => t.counterpart_name).map((t) => t.counterpart_name))].sort(),
    );
    const ofSavings = await all(v, `/counterparts?account_id=${savings.id}`);
    expect(ofSavings).toHaveLength(1);
    const december = await all(v, '/counterparts?date_from=2025-12-01&date_to=2025-12-31');
    expect(december.length).toBeGreaterThan(0);
    expect(december.every((c) => /the last on 2025-12-\d\d$/.test(c.details))).toBe(true);
  });

  it('returns the PDFs attached to a transaction', async () => {
    const [current] = await accounts();
    const txs = await all(v, `/transactions?account_id=${current.id}`);
    const withReceipt = txs.find((t) => t.attachments_info.status === 'yes');
    const res = await v.get(`/attachments?transaction_id=${withReceipt.id}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(withReceipt.attachments_info.attachments.length);
    for (const a of res.body.items) {
      AttachmentItemOut.parse(a);
      expect(Buffer.from(a.base64_string, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    }
    const without = txs.find((t) => t.attachments_info.status === 'no');
    expect((await v.get(`/attachments?transaction_id=${without.id}`)).body).toEqual({
      items: [],
      total: 0,
      page: 1,
      size: 50,
    });
    expectFailure(await v.get('/attachments?transaction_id=nope'), "The transaction 'nope' does not exist");
    expectValidation(await v.get('/attachments'), ['query', 'transaction_id'], 'missing');
  });
});

describe('banking: who may call', () => {
  it.each([
    '/financial-institutions',
    '/accounts',
    '/transactions?account_id=x',
    '/counterparts',
    '/attachments?transaction_id=x',
    '/opening-balance?account_id=x&date=2025-01-01',
  ])('GET %s needs a Banking connection, and an existing consumer', async (path) => {
    const other = forVertical(v, v.token, v.ids.verticalConsumers.PAYMENT as string, 'banking');
    expectFailure(await other.get(path), 'The consumer has no active connection to a Banking integration');
    const missing = forVertical(v, v.token, '00000000-0000-4000-8000-000000000009', 'banking');
    expectError(await missing.get(path), errors.consumerNotFound());
  });

  it('is the same for the same seed, and another for another consumer', async () => {
    const again = await verticalSandbox('banking');
    expect((await again.get('/accounts')).body).toEqual((await v.get('/accounts')).body);
    // A new Banking connection of another consumer gets its own accounts.
    const consumer = await call(v.app, 'POST', '/consumers', {
      token: v.token,
      body: { name: 'Other bank user', redirect_url: 'https://vendor.example/back' },
    });
    const link = await call(v.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
      token: v.token,
      body: { integrationid: 10000, credentials: [] },
    });
    expect(link.status, link.text).toBe(200);
    const other = forVertical(v, v.token, consumer.body.consumerid, 'banking');
    const theirs = await other.get('/accounts');
    expect(theirs.status).toBe(200);
    expect(theirs.body.items[0].reference).not.toBe((await v.get('/accounts')).body.items[0].reference);
  });
});
