import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { accountingLedger } from './accounting.context.js';
import { listEmployees, toEmployeeItem } from './employees.domain.js';
import * as routes from './employees.routes.js';

export const getEmployees = operation(accountingLedger, routes.getEmployees, (c, { data }) => {
  const { page, size } = c.req.valid('query');
  return c.json(paginate(listEmployees(data.ledger).map(toEmployeeItem), page, size), 200);
});
