import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  MiscellaneousOperationIn,
  MiscellaneousOperationOut,
  MiscellaneousOperationsQuery,
  OperationIdParam,
  ServicePage_MiscellaneousOperationOut_,
} from './miscellaneous.schemas.js';

const path = '/consumers/{consumer_id}/accounting/miscellaneous-operation';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);

export const getMiscellaneousOperations = createRoute({
  method: 'get',
  path,
  operationId: 'accounting_get_miscellaneous_operations',
  tags,
  summary: 'List the miscellaneous operations',
  deprecated: true,
  ...secured('consumer', scopesFor('accounting', 'miscellaneous_operations', 'read')),
  request: { params: ConsumerIdParam, query: MiscellaneousOperationsQuery },
  responses: {
    200: jsonContent(ServicePage_MiscellaneousOperationOut_, 'The operations, by date and number'),
    ...errors,
  },
});

export const createMiscellaneousOperation = createRoute({
  method: 'post',
  path,
  operationId: 'accounting_create_miscellaneous_operation',
  tags,
  summary: 'Book a miscellaneous operation',
  deprecated: true,
  ...secured('consumer', scopesFor('accounting', 'miscellaneous_operations', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(MiscellaneousOperationIn, 'The operation'),
  },
  responses: { 200: jsonContent(MiscellaneousOperationOut, 'The booked operation'), ...errors },
});

export const getMiscellaneousOperation = createRoute({
  method: 'get',
  path: `${path}/{operation_id}`,
  operationId: 'accounting_get_miscellaneous_operation',
  tags,
  summary: 'Get one miscellaneous operation',
  deprecated: true,
  ...secured('consumer', scopesFor('accounting', 'miscellaneous_operations', 'read')),
  request: { params: OperationIdParam, query: FolderQuery },
  responses: { 200: jsonContent(MiscellaneousOperationOut, 'The operation'), ...errors },
});
