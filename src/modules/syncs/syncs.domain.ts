import type { Clock } from '../../lib/clock.js';
import { isCountryCode } from '../../lib/country-codes.js';
import { type ApiError, errors, ValidationFailure } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import { canSee } from '../../platform/access.js';
import type { ApiName, Catalogue, Integration } from '../../platform/catalogue.js';
import type { Principal } from '../../platform/tokens.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import type {
  ConsumerRecord,
  ConsumerSyncRecord,
  FlowConsumerRecord,
  FlowRecord,
  FlowTriggerRecord,
  LinkRecord,
  SyncRecord,
  World,
} from '../../store/world.js';
import { checkFieldValues, fieldDefinitions, withDefaults } from './flow-fields.js';
import { oneApiName } from './one-apis.js';
import { nextRun, parseCron } from './simulation/cron.js';
import type {
  CreateConsumerSyncInput,
  CreateFlowInput,
  CreateSyncInput,
  EnableFlowInput,
  FlowTriggerInput,
  ReadFlowOut,
  ReadSyncMappingInput,
  ReadSyncOut,
  SyncConsumerOut,
  UpdateFlowInput,
} from './syncs.schemas.js';

export interface SyncDeps {
  ids: IdSource;
  clock: Clock;
  catalogue: Catalogue;
}

export const DEFAULT_TRIGGER_ID = 'trigger-1';

export const consumerSyncKey = (consumerid: string, syncid: string) => `${consumerid}:${syncid}`;
export const flowConsumerKey = (consumerid: string, flowid: string) => `${consumerid}:${flowid}`;

// ---------------------------------------------------------------------------------------------
// Lookups.

/**
 * A sync of the caller's account and environment. One of the account's other environment is a 401,
 * as for consumers; anything else does not exist for the caller.
 */
export function requireSync(
  world: World,
  principal: Principal,
  syncid: string,
  notFound: () => ApiError = errors.syncNotFound,
): SyncRecord {
  const key = syncid.toLowerCase();
  const sync = own(world.syncs, key);
  if (!sync || sync.accountid !== principal.accountid) throw notFound();
  if (sync.envid !== principal.envid) throw errors.wrongEnvironment();
  return sync;
}

export function requireFlow(
  world: World,
  sync: SyncRecord,
  flowid: string,
  notFound: () => ApiError = errors.flowNotFound,
): FlowRecord {
  const key = flowid.toLowerCase();
  const flow = own(world.flows, key);
  if (!flow || flow.syncid !== sync.syncid) throw notFound();
  return flow;
}

export const syncsOf = (world: World, principal: Principal): SyncRecord[] =>
  Object.values(world.syncs).filter(
    (s) => s.accountid === principal.accountid && s.envid === principal.envid,
  );

export const flowsOf = (world: World, syncid: string): FlowRecord[] =>
  Object.values(world.flows).filter((f) => f.syncid === syncid);

/** The One APIs a sync connects, in display order. */
export function apisOf(sync: SyncRecord): ApiName[] {
  const out: ApiName[] = [];
  for (const connection of [...sync.connections].sort((a, b) => a.display_order - b.display_order)) {
    const api = oneApiName(connection.one_api);
    if (api && !out.includes(api)) out.push(api);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Wire shapes.

const triggerOut = (trigger: FlowTriggerRecord): FlowTriggerInput => ({ ...trigger });

export function toReadFlowItem(flow: FlowRecord): ReadFlowOut {
  return {
    name: flow.name,
    description: flow.description,
    id: flow.flowid,
    execution: flow.execution as ReadFlowOut['execution'],
    config: flow.config as ReadFlowOut['config'],
    triggers: flow.triggers.map(triggerOut),
  };
}

/** Consumers set up for the sync that the caller may see. */
export function consumersOfSync(world: World, principal: Principal, syncid: string): string[] {
  return Object.values(world.consumer_syncs)
    .filter((r) => {
      const consumer = own(world.consumers, r.consumerid);
      return r.syncid === syncid && consumer !== undefined && canSee(principal, consumer);
    })
    .map((r) => r.consumerid);
}

export function toReadSyncItem(world: World, principal: Principal, sync: SyncRecord): ReadSyncOut {
  return {
    name: sync.name,
    config: sync.config,
    connections: sync.connections.map((c) => ({ ...c })),
    mappings: sync.mappings as ReadSyncOut['mappings'],
    syncid: sync.syncid,
    consumers: consumersOfSync(world, principal, sync.syncid),
    flows: flowsOf(world, sync.syncid).map(toReadFlowItem),
  };
}

// ---------------------------------------------------------------------------------------------
// Syncs and flows.

/** The integrations a new sync selects: every active integration of its One APIs. */
export function defaultSelection(catalogue: Catalogue, apis: readonly ApiName[]): number[] {
  return catalogue.integrations
    .filter((i) => i.status === 'active' && apis.includes(i.api))
    .map((i) => i.integrationid);
}

function triggerRecord(trigger: FlowTriggerInput): FlowTriggerRecord {
  return {
    id: trigger.id,
    type: trigger.type,
    cronschedules: trigger.cronschedules ?? null,
    visible: trigger.visible ?? true,
    definitionFields: trigger.definitionFields ?? null,
    options: trigger.options ?? null,
    priority: trigger.priority ?? 'NORMAL',
  };
}

/** Trigger ids are unique in a flow (422 naming the repeated one). */
export function assertTriggerIds(triggers: readonly FlowTriggerInput[], loc: (string | number)[]): void {
  const seen = new Set<string>();
  triggers.forEach((trigger, i) => {
    if (seen.has(trigger.id)) {
      throw new ValidationFailure([
        { loc: [...loc, i, 'id'], msg: `The trigger id '${trigger.id}' is used twice`, type: 'value_error' },
      ]);
    }
    seen.add(trigger.id);
  });
}

function flowFields(input: CreateFlowInput) {
  return {
    name: input.name,
    description: input.description ?? null,
    execution: { type: input.execution.type, data: input.execution.data ?? null },
    config: (input.config ?? { datastores: [] }) as Record<string, unknown>,
    triggers: input.triggers.map(triggerRecord),
  };
}

export function createSync(
  world: World,
  deps: SyncDeps,
  principal: Principal,
  input: CreateSyncInput,
): SyncRecord {
  const flows = input.flows ?? [];
  flows.forEach((flow, i) => {
    assertTriggerIds(flow.triggers, ['body', 'flows', i, 'triggers']);
  });
  const connections = input.connections.map((c) => ({
    one_api: c.one_api ?? null,
    connection_type: c.connection_type ?? null,
    display_order: c.display_order ?? 0,
    display_hidden: c.display_hidden ?? false,
  }));
  const now = deps.clock.now().toISOString();
  const sync: SyncRecord = {
    syncid: deps.ids.next('sync'),
    accountid: principal.accountid,
    envid: principal.envid,
    name: input.name,
    config: (input.config ?? null) as Record<string, unknown> | null,
    connections,
    mappings: (input.mappings ?? []) as Record<string, unknown>[],
    integrationids: [],
    created_on: now,
  };
  sync.integrationids = defaultSelection(deps.catalogue, apisOf(sync));
  world.syncs[sync.syncid] = sync;
  for (const flow of flows) {
    const record: FlowRecord = {
      flowid: deps.ids.next('flow'),
      syncid: sync.syncid,
      ...flowFields(flow),
      created_on: now,
    };
    world.flows[record.flowid] = record;
  }
  return sync;
}

/**
 * Adds a flow to a sync, or updates the flow of the same name (case-insensitive): the SDK posts a
 * flow's definition before each run of it.
 */
export function upsertFlow(
  world: World,
  deps: SyncDeps,
  sync: SyncRecord,
  input: CreateFlowInput,
): FlowRecord {
  assertTriggerIds(input.triggers, ['body', 'triggers']);
  const existing = flowsOf(world, sync.syncid).find((f) => f.name.toLowerCase() === input.name.toLowerCase());
  if (existing) {
    Object.assign(existing, flowFields(input));
    return existing;
  }
  const record: FlowRecord = {
    flowid: deps.ids.next('flow'),
    syncid: sync.syncid,
    ...flowFields(input),
    created_on: deps.clock.now().toISOString(),
  };
  world.flows[record.flowid] = record;
  return record;
}

// ---------------------------------------------------------------------------------------------
// Consumer syncs.

/**
 * A consumer's setup of a sync is active when the consumer has an active connection of the sync's
 * selected integrations for each One API the sync connects.
 */
export function consumerSyncStatus(
  world: World,
  catalogue: Catalogue,
  sync: SyncRecord,
  consumerid: string,
): { status: 'active' | 'inactive'; details: string | null } {
  const connected = new Set<ApiName>();
  for (const connection of connectionsOfConsumer(world, consumerid)) {
    if (connection.status !== 'active') continue;
    if (!sync.integrationids.includes(connection.integrationid)) continue;
    const api = catalogue.get(connection.integrationid)?.api;
    if (api) connected.add(api);
  }
  const missing = apisOf(sync).filter((api) => !connected.has(api));
  if (missing.length === 0) return { status: 'active', details: null };
  return {
    status: 'inactive',
    details: `No active connection of the sync's integrations for: ${missing.join(', ')}`,
  };
}

export function requireConsumerSync(world: World, consumerid: string, sync: SyncRecord): ConsumerSyncRecord {
  const record = own(world.consumer_syncs, consumerSyncKey(consumerid, sync.syncid));
  if (!record) throw errors.consumerNotInSync();
  return record;
}

function ensureConsumerSync(
  world: World,
  consumerid: string,
  sync: SyncRecord,
  now: string,
): ConsumerSyncRecord {
  const key = consumerSyncKey(consumerid, sync.syncid);
  world.consumer_syncs[key] ??= {
    consumerid,
    syncid: sync.syncid,
    link_createdon: now,
    link_metadata: null,
    link_mappings: null,
    link_presync: null,
  };
  return world.consumer_syncs[key];
}

export const enabledFlowsOf = (world: World, consumerid: string, syncid: string): FlowConsumerRecord[] =>
  Object.values(world.flow_consumers).filter(
    (r) => r.consumerid === consumerid && r.syncid === syncid && r.enabled,
  );

export function toSyncConsumerItem(
  world: World,
  catalogue: Catalogue,
  sync: SyncRecord,
  record: ConsumerSyncRecord,
): SyncConsumerOut {
  const { status, details } = consumerSyncStatus(world, catalogue, sync, record.consumerid);
  const flows = enabledFlowsOf(world, record.consumerid, sync.syncid).flatMap((enabled) => {
    const flow = own(world.flows, enabled.flowid);
    if (!flow) return [];
    const trigger = flow.triggers.find((t) => t.id === enabled.triggerid);
    return [
      {
        name: flow.name,
        description: flow.description,
        id: flow.flowid,
        config: flow.config as ReadFlowOut['config'],
        values: enabled.values,
        enabled_on: enabled.enabled_on,
        trigger: {
          id: enabled.triggerid,
          type: trigger?.type ?? 'event',
          cronschedule: enabled.cronschedule,
        },
      },
    ];
  });
  return {
    syncid: sync.syncid,
    sync_name: sync.name,
    status,
    status_details: details,
    link_createdon: record.link_createdon,
    link_mappings: record.link_mappings as SyncConsumerOut['link_mappings'],
    skip_mappings: [],
    link_metadata: record.link_metadata,
    link_presync: record.link_presync,
    enabled_flows: flows,
  };
}

/**
 * The integrationids given for a sync: each one of the sync's selected integrations (400 naming it),
 * at most one per One API (400).
 */
export function checkSyncIntegrations(
  catalogue: Catalogue,
  sync: SyncRecord,
  integrationids: readonly string[],
): Integration[] {
  const out: Integration[] = [];
  for (const given of integrationids) {
    const id = /^\d+$/.test(given.trim()) ? Number(given.trim()) : Number.NaN;
    const integration = sync.integrationids.includes(id) ? catalogue.get(id) : undefined;
    if (!integration) throw errors.integrationNotInSync(given);
    const twin = out.find((i) => i.api === integration.api);
    if (twin && twin.integrationid !== integration.integrationid) {
      throw errors.oneIntegrationPerApi(
        `${twin.integrationid} and ${integration.integrationid} are both ${integration.api} integrations`,
      );
    }
    if (!twin) out.push(integration);
  }
  return out;
}

/** A country filter must be a valid code that one of the sync's integrations supports. */
export function assertSyncCountry(catalogue: Catalogue, sync: SyncRecord, country: string): void {
  if (!isCountryCode(country)) throw errors.countryCodeInvalid(country);
  const code = country.toUpperCase();
  const supported = sync.integrationids.some((id) => {
    const integration = catalogue.get(id);
    return (
      integration?.status === 'active' &&
      (integration.supported_countries === null || integration.supported_countries.includes(code))
    );
  });
  if (!supported) throw errors.countryNotSupported(country);
}

/**
 * POST /consumers/{consumer_id}/syncs: the link where the end user connects as the sync asks. The
 * checks, in order: a sync without flows offers nothing (404 flow), the integrationids (400), then
 * without integrationids the country (400). The consumer is then set up for the sync (its setup
 * date kept if it already was) and a connection link is made: for one integration, to that
 * integration; otherwise to the integrations of the sync's One APIs (and country).
 */
export function createConsumerSyncLink(
  world: World,
  deps: SyncDeps,
  consumer: ConsumerRecord,
  sync: SyncRecord,
  input: CreateConsumerSyncInput,
): LinkRecord {
  if (flowsOf(world, sync.syncid).length === 0) throw errors.flowNotFound();
  const chosen = checkSyncIntegrations(deps.catalogue, sync, input.integrationids ?? []);
  const country = chosen.length === 0 ? (input.country ?? null) : null;
  if (country !== null) assertSyncCountry(deps.catalogue, sync, country);

  const now = deps.clock.now().toISOString();
  const record = ensureConsumerSync(world, consumer.consumerid, sync, now);
  if (input.link_metadata !== undefined) record.link_metadata = input.link_metadata;
  const single = chosen.length === 1 ? chosen[0] : undefined;
  const apis = chosen.length > 1 ? chosen.map((i) => i.api) : apisOf(sync);
  const link: LinkRecord = {
    linkid: deps.ids.next('link'),
    consumerid: consumer.consumerid,
    connectionid: null,
    integrationid: single?.integrationid ?? null,
    country: country?.toUpperCase() ?? null,
    apis: apis.length ? apis : null,
    redirect: true,
    created_on: now,
    completed_on: null,
  };
  world.links[link.linkid] = link;
  return link;
}

/** PATCH /consumers/{consumer_id}/syncs/{syncid}: needs a flow enabled; replaces the mappings. */
export function replaceMappings(
  world: World,
  consumer: ConsumerRecord,
  sync: SyncRecord,
  mappings: ReadSyncMappingInput[],
): void {
  if (enabledFlowsOf(world, consumer.consumerid, sync.syncid).length === 0) throw errors.flowNotActivated();
  const record = requireConsumerSync(world, consumer.consumerid, sync);
  record.link_mappings = mappings as Record<string, unknown>[];
}

// ---------------------------------------------------------------------------------------------
// Flows of a consumer.

const badInput = (loc: (string | number)[], msg: string) =>
  new ValidationFailure([{ loc, msg, type: 'value_error' }]);

/** The trigger named (422 when the flow has none of that id); by default trigger-1 or the first. */
export function pickTrigger(flow: FlowRecord, triggerid: string | null | undefined): FlowTriggerRecord {
  if (triggerid !== null && triggerid !== undefined) {
    const trigger = flow.triggers.find((t) => t.id === triggerid);
    if (!trigger) {
      const known = flow.triggers.map((t) => t.id).join(', ') || 'none';
      throw badInput(
        ['body', 'triggerid'],
        `The flow has no trigger '${triggerid}' (its triggers: ${known})`,
      );
    }
    return trigger;
  }
  const fallback = flow.triggers.find((t) => t.id === DEFAULT_TRIGGER_ID) ?? flow.triggers[0];
  if (!fallback) throw badInput(['body', 'triggerid'], 'The flow has no trigger');
  return fallback;
}

/**
 * The schedule of a timer trigger for a consumer: the one given, which must be one of the trigger's
 * schedules when it lists some, else the trigger's first (422 when there is none). Event triggers
 * have no schedule.
 */
export function pickSchedule(trigger: FlowTriggerRecord, given: string | null | undefined): string | null {
  if (trigger.type !== 'timer') return null;
  const offered = trigger.cronschedules ?? [];
  if (given !== null && given !== undefined) {
    if (offered.length && !offered.includes(given)) {
      throw badInput(
        ['body', 'cronschedule'],
        `The trigger '${trigger.id}' offers these schedules only: ${offered.join(' | ')}`,
      );
    }
    return given;
  }
  const first = offered[0];
  if (!first)
    throw badInput(['body', 'cronschedule'], `The timer trigger '${trigger.id}' needs a cronschedule`);
  return first;
}

/** The configuration fields asked when enabling with a trigger: the flow's, then the trigger's. */
export const configurationFields = (flow: FlowRecord, trigger: FlowTriggerRecord) =>
  fieldDefinitions([
    ...((flow.config?.definitionFields as Record<string, unknown>[] | null | undefined) ?? []),
    ...(trigger.definitionFields ?? []),
  ]);

const nextRunOf = (cronschedule: string | null, now: Date) =>
  cronschedule ? (nextRun(parseCron(cronschedule), now)?.toISOString() ?? null) : null;

export interface EnableResult {
  record: FlowConsumerRecord;
  /** Whether the flow was not enabled before (an account.flow.enabled event is due). */
  newlyEnabled: boolean;
}

/**
 * Enables a flow for a consumer. Checks, in order: the trigger and its schedule (422), the
 * integrationids (400), then the configuration fields in the flow's order (400 for a required one
 * left unset, 422 for a value of the wrong type). The consumer is set up for the sync if it was not.
 */
export function enableFlow(
  world: World,
  deps: SyncDeps,
  consumer: ConsumerRecord,
  sync: SyncRecord,
  flow: FlowRecord,
  input: EnableFlowInput,
): EnableResult {
  const trigger = pickTrigger(flow, input.triggerid);
  const cronschedule = pickSchedule(trigger, input.cronschedule);
  const integrations = checkSyncIntegrations(deps.catalogue, sync, input.integrationids ?? []);
  const fields = configurationFields(flow, trigger);
  const values = withDefaults(fields, { ...(input.data ?? {}) });
  checkFieldValues(fields, values, { requireAll: true });

  const now = deps.clock.now();
  const key = flowConsumerKey(consumer.consumerid, flow.flowid);
  const previous = own(world.flow_consumers, key);
  const newlyEnabled = !previous?.enabled;
  const record: FlowConsumerRecord = {
    consumerid: consumer.consumerid,
    syncid: sync.syncid,
    flowid: flow.flowid,
    enabled: true,
    enabled_on: newlyEnabled ? now.toISOString() : (previous?.enabled_on ?? now.toISOString()),
    disabled_on: null,
    triggerid: trigger.id,
    cronschedule,
    values,
    integrationids: integrations.map((i) => i.integrationid),
    next_run_at: nextRunOf(cronschedule, now),
  };
  world.flow_consumers[key] = record;
  ensureConsumerSync(world, consumer.consumerid, sync, now.toISOString());
  return { record, newlyEnabled };
}

/** Disables a flow for a consumer; returns whether it was enabled (an event is due then). */
export function disableFlow(
  world: World,
  deps: SyncDeps,
  consumer: ConsumerRecord,
  flow: FlowRecord,
): boolean {
  const record = own(world.flow_consumers, flowConsumerKey(consumer.consumerid, flow.flowid));
  if (!record?.enabled) return false;
  record.enabled = false;
  record.disabled_on = deps.clock.now().toISOString();
  record.next_run_at = null;
  return true;
}

/**
 * PATCH a consumer's flow: it must be enabled (404); another trigger may be chosen (422 when the
 * flow has none of that id; a timer trigger takes its first schedule); the data is merged into the
 * configuration and the merged values are type-checked (422).
 */
export function updateFlowConfig(
  world: World,
  deps: SyncDeps,
  consumer: ConsumerRecord,
  flow: FlowRecord,
  input: UpdateFlowInput,
): FlowConsumerRecord {
  const record = own(world.flow_consumers, flowConsumerKey(consumer.consumerid, flow.flowid));
  if (!record?.enabled) throw errors.flowNotActivated();
  const trigger =
    input.triggerid !== null && input.triggerid !== undefined && input.triggerid !== record.triggerid
      ? pickTrigger(flow, input.triggerid)
      : null;
  const cronschedule = trigger ? pickSchedule(trigger, null) : record.cronschedule;
  const current = trigger ?? flow.triggers.find((t) => t.id === record.triggerid);
  const merged = { ...record.values, ...(input.data ?? {}) };
  if (current) checkFieldValues(configurationFields(flow, current), merged, { requireAll: false });

  record.values = merged;
  if (trigger) {
    record.triggerid = trigger.id;
    record.cronschedule = cronschedule;
    record.next_run_at = nextRunOf(cronschedule, deps.clock.now());
  }
  return record;
}
