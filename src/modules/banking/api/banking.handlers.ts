import { paginate } from '../../../lib/pagination.js';
import { connectionDatasetRef } from '../../../platform/datasets.js';
import { operation, type Vertical } from '../../../platform/operation.js';
import type { BankingDataset } from '../model/banking.records.js';
import {
  attachmentsOf,
  bankingDatasetOf,
  listCounterparts,
  listTransactions,
  openingBalanceOn,
  toAccountItem,
} from './banking.domain.js';
import * as routes from './banking.routes.js';

/** Banking operations work on the connection's dataset (built in slices first when not in memory). */
const banking: Vertical<BankingDataset> = {
  api: 'Banking',
  dataset: (_c, { connection }) => connectionDatasetRef('banking_datasets', connection),
  open: (c, { connection }) =>
    bankingDatasetOf(
      c.get('store'),
      connection.consumerid,
      connection.connectionid,
      connection.integrationid,
    ),
};

export const getFinancialInstitutions = operation(banking, routes.getFinancialInstitutions, (c, { data }) => {
  const q = c.req.valid('query');
  const items = Object.values(data.institutions).map((i) => ({ ...i }));
  return c.json(paginate(items, q.page, q.size), 200);
});

export const getAccounts = operation(banking, routes.getAccounts, (c, { data }) => {
  const q = c.req.valid('query');
  const items = Object.values(data.accounts).map((a) => toAccountItem(data, a));
  return c.json(paginate(items, q.page, q.size), 200);
});

export const getAccountTransactions = operation(banking, routes.getAccountTransactions, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listTransactions(data, q), q.page, q.size), 200);
});

export const getAccountCounterparts = operation(banking, routes.getAccountCounterparts, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(listCounterparts(data, q), q.page, q.size), 200);
});

export const getAttachments = operation(banking, routes.getAttachments, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(paginate(attachmentsOf(data, q.transaction_id), q.page, q.size), 200);
});

/** One balance, not a page: page and size are accepted (the reference lists them) and unused. */
export const getOpeningBalance = operation(banking, routes.getOpeningBalance, (c, { data }) => {
  const q = c.req.valid('query');
  return c.json(openingBalanceOn(data, q.account_id, q.date), 200);
});
