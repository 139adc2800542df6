import { createRoute } from '@hono/zod-openapi';
import { errorResponses, itemOrNull, jsonBody, jsonContent, secured } from '../../platform/openapi.js';
import { EmptyObject, TriggerResponse } from '../syncs/index.js';
import { DatalayerEnableBody, DatalayerParams, DatalayerRefreshBody } from './datalayer.schemas.js';

const tags = ['Datalayer'];

export const enableDatalayer = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/connections/{connection_id}/enable_datalayer',
  operationId: 'datalayer_enable',
  tags,
  summary: 'Enable the datalayer sync of a connection (it refreshes daily, and once at once)',
  ...secured('consumer'),
  request: {
    params: DatalayerParams,
    body: jsonBody(itemOrNull(DatalayerEnableBody), 'From when to sync (optional)', false),
  },
  responses: {
    200: jsonContent(EmptyObject, 'The datalayer sync is enabled'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export const refreshDatalayer = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/connections/{connection_id}/refresh_datalayer',
  operationId: 'datalayer_refresh',
  tags,
  summary: 'Run the datalayer sync of a connection now',
  ...secured('consumer'),
  request: {
    params: DatalayerParams,
    body: jsonBody(itemOrNull(DatalayerRefreshBody), 'Options of the run (optional)', false),
  },
  responses: {
    200: jsonContent(TriggerResponse, 'The execution queued'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export const disableDatalayer = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/connections/{connection_id}/disable_datalayer',
  operationId: 'datalayer_disable',
  tags,
  summary: 'Disable the datalayer sync of a connection',
  ...secured('consumer'),
  request: { params: DatalayerParams },
  responses: {
    200: jsonContent(EmptyObject, 'The datalayer sync is disabled'),
    ...errorResponses([400, 401, 404, 422]),
  },
});
