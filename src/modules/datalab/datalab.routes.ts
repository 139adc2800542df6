import { createRoute, z } from '@hono/zod-openapi';
import { newerReferenceOperation } from '../../lib/client-routes.js';
import { errorResponses, jsonBody, jsonContent, secured } from '../../platform/openapi.js';
import { CubeJoinQuery, CubeLoadQuery, PublicCubeMetaCube, QueryResponse } from './datalab.schemas.js';

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
  ...secured('account', DATALAB_SCOPES),
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
  ...secured('account', DATALAB_SCOPES),
  request: { body: jsonBody(CubeLoadQuery, 'What to measure, by what, over which rows') },
  responses: {
    200: jsonContent(QueryResponse, 'The answer, column by column'),
    ...errorResponses([400, 401, 422]),
  },
});

/**
 * The scopes of the joined query, as the newer published version lists them: the datalab scopes
 * above, and the same scope under the number of each One API.
 */
const DATALAB_JOIN_SCOPES = [
  ...DATALAB_SCOPES,
  '300.datalab',
  '400.datalab',
  '200.datalab',
  '500.datalab',
  '600.datalab',
  '999.datalab',
  '700.datalab',
  '800.datalab',
] as const;

export const queryGroupsJoin = createRoute({
  method: 'post',
  path: '/datalab/query-groups-join',
  operationId: 'datalab_query_groups_join',
  tags: ['Datalab'],
  summary: 'Run several queries and join their answers on aligned dimensions',
  ...newerReferenceOperation(
    '2026-08-21',
    'Each query runs as POST /datalab/query-db runs it (a refusal names the query: queries[i]); the answers are full-outer joined on the dimensions each entry of align names, one per query (null where a query lacks the axis), which share one alignAxis (GET /datalab/cube-schemas) that names the joined column. Axis columns first, ascending; then the other columns of each answer, a name already taken suffixed with the index of its query.',
  ),
  ...secured('account', DATALAB_JOIN_SCOPES),
  request: { body: jsonBody(CubeJoinQuery, 'The queries, and the dimensions to join them on') },
  responses: {
    200: jsonContent(QueryResponse, 'The joined answer, column by column'),
    ...errorResponses([400, 401, 422]),
  },
});
