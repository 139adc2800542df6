import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { requireAccounting } from './accounting.context.js';
import { listEmployees, toEmployeeItem } from './employees.domain.js';
import type * as routes from './employees.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getEmployees: Handler<'getEmployees'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_employees');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(listEmployees(ledger).map(toEmployeeItem), page, size), 200);
};
