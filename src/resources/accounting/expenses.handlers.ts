import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import { expenseDraftOf, toExpenseOut } from './expenses.domain.js';
import type * as routes from './expenses.routes.js';
import { buildExpense } from './ledger/documents.js';
import { applyChange } from './ledger/posting.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const createExpense: Handler<'createExpense'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_expense');
  const ctx = postingContext(c);
  const input = c.req.valid('json');
  const { entry, change } = buildExpense(ledger, expenseDraftOf(input), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', entry.id);
  return c.json(toExpenseOut(input, entry), 200);
};
