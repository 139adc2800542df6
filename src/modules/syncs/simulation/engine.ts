import { createHash } from 'node:crypto';
import { own } from '../../../lib/own.js';
import type { Services } from '../../../platform/context.js';
import { connectionsOfConsumer } from '../../../store/indexes.js';
import type {
  ConnectionRecord,
  ExecutionRecord,
  FailurePlanRecord,
  FlowConsumerRecord,
  SyncRecord,
  World,
} from '../../../store/world.js';
import { publishEvent } from '../../webhooks/index.js';
import { type CronSchedule, dueRuns, nextRun, parseCron } from './cron.js';
import { closeIssuesAfter, recordFailure } from './issues.js';

/**
 * The simulation engine: executions that run on the sandbox clock. An execution is planned when it
 * is queued: it waits QUEUE_SECONDS, then runs for 20 to 60 seconds (derived from its id, so the same
 * requests give the same timeline), and its outcome is decided then (success, unless a scripted
 * failure was armed for it). The plan is stored in the world; the tick (after every move of the
 * clock) settles each execution whose end has passed exactly once: it publishes its events and opens,
 * updates or closes issues. The tick also starts the scheduled runs: timer flows on their cron, and
 * enabled datalayer syncs once a day.
 */

export type SimServices = Pick<Services, 'store' | 'clock' | 'ids' | 'ticker' | 'catalogue'>;

export const QUEUE_SECONDS = 5;
export const MIN_RUN_SECONDS = 20;
export const MAX_RUN_SECONDS = 60;
/** After a long jump of the clock, at most this many missed scheduled runs are made up per schedule. */
export const MAX_CATCH_UP_RUNS = 5;
/** When an enabled datalayer sync refreshes by itself (UTC). */
export const DATALAYER_SCHEDULE = '0 3 * * *';

export type ExecutionStatus = 'queued' | 'running' | 'success' | 'error';

/** How long an execution runs, in seconds: fixed by its id. */
export function runSeconds(executionid: string): number {
  const n = createHash('sha256').update(executionid).digest().readUInt32BE(0);
  return MIN_RUN_SECONDS + (n % (MAX_RUN_SECONDS - MIN_RUN_SECONDS + 1));
}

/** The status at `now`: the outcome shows once the execution is settled (its side effects done). */
export function statusOf(execution: ExecutionRecord, now: Date): ExecutionStatus {
  if (execution.settled && execution.outcome) return execution.outcome;
  return now.getTime() < Date.parse(execution.start) ? 'queued' : 'running';
}

const iso = (ms: number) => new Date(ms).toISOString();

export interface QueueInput {
  accountid: string;
  envid: string;
  consumerid: string;
  kind: ExecutionRecord['kind'];
  trigger: ExecutionRecord['trigger'];
  syncid: string | null;
  flowid: string | null;
  connection: ConnectionRecord | null;
  parentexecutionid: string | null;
  is_preview?: boolean;
  data?: Record<string, unknown> | null;
  /** When it is queued (a scheduled run: its time on the schedule). */
  at: Date;
}

const matchesPlan = (plan: FailurePlanRecord, input: QueueInput) =>
  plan.remaining > 0 &&
  plan.accountid === input.accountid &&
  plan.envid === input.envid &&
  (plan.flowid === null || plan.flowid === input.flowid) &&
  (plan.consumerid === null || plan.consumerid === input.consumerid);

/** Takes one armed failure that applies to the execution, the oldest first; null when none. */
export function takeArmedFailure(world: World, input: QueueInput): ExecutionRecord['failure'] {
  const plan = Object.values(world.failure_plans).find((p) => matchesPlan(p, input));
  if (!plan) return null;
  plan.remaining -= 1;
  if (plan.remaining <= 0) delete world.failure_plans[plan.failureid];
  return { error_code: plan.error_code, level: plan.level, message: plan.message };
}

/**
 * How the connection an execution uses makes it fail when nothing was armed: its credentials expired
 * (the connection is inactive), or its software or local agent cannot be reached when it starts (see
 * connections/connection-life.ts). Null when it is usable. Asked when the run is planned, and again
 * when it ends (the connection may have changed in between: a run planned a day ahead).
 */
export function connectionFailure(
  connection: ConnectionRecord | null,
  start: string,
): ExecutionRecord['failure'] {
  if (!connection) return null;
  if (connection.status !== 'active' && connection.updated_on <= start) {
    return {
      error_code: 'ERROR_AUTHENTICATION_FAILED',
      level: 'error',
      message: 'The software refused the credentials of the connection; the end user must reconnect.',
    };
  }
  const outage = connection.outage;
  if (outage && outage.since <= start && (outage.until === null || start < outage.until)) {
    return {
      error_code: 'ERROR_TIMEOUT',
      level: 'error',
      message:
        outage.kind === 'agent_down'
          ? 'The local agent of the connection did not answer.'
          : 'The software of the connection could not be reached.',
    };
  }
  return null;
}

/** Plans an execution and stores it. */
export function queueExecution(services: SimServices, input: QueueInput): ExecutionRecord {
  const world = services.store.world;
  const executionid = services.ids.next('execution');
  const queued = input.at.getTime();
  const start = queued + QUEUE_SECONDS * 1000;
  const failure = takeArmedFailure(world, input) ?? connectionFailure(input.connection, iso(start));
  const record: ExecutionRecord = {
    executionid,
    parentexecutionid: input.parentexecutionid,
    accountid: input.accountid,
    envid: input.envid,
    consumerid: input.consumerid,
    kind: input.kind,
    trigger: input.trigger,
    syncid: input.syncid,
    flowid: input.flowid,
    used_connectionid: input.connection?.connectionid ?? null,
    integrationid: input.connection?.integrationid ?? null,
    is_preview: input.is_preview ?? false,
    data: input.data ?? null,
    queued_at: iso(queued),
    start: iso(start),
    end: iso(start + runSeconds(executionid) * 1000),
    outcome: failure ? 'error' : 'success',
    failure,
    settled: false,
  };
  world.executions[executionid] = record;
  return record;
}

/**
 * Opens an execution that the vendor runs itself (the SDK's local runs): it is running from `at`
 * until its end is reported (see closeLocalExecution); scripted failures do not apply to it.
 */
export function openLocalExecution(services: SimServices, input: QueueInput): ExecutionRecord {
  const executionid = services.ids.next('execution');
  const record: ExecutionRecord = {
    executionid,
    parentexecutionid: input.parentexecutionid,
    accountid: input.accountid,
    envid: input.envid,
    consumerid: input.consumerid,
    kind: input.kind,
    trigger: input.trigger,
    syncid: input.syncid,
    flowid: input.flowid,
    used_connectionid: input.connection?.connectionid ?? null,
    integrationid: input.connection?.integrationid ?? null,
    is_preview: input.is_preview ?? false,
    data: input.data ?? null,
    queued_at: input.at.toISOString(),
    start: input.at.toISOString(),
    end: null,
    outcome: null,
    failure: null,
    settled: false,
  };
  services.store.world.executions[executionid] = record;
  return record;
}

/** Ends a local execution as reported, and settles it at once. Returns the deliveries queued. */
export function closeLocalExecution(
  services: SimServices,
  execution: ExecutionRecord,
  at: Date,
  failure: ExecutionRecord['failure'],
): number {
  if (execution.settled || execution.end !== null) return 0;
  execution.end = at.toISOString();
  execution.outcome = failure ? 'error' : 'success';
  execution.failure = failure;
  return settleExecution(services, execution);
}

/**
 * The connection a flow run uses: an active connection of the consumer of the integrations chosen
 * when the flow was enabled, else of the sync's selected integrations, in that order; null if none.
 */
export function connectionForFlow(
  world: World,
  consumerid: string,
  sync: SyncRecord,
  enabled: Pick<FlowConsumerRecord, 'integrationids'> | undefined,
): ConnectionRecord | null {
  const active = connectionsOfConsumer(world, consumerid).filter((c) => c.status === 'active');
  for (const integrationid of [...(enabled?.integrationids ?? []), ...sync.integrationids]) {
    const found = active.find((c) => c.integrationid === integrationid);
    if (found) return found;
  }
  return null;
}

/**
 * Does the side effects of an execution's end, once: account.flow.executed (or
 * account.datalayer.sync.completed), and the issue that a failure opens or a success closes.
 * Returns the number of webhook deliveries queued.
 */
export function settleExecution(services: SimServices, execution: ExecutionRecord): number {
  if (execution.settled || execution.end === null || execution.outcome === null) return 0;
  execution.settled = true;
  const world = services.store.world;
  if (execution.outcome === 'success' && execution.used_connectionid) {
    const connection = own(world.connections, execution.used_connectionid) ?? null;
    const failure = connectionFailure(connection, execution.start);
    if (failure) {
      execution.outcome = 'error';
      execution.failure = failure;
    }
  }
  let published =
    execution.outcome === 'error'
      ? recordFailure(services, execution)
      : closeIssuesAfter(services, execution);
  if (execution.kind === 'datalayer') {
    const datalayer = execution.used_connectionid
      ? own(world.datalayer_syncs, execution.used_connectionid)
      : undefined;
    if (datalayer && execution.outcome === 'success') datalayer.last_refresh_at = execution.end;
    published += publishEvent(services, {
      accountid: execution.accountid,
      envid: execution.envid,
      event: 'account.datalayer.sync.completed',
      consumerid: execution.consumerid,
      integrationid: execution.integrationid,
      fields: {
        connectionid: execution.used_connectionid,
        executionid: execution.executionid,
        status: execution.outcome,
      },
    });
  } else {
    published += publishEvent(services, {
      accountid: execution.accountid,
      envid: execution.envid,
      event: 'account.flow.executed',
      consumerid: execution.consumerid,
      fields: {
        syncid: execution.syncid,
        flowid: execution.flowid,
        executionid: execution.executionid,
        status: execution.outcome,
      },
    });
  }
  return published;
}

export interface TickResult {
  /** Executions queued by a schedule. */
  scheduled: number;
  settled: number;
  /** Webhook deliveries queued. */
  published: number;
}

/** Settles every execution whose end has passed, in the order they ended. */
export function settleDue(services: SimServices, now: Date): { settled: number; published: number } {
  const due = Object.values(services.store.world.executions)
    .filter((e) => !e.settled && e.end !== null && Date.parse(e.end) <= now.getTime())
    .sort(
      (a, b) =>
        (a.end as string).localeCompare(b.end as string) || a.executionid.localeCompare(b.executionid),
    );
  let published = 0;
  for (const execution of due) published += settleExecution(services, execution);
  return { settled: due.length, published };
}

function scheduleOf(expression: string | null): CronSchedule | null {
  if (!expression) return null;
  try {
    return parseCron(expression);
  } catch {
    return null;
  }
}

/** The runs of one schedule due by `now` (bounded), and the next one after `now`. */
function dueOf(schedule: CronSchedule, nextRunAt: string, now: Date) {
  const since = new Date(Date.parse(nextRunAt) - 1);
  return {
    runs: dueRuns(schedule, since, now, MAX_CATCH_UP_RUNS),
    next: nextRun(schedule, now)?.toISOString() ?? null,
  };
}

/**
 * Queues the scheduled runs that came due: timer flows, then datalayer syncs. Returns the runs
 * queued and the schedules moved on (each a change of the world).
 */
export function scheduleDue(services: SimServices, now: Date): { queued: number; moved: number } {
  const world = services.store.world;
  let moved = 0;
  const pending: {
    at: Date;
    input: Omit<QueueInput, 'at' | 'parentexecutionid'>;
    chainKey: string | null;
  }[] = [];
  for (const enabled of Object.values(world.flow_consumers)) {
    if (!enabled.enabled || enabled.next_run_at === null || Date.parse(enabled.next_run_at) > now.getTime()) {
      continue;
    }
    moved += 1;
    const schedule = scheduleOf(enabled.cronschedule);
    const sync = own(world.syncs, enabled.syncid);
    const consumer = own(world.consumers, enabled.consumerid);
    if (!schedule || !sync || !consumer || !own(world.flows, enabled.flowid)) {
      enabled.next_run_at = null;
      continue;
    }
    const { runs, next } = dueOf(schedule, enabled.next_run_at, now);
    enabled.next_run_at = next;
    const connection = connectionForFlow(world, consumer.consumerid, sync, enabled);
    for (const at of runs) {
      pending.push({
        at,
        chainKey: `${enabled.flowid}@${at.toISOString()}`,
        input: {
          accountid: consumer.accountid,
          envid: consumer.envid,
          consumerid: consumer.consumerid,
          kind: 'flow',
          trigger: 'timer',
          syncid: sync.syncid,
          flowid: enabled.flowid,
          connection,
        },
      });
    }
  }
  const datalayerSchedule = parseCron(DATALAYER_SCHEDULE);
  for (const datalayer of Object.values(world.datalayer_syncs)) {
    if (!datalayer.enabled || datalayer.next_run_at === null) continue;
    if (Date.parse(datalayer.next_run_at) > now.getTime()) continue;
    moved += 1;
    const connection = own(world.connections, datalayer.connectionid);
    if (!connection) {
      datalayer.next_run_at = null;
      continue;
    }
    const { runs, next } = dueOf(datalayerSchedule, datalayer.next_run_at, now);
    datalayer.next_run_at = next;
    for (const at of runs) {
      pending.push({
        at,
        chainKey: null,
        input: {
          accountid: datalayer.accountid,
          envid: datalayer.envid,
          consumerid: datalayer.consumerid,
          kind: 'datalayer',
          trigger: 'schedule',
          syncid: null,
          flowid: null,
          connection,
        },
      });
    }
  }
  // One chain execution per flow and scheduled time, whatever the number of consumers.
  pending.sort((a, b) => a.at.getTime() - b.at.getTime());
  const chains = new Map<string, string>();
  for (const run of pending) {
    let parent: string | null = null;
    if (run.chainKey) {
      parent = chains.get(run.chainKey) ?? services.ids.next('chain-execution');
      chains.set(run.chainKey, parent);
    }
    queueExecution(services, { ...run.input, at: run.at, parentexecutionid: parent });
  }
  return { queued: pending.length, moved };
}

/** The automation's tick task: schedule, then settle (deliveries it queues go out on commit). */
export async function tick(services: SimServices): Promise<TickResult> {
  const now = services.clock.now();
  const { queued: scheduled } = scheduleDue(services, now);
  const { settled, published } = settleDue(services, now);
  return { scheduled, settled, published };
}
