import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Clock } from '../../lib/clock.js';
import { errors, ValidationFailure } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import type { AppEnv } from '../../platform/context.js';
import { admin, errorResponses, jsonBody, jsonContent } from '../../platform/openapi.js';
import type { ExecutionRecord, FailurePlanRecord, World } from '../../store/world.js';
import { statusOf } from './simulation/engine.js';

/**
 * Control endpoints of the automation: scripted failures (the next N executions of a flow, of a
 * consumer, or of both, fail with an error code) and a view of the executions with their planned
 * timeline.
 */

const tags = ['Sandbox control'];

const Level = z.enum(['error', 'warning']);

const FailurePlan = z
  .object({
    failureid: z.string().openapi({ description: 'Id of the scripted failure' }),
    accountid: z.string(),
    envid: z.string(),
    flowid: z.string().nullable().openapi({ description: 'Only executions of this flow (null: any flow)' }),
    consumerid: z
      .string()
      .nullable()
      .openapi({ description: 'Only executions for this consumer (null: any)' }),
    remaining: z.number().int().openapi({ description: 'Executions still to fail' }),
    error_code: z.string(),
    level: Level,
    message: z.string().nullable(),
    created_on: z.iso.datetime(),
  })
  .openapi('SandboxFailurePlan');

export const FailurePlanInput = z
  .object({
    flowid: z.uuid().optional().openapi({ description: 'Fail executions of this flow' }),
    consumerid: z.uuid().optional().openapi({
      description:
        'Fail executions for this consumer (flows and datalayer runs); with flowid, both must match',
    }),
    count: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(1)
      .openapi({ description: 'How many executions; default 1' }),
    error_code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,99}$/, 'An error code is upper case letters, digits and underscores')
      .openapi({ description: 'The error code of the issue, e.g. ERROR_AUTHENTICATION_FAILED' }),
    level: Level.default('error').openapi({ description: 'Level of the issue; default error' }),
    message: z.string().max(2000).optional().openapi({ description: 'The message of the issue events' }),
  })
  .refine((v) => v.flowid !== undefined || v.consumerid !== undefined, {
    message: 'Give a flowid, a consumerid, or both',
  })
  .openapi('SandboxFailurePlanInput');

const Execution = z
  .object({
    executionid: z.string(),
    parentexecutionid: z.string().nullable(),
    kind: z.enum(['flow', 'datalayer']),
    trigger: z.string().openapi({ description: 'event, timer, local, refresh or schedule' }),
    accountid: z.string(),
    envid: z.string(),
    consumerid: z.string(),
    syncid: z.string().nullable(),
    flowid: z.string().nullable(),
    connectionid: z.string().nullable().openapi({ description: 'The connection it uses' }),
    status: z.string().openapi({ description: 'queued, running, success or error, at the sandbox time' }),
    queued_at: z.iso.datetime(),
    start: z.iso.datetime(),
    end: z.iso.datetime().nullable().openapi({ description: 'Planned end (null: a local run still open)' }),
    outcome: z.enum(['success', 'error']).nullable().openapi({ description: 'Planned outcome' }),
    error_code: z.string().nullable(),
    settled: z.boolean().openapi({ description: 'Whether its end was processed (events, issues)' }),
  })
  .openapi('SandboxExecution');

const ExecutionsQuery = z.object({
  state: z
    .enum(['pending', 'settled', 'all'])
    .optional()
    .openapi({
      param: { name: 'state', in: 'query' },
      description: 'pending (not settled), settled, or all',
    }),
  syncid: z
    .string()
    .optional()
    .openapi({ param: { name: 'syncid', in: 'query' } }),
  consumerid: z
    .string()
    .optional()
    .openapi({ param: { name: 'consumerid', in: 'query' } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .openapi({
      param: { name: 'limit', in: 'query' },
      type: 'integer',
      description: 'Most recent first; default 100',
    }),
});

export const armFailure = createRoute({
  method: 'post',
  path: '/__sandbox/failures',
  operationId: 'sandbox_arm_failure',
  tags,
  summary: 'Make the next executions of a flow or of a consumer fail with an error code',
  ...admin,
  request: { body: jsonBody(FailurePlanInput, 'What to fail, how many times, and how') },
  responses: {
    200: jsonContent(FailurePlan, 'The armed failure'),
    ...errorResponses([401, 404, 422]),
  },
});

export const listFailures = createRoute({
  method: 'get',
  path: '/__sandbox/failures',
  operationId: 'sandbox_list_failures',
  tags,
  summary: 'List the armed failures',
  ...admin,
  responses: { 200: jsonContent(z.array(FailurePlan), 'The armed failures'), ...errorResponses([401]) },
});

export const clearFailures = createRoute({
  method: 'delete',
  path: '/__sandbox/failures',
  operationId: 'sandbox_clear_failures',
  tags,
  summary: 'Disarm every scripted failure',
  ...admin,
  responses: {
    200: jsonContent(z.object({ removed: z.number().int() }).openapi('SandboxFailuresCleared'), 'How many'),
    ...errorResponses([401]),
  },
});

export const listExecutions = createRoute({
  method: 'get',
  path: '/__sandbox/executions',
  operationId: 'sandbox_list_executions',
  tags,
  summary: 'List executions with their planned timeline, most recent first',
  ...admin,
  request: { query: ExecutionsQuery },
  responses: { 200: jsonContent(z.array(Execution), 'The executions'), ...errorResponses([401, 422]) },
});

const toFailurePlan = (plan: FailurePlanRecord) => ({ ...plan });

function toExecution(execution: ExecutionRecord, now: Date) {
  return {
    executionid: execution.executionid,
    parentexecutionid: execution.parentexecutionid,
    kind: execution.kind,
    trigger: execution.trigger,
    accountid: execution.accountid,
    envid: execution.envid,
    consumerid: execution.consumerid,
    syncid: execution.syncid,
    flowid: execution.flowid,
    connectionid: execution.used_connectionid,
    status: statusOf(execution, now),
    queued_at: execution.queued_at,
    start: execution.start,
    end: execution.end,
    outcome: execution.outcome,
    error_code: execution.failure?.error_code ?? null,
    settled: execution.settled,
  };
}

/** The owner (account and environment) of a scripted failure, from its flow and its consumer. */
function ownerOf(world: World, flowid: string | undefined, consumerid: string | undefined) {
  let owner: { accountid: string; envid: string } | undefined;
  if (flowid !== undefined) {
    const flow = own(world.flows, flowid.toLowerCase());
    const sync = flow ? own(world.syncs, flow.syncid) : undefined;
    if (!sync) throw errors.flowNotFound();
    owner = { accountid: sync.accountid, envid: sync.envid };
  }
  if (consumerid !== undefined) {
    const consumer = own(world.consumers, consumerid.toLowerCase());
    if (!consumer) throw errors.consumerNotFound();
    if (owner && (owner.accountid !== consumer.accountid || owner.envid !== consumer.envid)) {
      throw new ValidationFailure([
        {
          loc: ['body', 'consumerid'],
          msg: 'The consumer and the flow belong to different environments',
          type: 'value_error',
        },
      ]);
    }
    owner = { accountid: consumer.accountid, envid: consumer.envid };
  }
  return owner as { accountid: string; envid: string };
}

/** Arms a scripted failure (POST /__sandbox/failures, and the console's form). */
export function armFailurePlan(
  world: World,
  deps: { ids: IdSource; clock: Clock },
  input: z.output<typeof FailurePlanInput>,
): FailurePlanRecord {
  const owner = ownerOf(world, input.flowid, input.consumerid);
  const plan: FailurePlanRecord = {
    failureid: deps.ids.next('failure-plan'),
    ...owner,
    flowid: input.flowid?.toLowerCase() ?? null,
    consumerid: input.consumerid?.toLowerCase() ?? null,
    remaining: input.count,
    error_code: input.error_code,
    level: input.level,
    message: input.message ?? null,
    created_on: deps.clock.now().toISOString(),
  };
  world.failure_plans[plan.failureid] = plan;
  return plan;
}

/** Disarms every scripted failure; answers how many there were. */
export function clearFailurePlans(world: World): number {
  const removed = Object.keys(world.failure_plans).length;
  world.failure_plans = {};
  return removed;
}

export function registerAutomationControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(armFailure, async (c) => {
    const deps = { ids: c.get('ids'), clock: c.get('clock') };
    const input = c.req.valid('json');
    const plan = await c.get('store').transact((write) => armFailurePlan(write.world, deps, input));
    return c.json(toFailurePlan(plan), 200);
  });

  app.openapi(listFailures, (c) =>
    c.json(Object.values(c.get('store').world.failure_plans).map(toFailurePlan), 200),
  );

  app.openapi(clearFailures, async (c) =>
    c.json({ removed: await c.get('store').transact((write) => clearFailurePlans(write.world)) }, 200),
  );

  app.openapi(listExecutions, (c) => {
    const store = c.get('store');
    const clock = c.get('clock');
    const query = c.req.valid('query');
    const state = query.state ?? 'all';
    const now = clock.now();
    const items = Object.values(store.world.executions)
      .filter(
        (e) =>
          (state === 'all' || (state === 'settled') === e.settled) &&
          (query.syncid === undefined || e.syncid === query.syncid.toLowerCase()) &&
          (query.consumerid === undefined || e.consumerid === query.consumerid.toLowerCase()),
      )
      .sort((a, b) => b.queued_at.localeCompare(a.queued_at) || b.executionid.localeCompare(a.executionid))
      .slice(0, query.limit)
      .map((e) => toExecution(e, now));
    return c.json(items, 200);
  });
}
