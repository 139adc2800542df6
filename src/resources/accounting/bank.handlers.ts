import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import {
  bankAccountDraftOf,
  listBankAccounts,
  statementDraftOf,
  toBankAccountItem,
  toStatementOut,
} from './bank.domain.js';
import type * as routes from './bank.routes.js';
import { applyChange } from './ledger/posting.js';
import { buildBankAccount, buildBankStatement } from './ledger/treasury.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getBankAccounts: Handler<'getBankAccounts'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_bank_accounts');
  const { page, size } = c.req.valid('query');
  const accounts = listBankAccounts(ledger).map((j) => toBankAccountItem(ledger, j));
  return c.json(paginate(accounts, page, size), 200);
};

export const createBankAccount: Handler<'createBankAccount'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_bank_account');
  const ctx = postingContext(c);
  const { journal, change } = buildBankAccount(ledger, bankAccountDraftOf(c.req.valid('json')), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', journal.id);
  return c.json(toBankAccountItem(ledger, journal), 200);
};

export const createBankTransactions: Handler<'createBankTransactions'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_bank_transactions');
  const ctx = postingContext(c);
  const input = c.req.valid('json');
  const { statement, entries, change } = buildBankStatement(ledger, statementDraftOf(input), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', statement.id);
  return c.json(toStatementOut(input, statement.id, entries), 200);
};
