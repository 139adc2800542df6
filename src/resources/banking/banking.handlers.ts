import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { requireVerticalConnection } from '../../lib/vertical.js';
import {
  attachmentsOf,
  bankingDatasetOf,
  listCounterparts,
  listTransactions,
  openingBalanceOn,
  toAccountItem,
} from './banking.domain.js';
import type * as routes from './banking.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

/** The connection's dataset, once the consumer, connection and coverage checks have passed. */
function dataset(c: Context<AppEnv>, operationId: string) {
  const scope = requireVerticalConnection(c, 'Banking', operationId);
  return bankingDatasetOf(
    c.var.store,
    scope.consumer.consumerid,
    scope.connection.connectionid,
    scope.integration.integrationid,
  );
}

export const getFinancialInstitutions: Handler<'getFinancialInstitutions'> = (c) => {
  const data = dataset(c, 'banking_get_financial_institutions');
  const q = c.req.valid('query');
  const items = Object.values(data.institutions).map((i) => ({ ...i }));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const getAccounts: Handler<'getAccounts'> = (c) => {
  const data = dataset(c, 'banking_get_accounts');
  const q = c.req.valid('query');
  const items = Object.values(data.accounts).map((a) => toAccountItem(data, a));
  return c.json(paginate(items, q.page, q.size), 200);
};

export const getAccountTransactions: Handler<'getAccountTransactions'> = (c) => {
  const data = dataset(c, 'banking_get_account_transactions');
  const q = c.req.valid('query');
  return c.json(paginate(listTransactions(data, q), q.page, q.size), 200);
};

export const getAccountCounterparts: Handler<'getAccountCounterparts'> = (c) => {
  const data = dataset(c, 'banking_get_account_counterparts');
  const q = c.req.valid('query');
  return c.json(paginate(listCounterparts(data, q), q.page, q.size), 200);
};

export const getAttachments: Handler<'getAttachments'> = (c) => {
  const data = dataset(c, 'banking_get_attachments');
  const q = c.req.valid('query');
  return c.json(paginate(attachmentsOf(data, q.transaction_id), q.page, q.size), 200);
};

/** One balance, not a page: page and size are accepted (the reference lists them) and unused. */
export const getOpeningBalance: Handler<'getOpeningBalance'> = (c) => {
  const data = dataset(c, 'banking_get_opening_balance');
  const q = c.req.valid('query');
  return c.json(openingBalanceOn(data, q.account_id, q.date), 200);
};
