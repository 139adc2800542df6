import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import * as handlers from './datastores.handlers.js';
import * as routes from './datastores.routes.js';

export function registerDatastores(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.listDatastores, handlers.listDatastoresHandler);
  app.openapi(routes.listData, handlers.listDataHandler);
  app.openapi(routes.createData, handlers.createDataHandler);
  app.openapi(routes.updateData, handlers.updateDataHandler);
  app.openapi(routes.deleteData, handlers.deleteDataHandler);
}

export { createRows, MAX_DATASTORE_ROWS } from './datastores.domain.js';
export { COLUMN_TYPES, DatastoreDef, DatastoreStatus } from './datastores.schemas.js';
// What other modules use of this one.
export { seedDatastores } from './datastores.seed.js';
