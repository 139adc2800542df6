import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, secured } from '../../lib/openapi.js';
import { CubeLoadQuery, PublicCubeMetaCube, QueryResponse } from './datalab.schemas.js';

/**
 * MCP scopes of the Datalab operations, as the reference lists them: the datalab scope of every One
 * API rather than the scopes of one (see scopesFor).
 */
const DATALAB_SCOPES = [
  'pos.datalab',
  'commerce.datalab',
  'accounting.datalab',
  'invoicing.datalab',
  'communication.datalab',
  'banking.datalab',
  'custom.datalab',
  'payment.datalab',
  'pms.datalab',
] as const;

export const getCubeSchemas = createRoute({
  method: 'get',
  path: '/datalab/cube-schemas',
  operationId: 'datalab_get_cube_schemas',
  tags: ['Datalab'],
  summary: 'List the cubes the Datalab can query',
  ...secured(DATALAB_SCOPES),
  responses: {
    200: jsonContent(z.array(PublicCubeMetaCube), 'The cubes, their measures and dimensions'),
    ...errorResponses([401]),
  },
});

export const queryDb = createRoute({
  method: 'post',
  path: '/datalab/query-db',
  operationId: 'datalab_query_db',
  tags: ['Datalab'],
  summary: 'Run a query over one cube',
  ...secured(DATALAB_SCOPES),
  request: { body: jsonBody(CubeLoadQuery, 'What to measure, by what, over which rows') },
  responses: {
    200: jsonContent(QueryResponse, 'The answer, column by column'),
    ...errorResponses([400, 401, 422]),
  },
});
