import { errors } from '../../lib/errors.js';
import { own } from '../../lib/own.js';
import { type Page, paginate } from '../../lib/pagination.js';
import { canSee } from '../../platform/access.js';
import type { Principal } from '../../platform/tokens.js';
import type { ExecutionRecord, FlowRecord, SyncRecord, World } from '../../store/world.js';
import { checkFieldValues, fieldDefinitions } from './flow-fields.js';
import {
  closeLocalExecution,
  connectionForFlow,
  openLocalExecution,
  queueExecution,
  type SimServices,
  statusOf,
} from './simulation/engine.js';
import { requireFlow } from './syncs.domain.js';
import type {
  ChainExecutionOut,
  LocalFlowRunInput,
  PostSyncFlowEventInput,
  SyncExecutionOut,
} from './syncs.schemas.js';

/** Executions of flows: their wire shapes, lists, lookups, and the runs an event or the SDK starts. */

export function toChainExecutionItem(execution: ExecutionRecord, now: Date): ChainExecutionOut {
  return {
    id: execution.executionid,
    parentexecutionid: execution.parentexecutionid,
    start: execution.start,
    end: execution.settled ? execution.end : null,
    status: statusOf(execution, now),
  };
}

export const toSyncExecutionItem = (execution: ExecutionRecord, now: Date): SyncExecutionOut => ({
  ...toChainExecutionItem(execution, now),
  consumer_id: execution.consumerid,
  flow_id: execution.flowid ?? '',
});

export interface DateRange {
  date_from?: string | undefined;
  date_to?: string | undefined;
}

/** date_from and date_to bound the start of an execution, both included. */
export function inDateRange(execution: ExecutionRecord, range: DateRange): boolean {
  const start = Date.parse(execution.start);
  if (range.date_from !== undefined && start < Date.parse(range.date_from)) return false;
  if (range.date_to !== undefined && start > Date.parse(range.date_to)) return false;
  return true;
}

/** Newest first; executions that start together by id. */
export const newestFirst = (a: ExecutionRecord, b: ExecutionRecord) =>
  b.start.localeCompare(a.start) || b.executionid.localeCompare(a.executionid);

/** GET /syncs/{syncid}/executions: the sync's flow executions, newest first, paged. */
export function listSyncExecutions(
  world: World,
  principal: Principal,
  sync: SyncRecord,
  query: DateRange & { flowid?: string | undefined; page: number; size: number },
  now: Date,
): Page<SyncExecutionOut> {
  const flowid = query.flowid !== undefined ? requireFlow(world, sync, query.flowid).flowid : undefined;
  const matching = Object.values(world.executions)
    .filter(
      (e) =>
        e.kind === 'flow' &&
        e.syncid === sync.syncid &&
        (flowid === undefined || e.flowid === flowid) &&
        canSee(principal, e) &&
        inDateRange(e, query),
    )
    .sort(newestFirst);
  const page = paginate(matching, query.page, query.size);
  return { ...page, items: page.items.map((e) => toSyncExecutionItem(e, now)) };
}

/** The executions of one consumer's flow, newest first. */
export function listConsumerExecutions(
  world: World,
  consumerid: string,
  flow: FlowRecord,
  range: DateRange,
  now: Date,
): ChainExecutionOut[] {
  return Object.values(world.executions)
    .filter((e) => e.consumerid === consumerid && e.flowid === flow.flowid && inDateRange(e, range))
    .sort(newestFirst)
    .map((e) => toChainExecutionItem(e, now));
}

/**
 * A chain execution as one item: it starts with its first execution, ends with its last one once all
 * are settled, and its status is queued (none started), running, error (any failed) or success.
 */
export function chainSummary(
  chainid: string,
  children: readonly ExecutionRecord[],
  now: Date,
): ChainExecutionOut {
  const items = children.map((e) => toChainExecutionItem(e, now));
  const settled = items.every((i) => i.end !== null);
  const status = settled
    ? items.some((i) => i.status === 'error')
      ? 'error'
      : 'success'
    : items.every((i) => i.status === 'queued')
      ? 'queued'
      : 'running';
  return {
    id: chainid,
    parentexecutionid: null,
    start: items.map((i) => i.start).sort()[0] as string,
    end: settled
      ? ((items
          .map((i) => i.end as string)
          .sort()
          .at(-1) as string) ?? null)
      : null,
    status,
  };
}

/**
 * GET /syncs/{syncid}/flows/{flowid}/executions/{executionid}: an execution of the flow, or a chain
 * execution of it: with `consumerid`, that consumer's execution in the chain; without, the chain
 * as a whole.
 */
export function findExecution(
  world: World,
  principal: Principal,
  flow: FlowRecord,
  executionid: string,
  consumerid: string | undefined,
  now: Date,
): ChainExecutionOut {
  const key = executionid.toLowerCase();
  const consumer = consumerid?.toLowerCase();
  const visible = (e: ExecutionRecord) => e.flowid === flow.flowid && canSee(principal, e);
  const direct = own(world.executions, key);
  if (direct && visible(direct)) {
    if (consumer !== undefined && direct.consumerid !== consumer) throw errors.executionNotFound();
    return toChainExecutionItem(direct, now);
  }
  const children = Object.values(world.executions).filter((e) => e.parentexecutionid === key && visible(e));
  if (children.length === 0) throw errors.executionNotFound();
  if (consumer !== undefined) {
    const child = children.find((e) => e.consumerid === consumer);
    if (!child) throw errors.executionNotFound();
    return toChainExecutionItem(child, now);
  }
  return chainSummary(key, children, now);
}

/** The consumers of the caller for which the flow is enabled, in the order they enabled it. */
function enabledConsumers(world: World, principal: Principal, flow: FlowRecord): string[] {
  return Object.values(world.flow_consumers)
    .filter((r) => {
      const consumer = own(world.consumers, r.consumerid);
      return r.flowid === flow.flowid && r.enabled && consumer !== undefined && canSee(principal, consumer);
    })
    .map((r) => r.consumerid);
}

export interface TriggerOut {
  status: string;
  message: string;
  data: Record<string, unknown> | null;
}

/**
 * POST /syncs/{syncid}/flows/{flowid}/event: the event's data is checked against the fields of the
 * flow's event trigger (422 for a value of the wrong type), then the flow is queued for the
 * consumers named (or, without a list, every consumer that enabled it): a consumer that does not
 * exist for the caller or has not enabled the flow is left out, and none left is a 400.
 */
export function sendCustomEvent(
  services: SimServices,
  principal: Principal,
  sync: SyncRecord,
  flow: FlowRecord,
  input: PostSyncFlowEventInput,
): TriggerOut {
  const world = services.store.world;
  const data = (input.data ?? {}) as Record<string, unknown>;
  const trigger = flow.triggers.find((t) => t.type === 'event');
  if (trigger) checkFieldValues(fieldDefinitions(trigger.definitionFields), data, { requireAll: false });

  const enabled = enabledConsumers(world, principal, flow);
  let targets = enabled;
  const leftOut: string[] = [];
  if (input.consumers !== undefined) {
    targets = [];
    for (const given of input.consumers) {
      const id = given.toLowerCase();
      if (enabled.includes(id) && !targets.includes(id)) targets.push(id);
      else if (!targets.includes(id)) leftOut.push(given);
    }
  }
  if (targets.length === 0) {
    throw errors.noConsumersFound(
      input.consumers === undefined
        ? 'No consumer has enabled this flow'
        : 'None of the consumers given exists with this flow enabled',
    );
  }
  const now = services.clock.now();
  const chainid = services.ids.next('chain-execution');
  const executions = targets.map((consumerid) => {
    const consumer = own(world.consumers, consumerid);
    const enabledRecord = own(world.flow_consumers, `${consumerid}:${flow.flowid}`);
    const execution = queueExecution(services, {
      accountid: sync.accountid,
      envid: sync.envid,
      consumerid,
      kind: 'flow',
      trigger: 'event',
      syncid: sync.syncid,
      flowid: flow.flowid,
      connection: consumer ? connectionForFlow(world, consumerid, sync, enabledRecord) : null,
      parentexecutionid: chainid,
      is_preview: data.is_preview === true,
      data,
      at: now,
    });
    return { consumerid, executionid: execution.executionid };
  });
  return {
    status: 'success',
    message: `The flow was triggered for ${executions.length} consumer${executions.length === 1 ? '' : 's'}`,
    data: {
      chainexecutionid: chainid,
      executions,
      ...(leftOut.length ? { consumers_left_out: leftOut } : {}),
    },
  };
}

/**
 * POST /syncs/{syncid}/flows/{flowid}/local, as the official SDK uses it: START opens a running
 * execution per consumer that enabled the flow, under one chain execution; END closes them as the
 * SDK reports (an error opens an issue per consumer) and settles them at once.
 */
export function reportLocalRun(
  services: SimServices,
  principal: Principal,
  sync: SyncRecord,
  flow: FlowRecord,
  input: LocalFlowRunInput,
): TriggerOut & { published: number } {
  const world = services.store.world;
  const now = services.clock.now();
  if (input.type === 'START') {
    const consumers = enabledConsumers(world, principal, flow);
    if (consumers.length === 0) throw errors.noConsumersFound('No consumer has enabled this flow');
    const chainid = services.ids.next('chain-execution');
    const opened = consumers.map((consumerid) =>
      openLocalExecution(services, {
        accountid: sync.accountid,
        envid: sync.envid,
        consumerid,
        kind: 'flow',
        trigger: 'local',
        syncid: sync.syncid,
        flowid: flow.flowid,
        connection: connectionForFlow(
          world,
          consumerid,
          sync,
          own(world.flow_consumers, `${consumerid}:${flow.flowid}`),
        ),
        parentexecutionid: chainid,
        at: now,
      }),
    );
    return {
      status: 'success',
      message: `A local run was opened for ${opened.length} consumer${opened.length === 1 ? '' : 's'}`,
      data: {
        executionid: opened[0]?.executionid,
        chainexecutionid: chainid,
        executionids: opened.map((e) => e.executionid),
      },
      published: 0,
    };
  }
  const chainid = (
    input.chainexecutionid ??
    (input.executionid
      ? own(world.executions, input.executionid.toLowerCase())?.parentexecutionid
      : undefined) ??
    ''
  ).toLowerCase();
  const run = Object.values(world.executions).filter(
    (e) =>
      e.parentexecutionid === chainid &&
      e.trigger === 'local' &&
      e.flowid === flow.flowid &&
      canSee(principal, e),
  );
  if (!chainid || run.length === 0) throw errors.executionNotFound();
  const failure = input.error
    ? {
        error_code: 'ERROR_LOCAL_EXECUTION',
        level: 'error' as const,
        message: input.error_message ?? input.technical_error_message ?? null,
      }
    : null;
  let published = 0;
  for (const execution of run) published += closeLocalExecution(services, execution, now, failure);
  return {
    status: 'success',
    message: failure ? 'The local run was closed as failed' : 'The local run was closed',
    data: { chainexecutionid: chainid, status: failure ? 'error' : 'success' },
    published,
  };
}
