import type { OpenAPIHono } from '@hono/zod-openapi';
import type { QueryBudget } from '../../lib/budgets.js';
import type { AppEnv } from '../../platform/context.js';
import * as handlers from './datalab.handlers.js';
import * as routes from './datalab.routes.js';

/**
 * The Datalab: account-level analytics over the sandbox's own data (consumers, connections, POS and
 * eCommerce orders, PMS invoices), queried Cube-style. The cubes are listed in datalab.cubes.ts (a
 * vertical's own cube is in its folder, <vertical>.cube.ts), the query engine in datalab.query.ts
 * and datalab.join.ts (see datalab.domain.ts).
 */
export function registerDatalab(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getCubeSchemas, handlers.getCubeSchemas);
  app.openapi(routes.queryDb, handlers.queryDb);
  app.openapi(routes.queryGroupsJoin, handlers.queryGroupsJoin);
}

declare module '../../platform/context.js' {
  interface SandboxConfig {
    /** What one Datalab request may spend, where it differs from DATALAB_BUDGET (tests lower it). */
    datalabBudget?: Partial<QueryBudget>;
  }
}
