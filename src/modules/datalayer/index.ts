import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { nullableBodyHook } from '../../platform/openapi.js';
import * as handlers from './datalayer.handlers.js';
import * as routes from './datalayer.routes.js';

export function registerDatalayer(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.enableDatalayer, handlers.enableDatalayerHandler, nullableBodyHook);
  app.openapi(routes.refreshDatalayer, handlers.refreshDatalayerHandler, nullableBodyHook);
  app.openapi(routes.disableDatalayer, handlers.disableDatalayerHandler);
}
