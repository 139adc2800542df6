import { createRoute, z } from '@hono/zod-openapi';
import {
  ConsumerIdParam,
  emptyResponse,
  errorResponses,
  itemOrNull,
  jsonBody,
  jsonContent,
  publicRoute,
  scopesFor,
  secured,
} from '../../platform/openapi.js';
import {
  ApiTransactionLookupOut,
  ConnectionIdParams,
  ConnectionItem,
  LinkCompleted,
  LinkCompletion,
  LinkCompletionForm,
  LinkItem,
  LinkParams,
  PatchConnectionItem,
  PostConnectionItem,
  TransactionParams,
  TransactionQuery,
} from './connections.schemas.js';
import { refusalPageForBrowsers } from './link-page.js';

const tags = ['Connections'];

export const listConnections = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/connections',
  operationId: 'connections_get_connections',
  tags,
  summary: 'List the connections of a consumer (active and inactive)',
  ...secured('consumer', scopesFor('connections', null, 'read')),
  request: { params: ConsumerIdParam },
  responses: {
    200: jsonContent(z.array(ConnectionItem), 'The connections of the consumer'),
    ...errorResponses([401, 404, 422]),
  },
});

export const createConnection = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/connections',
  operationId: 'connections_create_connection',
  tags,
  summary: 'Add a connection and get the link where the end user completes it',
  ...secured('consumer', scopesFor('connections', null, 'write')),
  request: {
    params: ConsumerIdParam,
    body: jsonBody(itemOrNull(PostConnectionItem), 'What to connect (optional)', false),
  },
  responses: {
    200: jsonContent(LinkItem, 'The link for the end user'),
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const updateConnection = createRoute({
  method: 'patch',
  path: '/consumers/{consumer_id}/connections/{connectionid}',
  operationId: 'connections_update_connection',
  tags,
  summary: 'Update a connection and get the link where the end user changes it',
  ...secured('consumer', scopesFor('connections', null, 'write')),
  request: {
    params: ConnectionIdParams,
    body: jsonBody(itemOrNull(PatchConnectionItem), 'What to change (optional)', false),
  },
  responses: {
    200: jsonContent(LinkItem, 'The link for the end user'),
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const deleteConnection = createRoute({
  method: 'delete',
  path: '/consumers/{consumer_id}/connections/{connectionid}',
  operationId: 'connections_delete_connection',
  tags,
  summary: 'Delete a connection',
  ...secured('consumer', scopesFor('connections', null, 'write')),
  request: { params: ConnectionIdParams },
  responses: {
    204: emptyResponse('The connection was deleted'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export const getTransaction = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/connections/{connection_id}/transactions',
  operationId:
    'get_transaction_by_client_request_id_consumers__consumer_id__connections__connection_id__transactions_get',
  tags,
  summary: 'Find a request of a connection by its client request id',
  ...secured('consumer', scopesFor('connections', null, 'read')),
  request: { params: TransactionParams, query: TransactionQuery },
  responses: {
    200: jsonContent(ApiTransactionLookupOut, 'The recorded request'),
    ...errorResponses([401, 404, 422]),
  },
});

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/**
 * The refusals of the link routes: JSON, or for a client that asks for text/html (a browser), a page
 * carrying the same message (see refusalPageForBrowsers).
 */
function orPage<R extends object>(responses: R): R {
  const out: Record<string, unknown> = {};
  const entries = Object.entries(responses) as [string, { description: string; content: object }][];
  for (const [code, response] of entries) {
    out[code] = {
      description: `${response.description}. A client that accepts text/html gets a page with the message.`,
      content: { ...response.content, 'text/html': { schema: z.string() } },
    };
  }
  return out as R;
}

export const getLinkPage = createRoute({
  method: 'get',
  path: '/link/{linkid}',
  operationId: 'sandbox_get_connection_link_page',
  tags,
  summary: "Sandbox page: the end user's form behind a connection link (HTML, no token)",
  ...publicRoute(),
  middleware: [refusalPageForBrowsers] as const,
  request: { params: LinkParams },
  responses: {
    200: html(
      'The page: the integration (or a choice of them) with its logo, one field per credential and one per mandatory post connection',
    ),
    ...orPage(errorResponses([404])),
  },
});

export const completeLink = createRoute({
  method: 'post',
  path: '/link/{linkid}',
  operationId: 'sandbox_complete_connection_link',
  tags,
  summary:
    'Sandbox page: submit the credentials and post connections of a connection link, which makes the connection active',
  ...publicRoute(),
  middleware: [refusalPageForBrowsers] as const,
  request: {
    params: LinkParams,
    body: {
      description: 'The form of the page, or the same as JSON',
      required: false,
      content: {
        'application/json': { schema: LinkCompletion },
        'application/x-www-form-urlencoded': { schema: LinkCompletionForm },
        'multipart/form-data': { schema: LinkCompletionForm },
      },
    },
  },
  responses: {
    200: {
      description: 'JSON request: the active connection. Form: a page saying the connection is made.',
      content: {
        'application/json': { schema: LinkCompleted },
        'text/html': { schema: z.string() },
      },
    },
    303: { description: "Form of a link made to go back: to the consumer's redirect_url" },
    ...orPage(errorResponses([400, 404, 422])),
  },
});
