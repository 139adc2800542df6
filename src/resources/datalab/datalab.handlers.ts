import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { visibleConsumers } from '../consumers/consumers.domain.js';
import { cubeSchemas, runQuery } from './datalab.domain.js';
import type * as routes from './datalab.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getCubeSchemas: Handler<'getCubeSchemas'> = (c) => c.json(cubeSchemas(), 200);

/**
 * Runs a query over the consumers the caller reaches (a restricted key's consumers, an MCP token's
 * consumer). POS datasets read on the way first complete their due orders, as a POS request would.
 */
export const queryDb: Handler<'queryDb'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const catalogue = c.get('catalogue');
  const clock = c.get('clock');
  const world = store.world;
  const result = runQuery(c.req.valid('json'), {
    now: clock.now(),
    consumers: visibleConsumers(world, principal),
    source: {
      world,
      store,
      catalogue,
      services: c.var,
    },
  });
  return c.json(result, 200);
};
