import { errors } from '../../lib/errors.js';
import { own } from '../../lib/own.js';
import { requireConsumer } from '../../platform/access.js';
import type { Catalogue, Integration } from '../../platform/catalogue.js';
import type { Principal } from '../../platform/tokens.js';
import type {
  ConnectionRecord,
  ConsumerRecord,
  DatalayerRecord,
  ExecutionRecord,
  World,
} from '../../store/world.js';
import { DATALAYER_SCHEDULE, nextRun, parseCron, queueExecution, type SimServices } from '../syncs/index.js';
import type { DatalayerEnableInput, DatalayerRefreshInput } from './datalayer.schemas.js';

/**
 * The datalayer sync of a connection. It is available where two things hold: the account has the
 * datalayer configured for the connection's One API (world.datalayer_settings, seeded per account),
 * and the connection's integration offers it (features.datalayer in the catalogue). An enabled
 * datalayer sync runs once when enabled, then every day at 03:00 UTC, and on demand (refresh).
 */

export interface DatalayerTarget {
  consumer: ConsumerRecord;
  connection: ConnectionRecord;
}

/** The consumer and its connection; either missing is the same 404. */
export function requireDatalayerTarget(
  world: World,
  principal: Principal,
  consumerId: string,
  connectionId: string,
): DatalayerTarget {
  const consumer = requireConsumer(world, principal, consumerId, errors.datalayerTargetNotFound);
  const key = connectionId.toLowerCase();
  const connection = own(world.connections, key);
  if (!connection || connection.consumerid !== consumer.consumerid) throw errors.datalayerTargetNotFound();
  return { consumer, connection };
}

/** The datalayer must be configured on the account for the connection's One API and offered by its integration. */
export function assertConfigured(world: World, catalogue: Catalogue, target: DatalayerTarget): Integration {
  const integration = catalogue.get(target.connection.integrationid);
  if (!integration) throw errors.datalayerNotConfigured('The integration of this connection is unknown');
  const apis = own(world.datalayer_settings, target.consumer.accountid)?.apis ?? [];
  if (!apis.includes(integration.api)) {
    const configured = apis.length ? apis.join(', ') : 'none';
    throw errors.datalayerNotConfigured(
      `The datalayer is not configured for the ${integration.api} One API (configured: ${configured})`,
    );
  }
  if (!integration.features.datalayer) {
    throw errors.datalayerNotConfigured(
      `The integration ${integration.name} (${integration.integrationid}) has no datalayer`,
    );
  }
  return integration;
}

function assertActive(connection: ConnectionRecord): void {
  if (connection.status !== 'active') {
    throw errors.datalayerNotConfigured(
      'The connection is not active: the datalayer needs an active connection',
    );
  }
}

function queueRun(
  services: SimServices,
  target: DatalayerTarget,
  data: Record<string, unknown> | null,
): ExecutionRecord {
  return queueExecution(services, {
    accountid: target.consumer.accountid,
    envid: target.consumer.envid,
    consumerid: target.consumer.consumerid,
    kind: 'datalayer',
    trigger: 'refresh',
    syncid: null,
    flowid: null,
    connection: target.connection,
    parentexecutionid: null,
    data,
    at: services.clock.now(),
  });
}

/** Enables (or re-enables with new settings) and queues a first run. */
export function enableDatalayer(
  services: SimServices,
  target: DatalayerTarget,
  input: DatalayerEnableInput | null | undefined,
): { record: DatalayerRecord; execution: ExecutionRecord } {
  const world = services.store.world;
  assertConfigured(world, services.catalogue, target);
  assertActive(target.connection);
  const now = services.clock.now();
  const previous = own(world.datalayer_syncs, target.connection.connectionid);
  const record: DatalayerRecord = {
    connectionid: target.connection.connectionid,
    consumerid: target.consumer.consumerid,
    accountid: target.consumer.accountid,
    envid: target.consumer.envid,
    enabled: true,
    enabled_on: previous?.enabled ? (previous.enabled_on ?? now.toISOString()) : now.toISOString(),
    disabled_on: null,
    from_date: input?.from_date ?? null,
    fiscal_years_back: input?.fiscal_years_back ?? null,
    full_history: input?.full_history ?? false,
    entity_filter: input?.entity_filter ?? null,
    next_run_at: nextRun(parseCron(DATALAYER_SCHEDULE), now)?.toISOString() ?? null,
    last_refresh_at: previous?.last_refresh_at ?? null,
  };
  world.datalayer_syncs[record.connectionid] = record;
  const execution = queueRun(services, target, { initial: true });
  return { record, execution };
}

/** An on-demand run: the datalayer must be configured and enabled on an active connection. */
export function refreshDatalayer(
  services: SimServices,
  target: DatalayerTarget,
  input: DatalayerRefreshInput | null | undefined,
): ExecutionRecord {
  const world = services.store.world;
  assertConfigured(world, services.catalogue, target);
  if (!own(world.datalayer_syncs, target.connection.connectionid)?.enabled) {
    throw errors.datalayerNotConfigured('The datalayer sync of this connection is not enabled');
  }
  assertActive(target.connection);
  return queueRun(
    services,
    target,
    input?.force_from_date ? { force_from_date: input.force_from_date } : null,
  );
}

/** Stops the refreshes; disabling one that is not enabled changes nothing. */
export function disableDatalayer(services: SimServices, target: DatalayerTarget): void {
  const world = services.store.world;
  assertConfigured(world, services.catalogue, target);
  const record = own(world.datalayer_syncs, target.connection.connectionid);
  if (!record?.enabled) return;
  record.enabled = false;
  record.disabled_on = services.clock.now().toISOString();
  record.next_run_at = null;
}
