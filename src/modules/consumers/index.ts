import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { registerConsumerClientRoutes } from './consumers.client-routes.js';
import * as handlers from './consumers.handlers.js';
import * as routes from './consumers.routes.js';

export function registerConsumers(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.listConsumers, handlers.listConsumers);
  app.openapi(routes.createConsumer, handlers.createConsumerHandler);
  app.openapi(routes.getConsumer, handlers.getConsumer);
  app.openapi(routes.updateConsumer, handlers.updateConsumerHandler);
  app.openapi(routes.deleteConsumer, handlers.deleteConsumerHandler);
  registerConsumerClientRoutes(app);
}

export { searchConsumers } from './consumer-search.js';
// What other modules use of this one.
export { createConsumer } from './consumers.domain.js';
export { PostConsumerItem } from './consumers.schemas.js';
