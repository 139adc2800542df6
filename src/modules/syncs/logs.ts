import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { clientRoute } from '../../lib/client-routes.js';
import { errors } from '../../lib/errors.js';
import { own } from '../../lib/own.js';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import {
  admin,
  ConsumerIdParam,
  errorResponses,
  jsonBody,
  jsonContent,
  secured,
} from '../../platform/openapi.js';
import type { ExecutionLogRecord, World } from '../../store/world.js';

/**
 * Log lines sent by a consumer's code (the official SDK's `consumer.logData`), linked to the
 * execution named by the X-Chift-RelatedChainExecutionId header that the SDK sends while it runs a
 * flow locally. The service documents this route for its own use only; the sandbox keeps the lines
 * and shows them through a control endpoint.
 */
export const RELATED_EXECUTION_HEADER = 'x-chift-relatedchainexecutionid';

const ConsumerLog = z
  .object({
    type: z.string().max(50).openapi({ description: 'Kind of line, e.g. info, warning, error' }),
    message: z.string().max(10_000),
    context: z.unknown().optional().openapi({ description: 'Any JSON value' }),
  })
  .openapi('ConsumerLog');

const SimpleResponseModel = z
  .object({ status: z.string(), message: z.string(), data: z.unknown().optional() })
  .openapi('SimpleResponseModel');

const ExecutionLog = z
  .object({
    logid: z.string(),
    consumerid: z.string(),
    related_executionid: z.string().nullable(),
    type: z.string(),
    message: z.string(),
    context: z.unknown(),
    created_on: z.iso.datetime(),
  })
  .openapi('SandboxExecutionLog');

export const postLogs = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/logs',
  operationId: 'consumers_post_logs',
  tags: ['Syncs'],
  summary: 'Record log lines of a consumer, linked to the related chain execution if one is named',
  ...clientRoute('GET on the same path lists them.'),
  ...secured('consumer'),
  request: {
    params: ConsumerIdParam,
    body: jsonBody(z.array(ConsumerLog).max(1000), 'The log lines'),
  },
  responses: {
    200: jsonContent(SimpleResponseModel, 'The lines were recorded'),
    ...errorResponses([401, 404, 422]),
  },
});

export const listLogs = createRoute({
  method: 'get',
  path: '/__sandbox/logs',
  operationId: 'sandbox_list_execution_logs',
  tags: ['Sandbox control'],
  summary: 'Log lines sent by consumers (the SDK logData), newest first',
  ...admin,
  request: {
    query: z.object({
      consumerid: z.uuid().optional(),
      executionid: z.uuid().optional().openapi({ description: 'Lines linked to this execution or chain' }),
    }),
  },
  responses: { 200: jsonContent(z.array(ExecutionLog), 'The lines'), ...errorResponses([401, 422]) },
});

/** The execution a header names must be one of the consumer's (or a chain holding one). */
function relatedExecution(world: World, consumerid: string, header: string | undefined): string | null {
  if (!header) return null;
  const id = header.trim().toLowerCase();
  const run = own(world.executions, id);
  if (run?.consumerid === consumerid) return id;
  const inChain = Object.values(world.executions).some(
    (execution) => execution.parentexecutionid === id && execution.consumerid === consumerid,
  );
  if (inChain) return id;
  throw errors.executionNotFound();
}

export function registerLogs(app: OpenAPIHono<AppEnv>): void {
  app.openapi(postLogs, async (c) => {
    const store = c.get('store');
    const principal = c.get('principal');
    const ids = c.get('ids');
    const clock = c.get('clock');
    const consumer = requireConsumer(store.world, principal, c.req.valid('param').consumer_id);
    const related = relatedExecution(
      store.world,
      consumer.consumerid,
      c.req.header(RELATED_EXECUTION_HEADER),
    );
    const lines = c.req.valid('json');
    for (const line of lines) {
      const record: ExecutionLogRecord = {
        logid: ids.next('execution-log'),
        consumerid: consumer.consumerid,
        related_executionid: related,
        type: line.type,
        message: line.message,
        context: line.context ?? null,
        created_on: clock.now().toISOString(),
      };
      store.world.execution_logs[record.logid] = record;
    }
    return c.json(
      { status: 'success', message: `${lines.length} log lines recorded`, data: { count: lines.length } },
      200,
    );
  });

  app.openapi(listLogs, (c) => {
    const { consumerid, executionid } = c.req.valid('query');
    const lines = Object.values(c.get('store').world.execution_logs)
      .filter(
        (l) =>
          (consumerid === undefined || l.consumerid === consumerid) &&
          (executionid === undefined || l.related_executionid === executionid),
      )
      .reverse();
    return c.json(lines, 200);
  });
}
