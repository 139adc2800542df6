import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam } from './accounting.schemas.js';
import { FECItemOut, FecQuery } from './exports.schemas.js';

export const exportFec = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/accounting/export-fec',
  operationId: 'accounting_export_fec',
  tags: ['Accounting'],
  summary: 'Export the posted entries of a period in the FEC format',
  ...secured('consumer', scopesFor('accounting', 'exports', 'read')),
  request: { params: ConsumerIdParam, query: FecQuery },
  responses: {
    200: jsonContent(z.array(FECItemOut), 'One row per line, by date, journal and number'),
    ...errorResponses([400, 401, 404, 422]),
  },
});
