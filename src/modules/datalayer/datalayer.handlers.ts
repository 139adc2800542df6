import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/context.js';
import { requestServices } from '../../platform/request-context.js';
import {
  disableDatalayer,
  enableDatalayer,
  refreshDatalayer,
  requireDatalayerTarget,
} from './datalayer.domain.js';
import type * as routes from './datalayer.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

const targetOf = (c: Context<AppEnv>, params: { consumer_id: string; connection_id: string }) =>
  requireDatalayerTarget(c.get('store').world, c.get('principal'), params.consumer_id, params.connection_id);

export const enableDatalayerHandler: Handler<'enableDatalayer'> = async (c) => {
  const target = targetOf(c, c.req.valid('param'));
  enableDatalayer(requestServices(c), target, c.req.valid('json'));
  return c.json({}, 200);
};

export const refreshDatalayerHandler: Handler<'refreshDatalayer'> = async (c) => {
  const target = targetOf(c, c.req.valid('param'));
  const execution = refreshDatalayer(requestServices(c), target, c.req.valid('json'));
  return c.json(
    {
      status: 'success',
      message: 'A run of the datalayer sync was queued',
      data: { executionid: execution.executionid, connectionid: target.connection.connectionid },
    },
    200,
  );
};

export const disableDatalayerHandler: Handler<'disableDatalayer'> = async (c) => {
  const target = targetOf(c, c.req.valid('param'));
  disableDatalayer(requestServices(c), target);
  return c.json({}, 200);
};
