import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { buildExpense } from '../model/ledger/documents.js';
import { applyChange } from '../model/ledger/posting.js';
import { accountingLedger } from './accounting.context.js';
import { expenseDraftOf, toExpenseOut } from './expenses.domain.js';
import * as routes from './expenses.routes.js';

export const createExpense = operation(accountingLedger, routes.createExpense, (c, { data: { ledger } }) => {
  const ctx = writeContext(c);
  const input = c.req.valid('json');
  const { entry, change } = buildExpense(ledger, expenseDraftOf(input), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', entry.id);
  return c.json(toExpenseOut(input, entry), 200);
});
