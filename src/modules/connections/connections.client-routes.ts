import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { clientRoute } from '../../lib/client-routes.js';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { errorResponses, jsonContent, scopesFor, secured } from '../../platform/openapi.js';
import { requireConnection, toConnectionItem } from './connections.domain.js';
import { ConnectionIdParams, ConnectionItem } from './connections.schemas.js';

/** Connection routes the official clients call beyond the published document (see lib/client-routes.ts). */

export const getConnection = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/connections/{connectionid}',
  operationId: 'connections_get_connection',
  tags: ['Connections'],
  summary: 'Get one connection of a consumer (active or inactive)',
  ...clientRoute(
    "The connection as the list of the consumer's connections shows it. A connectionid that is not a uuid answers 400, a connection that is not the consumer's 404.",
  ),
  ...secured('consumer', scopesFor('connections', null, 'read')),
  request: { params: ConnectionIdParams },
  responses: {
    200: jsonContent(ConnectionItem, 'The connection'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export function registerConnectionClientRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getConnection, (c) => {
    const { consumer_id, connectionid } = c.req.valid('param');
    const world = c.get('store').world;
    const consumer = requireConsumer(world, c.get('principal'), consumer_id);
    const connection = requireConnection(world, consumer, connectionid);
    return c.json(toConnectionItem(connection, c.get('catalogue'), c.get('clock').now().toISOString()), 200);
  });
}
