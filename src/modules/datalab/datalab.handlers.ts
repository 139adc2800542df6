import type { RouteHandler } from '@hono/zod-openapi';
import { visibleConsumers } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { rawOf } from '../../store/unit-of-work.js';
import { cubesInTurns, cubesOf } from './datalab.cubes.js';
import { cubeSchemas, type QueryContext, runJoinQuery, runQuery } from './datalab.domain.js';
import type * as routes from './datalab.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getCubeSchemas: Handler<'getCubeSchemas'> = (c) =>
  c.json(cubeSchemas(cubesOf(c.get('verticals'))), 200);

/**
 * What a query reads: the consumers the caller reaches (a restricted key's consumers, an MCP token's
 * consumer), as of the sandbox clock, within the app's budget of one request.
 */
async function queryContext(
  c: Parameters<Handler<'queryDb'>>[0] | Parameters<Handler<'queryGroupsJoin'>>[0],
): Promise<QueryContext> {
  const cubes = await cubesInTurns(c.get('verticals'));
  const store = c.get('store');
  // The plain world, not the write's tracking view: a query writes nothing.
  const world = rawOf(store.world);
  return {
    now: c.get('clock').now(),
    cubes,
    consumers: visibleConsumers(world, c.get('principal')),
    source: { world, store, catalogue: c.get('catalogue') },
    budget: c.get('config').datalabBudget,
  };
}

export const queryDb: Handler<'queryDb'> = async (c) => {
  return c.json(await runQuery(c.req.valid('json'), await queryContext(c)), 200);
};

/** Several queries over the same consumers, their answers joined on the aligned dimensions. */
export const queryGroupsJoin: Handler<'queryGroupsJoin'> = async (c) => {
  return c.json(await runJoinQuery(c.req.valid('json'), await queryContext(c)), 200);
};
