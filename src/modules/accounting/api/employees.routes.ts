import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam } from './accounting.schemas.js';
import { EmployeesQuery, ServicePage_EmployeeItem_ } from './employees.schemas.js';

export const getEmployees = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/accounting/employees',
  operationId: 'accounting_get_employees',
  tags: ['Accounting'],
  summary: 'List the employees',
  ...secured('consumer', scopesFor('accounting', 'employees', 'read')),
  request: { params: ConsumerIdParam, query: EmployeesQuery },
  responses: {
    200: jsonContent(ServicePage_EmployeeItem_, 'The employees, by name'),
    ...errorResponses([400, 401, 404, 422]),
  },
});
