import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { clientRoute } from '../../lib/client-routes.js';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import {
  ConsumerIdParam,
  emptyResponse,
  errorResponses,
  jsonContent,
  secured,
} from '../../platform/openapi.js';
import type { FlowRecord, World } from '../../store/world.js';
import { requireFlow, requireSync } from './syncs.domain.js';
import { FlowEventParams } from './syncs.schemas.js';

/**
 * Routes of syncs and of the consumers' log lines that the official clients call beyond the
 * published document (see lib/client-routes.ts). Like their neighbours, they refuse MCP tokens.
 */

const tags = ['Syncs'];

export const deleteFlow = createRoute({
  method: 'delete',
  path: '/syncs/{syncid}/flows/{flowid}',
  operationId: 'syncs_delete_flow',
  tags,
  summary: 'Remove a flow from a sync',
  ...clientRoute(
    'The flow leaves the sync, and no consumer has it enabled any more (its scheduled runs stop). Its past executions and issues stay, as history.',
  ),
  ...secured('account-wide'),
  request: { params: FlowEventParams },
  responses: {
    204: emptyResponse('The flow was removed'),
    ...errorResponses([401, 404, 422]),
  },
});

export const ConsumerLogOut = z
  .object({
    logid: z.string(),
    type: z
      .string()
      .openapi({ description: 'As sent (the official clients send INFO, WARNING, ERROR or DEBUG)' }),
    message: z.string(),
    when: z.iso.datetime().openapi({ description: 'When the line was recorded' }),
    context: z.unknown().openapi({ description: 'The context sent with the line, or null' }),
  })
  .openapi('ConsumerLogOut', { description: 'A log line recorded for a consumer' });

export const getLogs = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/logs',
  operationId: 'consumers_get_logs',
  tags,
  summary: 'List the log lines recorded for a consumer, newest first',
  ...clientRoute("The lines posted to the same path (the official clients' log calls), newest first."),
  ...secured('consumer'),
  request: { params: ConsumerIdParam },
  responses: {
    200: jsonContent(z.array(ConsumerLogOut), 'The log lines'),
    ...errorResponses([401, 404, 422]),
  },
});

/** Removes a flow and every consumer's setup of it; executions and issues stay as history. */
function removeFlow(world: World, flow: FlowRecord): void {
  for (const [key, enabled] of Object.entries(world.flow_consumers)) {
    if (enabled.flowid === flow.flowid) delete world.flow_consumers[key];
  }
  delete world.flows[flow.flowid];
}

export function registerSyncClientRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(deleteFlow, async (c) => {
    const world = c.get('store').world;
    const { syncid, flowid } = c.req.valid('param');
    const sync = requireSync(world, c.get('principal'), syncid);
    removeFlow(world, requireFlow(world, sync, flowid));
    return c.body(null, 204);
  });

  app.openapi(getLogs, (c) => {
    const world = c.get('store').world;
    const consumer = requireConsumer(world, c.get('principal'), c.req.valid('param').consumer_id);
    const lines = Object.values(world.execution_logs)
      .filter((line) => line.consumerid === consumer.consumerid)
      .map((line) => ({
        logid: line.logid,
        type: line.type,
        message: line.message,
        when: line.created_on,
        context: line.context ?? null,
      }))
      .reverse();
    return c.json(lines, 200);
  });
}
