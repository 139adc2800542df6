import type { RouteHandler } from '@hono/zod-openapi';
import { visibleConsumers } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { cubesOf } from './datalab.cubes.js';
import { cubeSchemas, type QueryContext, runJoinQuery, runQuery } from './datalab.domain.js';
import type * as routes from './datalab.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getCubeSchemas: Handler<'getCubeSchemas'> = (c) =>
  c.json(cubeSchemas(cubesOf(c.get('verticals'))), 200);

/**
 * What a query reads: the consumers the caller reaches (a restricted key's consumers, an MCP token's
 * consumer). POS datasets read on the way first complete their due orders, as a POS request would.
 */
function queryContext(
  c: Parameters<Handler<'queryDb'>>[0] | Parameters<Handler<'queryGroupsJoin'>>[0],
): QueryContext {
  const store = c.get('store');
  const world = store.world;
  return {
    now: c.get('clock').now(),
    cubes: cubesOf(c.get('verticals')),
    consumers: visibleConsumers(world, c.get('principal')),
    source: { world, store, catalogue: c.get('catalogue'), services: c.var },
  };
}

export const queryDb: Handler<'queryDb'> = async (c) => {
  return c.json(runQuery(c.req.valid('json'), queryContext(c)), 200);
};

/** Several queries over the same consumers, their answers joined on the aligned dimensions. */
export const queryGroupsJoin: Handler<'queryGroupsJoin'> = async (c) => {
  return c.json(runJoinQuery(c.req.valid('json'), queryContext(c)), 200);
};
