import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import * as handlers from './datalayer.handlers.js';
import * as routes from './datalayer.routes.js';

export function registerDatalayer(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.enableDatalayer, handlers.enableDatalayerHandler);
  app.openapi(routes.refreshDatalayer, handlers.refreshDatalayerHandler);
  app.openapi(routes.disableDatalayer, handlers.disableDatalayerHandler);
}
