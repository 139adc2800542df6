import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { registerConnectionClientRoutes } from './connections.client-routes.js';
import * as handlers from './connections.handlers.js';
import * as routes from './connections.routes.js';

export function registerConnections(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.listConnections, handlers.listConnections);
  app.openapi(routes.createConnection, handlers.createConnectionHandler);
  app.openapi(routes.updateConnection, handlers.updateConnectionHandler);
  app.openapi(routes.deleteConnection, handlers.deleteConnectionHandler);
  app.openapi(routes.getTransaction, handlers.getTransaction);
  registerConnectionClientRoutes(app);
  app.openapi(routes.getLinkPage, handlers.getLinkPage);
  app.openapi(routes.completeLink, handlers.completeLinkHandler);
}

export {
  applyLifeEvent,
  LIFE_EVENTS,
  type LifeEvent,
  lifeRefusal,
} from './connection-life.js';
// What other modules use of this one.
export {
  connectionCredentials,
  createConnection,
  mandatoryPostConnections,
  requireActiveIntegration,
} from './connections.domain.js';
export type { PostConnectionInput } from './connections.schemas.js';
