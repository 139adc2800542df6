import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import { servicePage } from '../../lib/pagination.js';
import type { AppEnv } from '../../platform/context.js';
import { emptyResponse, errorResponses, jsonContent } from '../../platform/openapi.js';
import { admin } from '../sandbox.routes.js';
import { RequestEntrySchema, RequestIdParam, RequestsQuery, tags } from './schemas.js';

export const listRequests = createRoute({
  method: 'get',
  path: '/__sandbox/requests',
  operationId: 'sandbox_list_requests',
  tags,
  summary:
    'List the recorded requests, newest first (control endpoints, /docs and /openapi.json are not recorded)',
  ...admin,
  request: { query: RequestsQuery },
  responses: {
    200: jsonContent(servicePage(RequestEntrySchema, 'SandboxRequest'), 'One page of recorded requests'),
    ...errorResponses([401, 422]),
  },
});

export const getRequest = createRoute({
  method: 'get',
  path: '/__sandbox/requests/{id}',
  operationId: 'sandbox_get_request',
  tags,
  summary: 'Get one recorded request',
  ...admin,
  request: { params: RequestIdParam },
  responses: {
    200: jsonContent(RequestEntrySchema, 'The recorded request'),
    ...errorResponses([401, 404, 422]),
  },
});

export const clearRequests = createRoute({
  method: 'delete',
  path: '/__sandbox/requests',
  operationId: 'sandbox_clear_requests',
  tags,
  summary: 'Forget every recorded request',
  ...admin,
  responses: { 204: emptyResponse('The journal is empty'), ...errorResponses([401]) },
});

export function registerRequestControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listRequests, async (c) => {
    const { page, size, ...filter } = c.req.valid('query');
    return c.json(await c.get('requests').pageInSlices(filter, page, size), 200);
  });

  app.openapi(getRequest, (c) => {
    const entry = c.get('requests').get(c.req.valid('param').id);
    if (!entry) throw errors.requestNotFound();
    return c.json(entry, 200);
  });

  app.openapi(clearRequests, (c) => {
    c.get('requests').clear();
    return c.body(null, 204);
  });
}
