import { own } from '../../../lib/own.js';
import { tinyPdf } from '../../../lib/pdf.js';
import { connectionDataset } from '../../../platform/datasets.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type { WorldStore } from '../../../store/store.js';
import type { BankingAccount, BankingDataset, BankingTransaction } from '../model/banking.records.js';
import type { BankingAccountOut, BankingTransactionOut } from './banking.schemas.js';

/**
 * The Banking vertical's rules over one connection's dataset. Balances are derived from the
 * transactions: the current balance is the opening balance plus the completed transactions, the
 * available balance holds back the pending outgoing ones, and each completed transaction carries
 * the balance before it.
 */

/** The dataset of a connection, built from the seed the first time the connection is used. */
export function bankingDatasetOf(
  store: WorldStore,
  consumerid: string,
  connectionid: string,
  integrationid: number,
): BankingDataset {
  return connectionDataset<BankingDataset>(store, 'banking_datasets', {
    consumerid,
    connectionid,
    integrationid,
  });
}

const cents = (amount: number) => Math.round(amount * 100);
const day = (instant: string) => instant.slice(0, 10);

/** Booking order: value date, then execution time, then id. */
const chronological = (a: BankingTransaction, b: BankingTransaction) =>
  a.value_date.localeCompare(b.value_date) ||
  a.execution_date.localeCompare(b.execution_date) ||
  a.id.localeCompare(b.id);

export function requireAccount(data: BankingDataset, id: string): BankingAccount {
  const account = own(data.accounts, id);
  if (!account)
    throw verticalFailure(`The account '${id}' does not exist (GET .../banking/accounts lists them)`);
  return account;
}

export function requireTransaction(data: BankingDataset, id: string): BankingTransaction {
  const transaction = own(data.transactions, id);
  if (!transaction) throw verticalFailure(`The transaction '${id}' does not exist`);
  return transaction;
}

const transactionsOf = (data: BankingDataset, accountId: string) =>
  Object.values(data.transactions)
    .filter((t) => t.bank_account_id === accountId)
    .sort(chronological);

/** The balance before each completed transaction of an account, by transaction id. */
export function openingBalances(data: BankingDataset, account: BankingAccount): Map<string, number> {
  const out = new Map<string, number>();
  let balance = cents(account.opening_balance);
  for (const t of transactionsOf(data, account.id)) {
    if (t.status !== 'completed') continue;
    out.set(t.id, balance / 100);
    balance += cents(t.amount);
  }
  return out;
}

export function toAccountItem(data: BankingDataset, account: BankingAccount): BankingAccountOut {
  const transactions = transactionsOf(data, account.id);
  const completed = transactions.filter((t) => t.status === 'completed');
  const pendingOut = transactions.filter((t) => t.status === 'pending' && t.amount < 0);
  const current = completed.reduce((sum, t) => sum + cents(t.amount), cents(account.opening_balance));
  const held = pendingOut.reduce((sum, t) => sum + cents(t.amount), 0);
  const latest = (items: BankingTransaction[]) =>
    items
      .map((t) => t.last_update_on)
      .sort()
      .at(-1) ?? null;
  return {
    id: account.id,
    currency: account.currency,
    current_balance: current / 100,
    current_balance_last_update_date: latest(completed),
    available_balance: (current + held) / 100,
    available_balance_last_update_date: latest([...completed, ...pendingOut]),
    description: account.description,
    reference: account.reference,
    reference_type: account.reference_type,
    holder_name: account.holder_name,
    active: account.active,
  };
}

export function toTransactionItem(
  transaction: BankingTransaction,
  openings: Map<string, number>,
): BankingTransactionOut {
  const { attachments, ...wire } = transaction;
  const status = attachments.length
    ? 'yes'
    : transaction.operation_type === 'card' && transaction.status === 'completed'
      ? 'yes_to_request'
      : 'no';
  return {
    ...wire,
    opening_balance: openings.get(transaction.id) ?? null,
    attachments_info: {
      status,
      attachments: attachments.map((a) => ({ filename: a.filename, url: null })),
    },
  };
}

export interface TransactionFilters {
  account_id: string;
  date_from?: string | undefined;
  date_to?: string | undefined;
  date_type?: 'value_date' | 'execution_date' | undefined;
  updated_after?: string | undefined;
}

/** The transactions of one account matching the filters, newest first. */
export function listTransactions(data: BankingDataset, filters: TransactionFilters): BankingTransactionOut[] {
  const account = requireAccount(data, filters.account_id);
  const openings = openingBalances(data, account);
  const dateOf = (t: BankingTransaction) =>
    day(filters.date_type === 'execution_date' ? t.execution_date : t.value_date);
  return transactionsOf(data, account.id)
    .filter(
      (t) =>
        (!filters.date_from || dateOf(t) >= filters.date_from) &&
        (!filters.date_to || dateOf(t) <= filters.date_to) &&
        (!filters.updated_after || day(t.last_update_on) >= filters.updated_after),
    )
    .reverse()
    .map((t) => toTransactionItem(t, openings));
}

/**
 * Counterparts found in the transactions (of one account, or all), grouped by name and reference,
 * with how many transactions name them and when the last one was; by name.
 */
export function listCounterparts(
  data: BankingDataset,
  filters: { account_id?: string | undefined; date_from?: string | undefined; date_to?: string | undefined },
) {
  if (filters.account_id !== undefined) requireAccount(data, filters.account_id);
  const groups = new Map<string, { name: string; reference: string | null; count: number; last: string }>();
  for (const t of Object.values(data.transactions)) {
    if (!t.counterpart_name) continue;
    if (filters.account_id !== undefined && t.bank_account_id !== filters.account_id) continue;
    const when = day(t.value_date);
    if ((filters.date_from && when < filters.date_from) || (filters.date_to && when > filters.date_to))
      continue;
    const key = `${t.counterpart_name}\u0000${t.counterpart_reference ?? ''}`;
    const group = groups.get(key) ?? {
      name: t.counterpart_name,
      reference: t.counterpart_reference,
      count: 0,
      last: when,
    };
    group.count += 1;
    if (when > group.last) group.last = when;
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || (a.reference ?? '').localeCompare(b.reference ?? ''))
    .map((g) => ({
      name: g.name,
      reference: g.reference,
      details: `${g.count} transaction${g.count === 1 ? '' : 's'}, the last on ${g.last}`,
    }));
}

/** The documents attached to a transaction, as PDFs (base64). */
export function attachmentsOf(data: BankingDataset, transactionId: string) {
  const transaction = requireTransaction(data, transactionId);
  return transaction.attachments.map((a) => ({
    id: a.id,
    base64_string: tinyPdf(
      `${a.filename} - ${transaction.counterpart_name ?? ''} - ${Math.abs(transaction.amount).toFixed(2)} ${transaction.currency}`,
    ),
  }));
}

/** The balance of an account at the start of a day: its opening balance and the earlier completed transactions. */
export function openingBalanceOn(data: BankingDataset, accountId: string, on: string) {
  const account = requireAccount(data, accountId);
  const balance = transactionsOf(data, account.id)
    .filter((t) => t.status === 'completed' && day(t.value_date) < on)
    .reduce((sum, t) => sum + cents(t.amount), cents(account.opening_balance));
  return { account_id: account.id, date: on, opening_balance: balance / 100, currency: account.currency };
}
