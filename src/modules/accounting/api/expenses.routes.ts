import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import { ExpenseItemIn, ExpenseItemOut } from './expenses.schemas.js';

export const createExpense = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/accounting/expenses',
  operationId: 'accounting_create_expense',
  tags: ['Accounting'],
  summary: "Book an employee's expense note",
  ...secured('consumer', scopesFor('accounting', 'expenses', 'write')),
  request: { params: ConsumerIdParam, query: FolderQuery, body: jsonBody(ExpenseItemIn, 'The expense note') },
  responses: {
    200: jsonContent(ExpenseItemOut, 'The booked expense note'),
    ...errorResponses([400, 401, 404, 422]),
  },
});
