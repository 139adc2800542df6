import type { PaceChange } from '../lib/pace.js';

/**
 * The stored world: one JSON document, records in maps keyed by their id (a lookup stays O(1) on a
 * world of 100,000 consumers), field names in the service's own words. The platform's records are
 * declared here; a vertical's in its folder (modules/<vertical>/<vertical>.records.ts).
 */

export type EnvironmentKind = 'sandbox' | 'production';
export type ActiveStatus = 'active' | 'inactive';

export interface AccountRecord {
  accountid: string;
  name: string;
}

export interface EnvironmentRecord {
  envid: string;
  accountid: string;
  name: string;
  kind: EnvironmentKind;
  /**
   * The MCP scopes the vendor allows on the environment ('*': every scope of the service): what an
   * MCP token of the environment may carry, and what the OAuth consent page offers. Absent (a world
   * written before the field existed): every scope.
   */
  mcp_scopes?: string[];
}

export interface ApiKeyRecord {
  clientid: string;
  accountid: string;
  envid: string;
  name: string;
  /** sha256 of the secret: the secret itself is shown once and never stored. */
  secret_sha256: string;
  /** null: every consumer of the environment; otherwise the consumers the key may reach. */
  consumers: string[] | null;
  /** Scopes an MCP token minted with this key may carry. */
  mcp_scopes: string[];
  created_on: string;
  deleted_on: string | null;
}

export interface ConsumerRecord {
  consumerid: string;
  accountid: string;
  envid: string;
  name: string;
  email: string | null;
  internal_reference: string | null;
  redirect_url: string | null;
  created_on: string;
}

export interface ConnectionRecord {
  connectionid: string;
  consumerid: string;
  integrationid: number;
  name: string;
  status: ActiveStatus;
  credentials: Record<string, string>;
  post_connections: Record<string, string>;
  datetimes: Record<string, string>;
  data: Record<string, unknown> | null;
  created_on: string;
  updated_on: string;
  /**
   * A spell when the software cannot be reached (its server down, or its local agent silent): its
   * operations answer the service's 502 from `since` until `until` (null: until it recovers).
   */
  outage?: ConnectionOutage | null;
}

export interface ConnectionOutage {
  kind: 'unreachable' | 'agent_down';
  since: string;
  until: string | null;
}

/** A link handed out by POST/PATCH connections, completed by the end user on the sandbox's page. */
export interface LinkRecord {
  linkid: string;
  consumerid: string;
  connectionid: string | null;
  integrationid: number | null;
  country: string | null;
  apis: string[] | null;
  redirect: boolean;
  created_on: string;
  completed_on: string | null;
}

export interface TransactionRecord {
  connectionid: string;
  client_request_id: string;
  created_on: string;
  method: string;
  route: string;
  status_code: number;
  created_entity_id: string | null;
  /** The first answer, replayed to a repeated request with the same client request id. */
  response_body: unknown;
}

export interface WebhookRecord {
  webhookid: string;
  accountid: string;
  envid: string;
  createdby: string | null;
  createdon: string;
  event: string;
  url: string;
  status: ActiveStatus;
  integrationid: number | null;
  signingsecret: string | null;
  /**
   * Set when an API key restricted to consumers created the instance: only that key reaches it (and
   * the environment's unrestricted keys), and it receives only events about those consumers.
   */
  restricted_to?: { clientid: string; consumers: string[] };
}

export interface WebhookLogRecord {
  webhooklogid: string;
  webhookid: string;
  event: string;
  url: string;
  accountid: string;
  createdon: string;
  httpstatus: number;
  integrationid: number | null;
  /** The delivery this attempt belongs to (see webhooks/delivery.ts); absent on logs made otherwise. */
  deliveryid?: string;
  /** Why the attempt failed without an HTTP answer (time-out, connection error), or null. */
  error?: string | null;
}

/**
 * One event to deliver to one webhook instance (the outbox). `body` is the exact JSON text sent, so
 * that its signature and every retry carry the same bytes. The consumer the event is about is kept
 * as `event_consumerid` (not `consumerid`): a delivery belongs to the account, and deleting the
 * consumer afterwards must not cancel it (see store/cascade.ts).
 */
export interface WebhookDeliveryRecord {
  deliveryid: string;
  webhookid: string;
  accountid: string;
  envid: string;
  event_consumerid: string | null;
  event: string;
  /** The url of the last attempt (the instance's url when the event was published, until then). */
  url: string;
  integrationid: number | null;
  body: string;
  created_on: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: string | null;
  state: 'pending' | 'delivered' | 'failed';
  last_httpstatus: number | null;
  /** Why the last attempt failed (an HTTP status, a time-out, a connection error), or null. */
  last_error: string | null;
  /** The delivery this one sends again (the redeliver control endpoint), or null. */
  redelivery_of: string | null;
}

export type DatastoreStatus = 'active' | 'inactive';

/** Column types a datastore definition uses, and the JSON values each accepts. */
export type DatastoreColumnType = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime';

export interface DatastoreColumnRecord {
  name: string;
  title: string;
  type: DatastoreColumnType;
  optional: boolean;
}

/** A datastore of an account: the definition its data must match. */
export interface DatastoreRecord {
  datastoreid: string;
  accountid: string;
  name: string;
  status: DatastoreStatus;
  definition: { columns: DatastoreColumnRecord[]; search_column: string | null };
  created_on: string;
}

/** One row of a consumer's data in a datastore, optionally written by an execution. */
export interface DatastoreDataRecord {
  datastoredataid: string;
  datastoreid: string;
  consumerid: string;
  executionid: string | null;
  data: Record<string, unknown>;
  created_on: string;
  modified_on: string;
}

// ---------------------------------------------------------------------------------------------
// Automation: syncs, flows, executions, issues and the datalayer (driven by src/modules/syncs/simulation/).

export type TriggerKind = 'timer' | 'event';
export type IssueLevelName = 'error' | 'warning';

/** A trigger of a flow, as declared when the flow was created (FlowTrigger). */
export interface FlowTriggerRecord {
  id: string;
  type: TriggerKind;
  cronschedules: string[] | null;
  visible: boolean | null;
  definitionFields: Record<string, unknown>[] | null;
  options: Record<string, unknown> | null;
  priority: 'NORMAL' | 'MEDIUM' | 'HIGH';
}

/** One One API a sync connects (SyncsConnectionItem). */
export interface SyncConnectionRecord {
  one_api: number | null;
  connection_type: number | null;
  display_order: number;
  display_hidden: boolean;
}

export interface SyncRecord {
  syncid: string;
  accountid: string;
  envid: string;
  name: string;
  config: Record<string, unknown> | null;
  connections: SyncConnectionRecord[];
  /** The mappings asked of the end user (CreateSyncMappingItem), as given. */
  mappings: Record<string, unknown>[];
  /** The integrations selected for the sync: the only ones its consumers may connect through it. */
  integrationids: number[];
  created_on: string;
}

export interface FlowRecord {
  flowid: string;
  syncid: string;
  name: string;
  description: string | null;
  execution: { type: 'code' | 'module'; data: Record<string, unknown> | null } | null;
  /** FlowConfig: definitionFields (the configuration a consumer gives), doorkeyFields, datastores... */
  config: Record<string, unknown> | null;
  triggers: FlowTriggerRecord[];
  created_on: string;
}

/** A consumer set up for a sync (keyed `${consumerid}:${syncid}`). */
export interface ConsumerSyncRecord {
  consumerid: string;
  syncid: string;
  link_createdon: string;
  link_metadata: Record<string, unknown> | null;
  /** The consumer's mappings (ReadSyncMappingItem), replaced as a whole by PATCH. */
  link_mappings: Record<string, unknown>[] | null;
  link_presync: Record<string, unknown> | null;
}

/** A flow enabled (or once enabled) for a consumer (keyed `${consumerid}:${flowid}`). */
export interface FlowConsumerRecord {
  consumerid: string;
  syncid: string;
  flowid: string;
  enabled: boolean;
  enabled_on: string | null;
  disabled_on: string | null;
  triggerid: string;
  /** The schedule of a timer trigger chosen for this consumer; null for an event trigger. */
  cronschedule: string | null;
  /** The consumer's configuration of the flow (merged by PATCH). */
  values: Record<string, unknown>;
  integrationids: number[];
  /** Next scheduled run of a timer trigger (null: not scheduled). */
  next_run_at: string | null;
}

/**
 * One run of a flow for one consumer, or of the datalayer sync of one connection. Its timeline is
 * planned when it is queued (queued_at, start, end, outcome) and kept here, so that a world reopened
 * from its file goes on; `settled` records that its end's side effects (events, issues) were done.
 */
export interface ExecutionRecord {
  executionid: string;
  /** The chain execution grouping the runs of one trigger across consumers. */
  parentexecutionid: string | null;
  accountid: string;
  envid: string;
  consumerid: string;
  kind: 'flow' | 'datalayer';
  trigger: 'event' | 'timer' | 'local' | 'refresh' | 'schedule';
  syncid: string | null;
  flowid: string | null;
  /** The connection the run used (not `connectionid`: deleting it keeps the history). */
  used_connectionid: string | null;
  integrationid: number | null;
  is_preview: boolean;
  /** The event's data or the refresh's options. */
  data: Record<string, unknown> | null;
  queued_at: string;
  start: string;
  /** Planned end; null while a local run has not reported its end. */
  end: string | null;
  outcome: 'success' | 'error' | null;
  failure: { error_code: string; level: IssueLevelName; message: string | null } | null;
  settled: boolean;
}

/** A log line a consumer's code sent (the SDK's logData), linked to an execution when it names one. */
export interface ExecutionLogRecord {
  logid: string;
  consumerid: string;
  /** The execution or chain execution of the X-Chift-RelatedChainExecutionId header, or null. */
  related_executionid: string | null;
  type: string;
  message: string;
  context: unknown;
  created_on: string;
}

/** Scripted failures: the next `remaining` executions that match fail with the error code. */
export interface FailurePlanRecord {
  failureid: string;
  accountid: string;
  envid: string;
  flowid: string | null;
  consumerid: string | null;
  remaining: number;
  error_code: string;
  level: IssueLevelName;
  message: string | null;
  created_on: string;
}

export interface IssueEventRecord {
  id: string;
  execution_id: string;
  created_on: string;
  context: Record<string, unknown> | null;
  message: string | null;
}

export interface IssueRecord {
  issue_id: string;
  accountid: string;
  envid: string;
  consumerid: string;
  /** Wire names (not `connectionid`): an issue outlives the deletion of its connection. */
  connection_id: string | null;
  integration_id: number | null;
  integration_name: string | null;
  /** What failed: a flow of a sync, or the datalayer sync of a connection. */
  syncid: string | null;
  flowid: string | null;
  datalayer_of: string | null;
  error_code: string;
  error_status: string;
  error_title: string;
  error_description: string;
  level: IssueLevelName;
  status: 'open' | 'closed';
  created_on: string;
  updated_on: string;
  last_seen: string;
  occurrences: number;
  events: IssueEventRecord[];
}

/** The datalayer sync of one connection. */
export interface DatalayerRecord {
  connectionid: string;
  consumerid: string;
  accountid: string;
  envid: string;
  enabled: boolean;
  enabled_on: string | null;
  disabled_on: string | null;
  from_date: string | null;
  fiscal_years_back: number | null;
  full_history: boolean;
  entity_filter: Record<string, string[]> | null;
  next_run_at: string | null;
  last_refresh_at: string | null;
}

/** The One APIs whose datalayer is configured on an account (keyed by accountid). */
export interface DatalayerSettingsRecord {
  accountid: string;
  apis: string[];
}

/*
 * Records several verticals share. Each vertical keeps one dataset per (consumer, connection), built
 * from (seed, consumerid, connectionid) the first time the connection is used (the vertical's
 * <vertical>.seed.ts, through seed/datasets.ts) and then changed by writes.
 */

/** Where a record comes from in the connected software (the wire's Ref). */
export interface SourceRefValue {
  id: string | null;
  model: string | null;
}

export interface FieldRefValue extends SourceRefValue {
  name: string | null;
}

/* The Point of Sale and Property Management System share addresses, locations and tax totals. */

/** An address of a location or a customer (the wire's AddressItem). */
export interface VerticalAddress {
  address_type: string | null;
  name: string | null;
  street: string | null;
  number: string | null;
  box: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
}

/** Taxes of an order or a closure summed per rate (the wire's TotalTaxItem). */
export interface VerticalTaxTotal {
  tax_id: string | null;
  tax_rate: number;
  tax_amount: number;
  /** Taxes included. */
  total: number;
}

export interface VerticalLocation {
  id: string;
  name: string;
  timezone: string | null;
  address: VerticalAddress | null;
}

/**
 * What the custom routes of one connection hold (/consumers/{consumer_id}/custom/{connector}/...,
 * and .../accounting/custom/..., .../invoicing/custom/..., .../banking/...): the records of each
 * custom path, as clients wrote them (see modules/custom/custom-records.ts). Keyed by connectionid.
 */
export interface CustomRecordsRecord {
  connectionid: string;
  consumerid: string;
  /** Records by custom path (its segments joined with /), then by id. */
  collections: Record<string, Record<string, Record<string, unknown>>>;
  /** How many records the collections hold, and their size (see custom-records.ts): the bounds. */
  count: number;
  bytes: number;
}

/** Key of a vertical dataset: one per consumer and connection. */
export const datasetKey = (consumerid: string, connectionid: string) => `${consumerid}:${connectionid}`;

export interface WorldMeta {
  schema: 1;
  seed: number;
  size: WorldSize;
  /** Counter of minted ids (see lib/ids.ts). */
  sequence: number;
  /** The last journal line a file snapshot includes (see store/file-adapter.ts). */
  journal_seq?: number;
  /** Bytes clients wrote into the world: records, and changes of generated datasets (see write-change.ts). */
  client_bytes?: number;
  /** A world created over HTTP: what makes its API keys its own (see platform/credentials.ts). */
  keys_salt?: string;
  /** The instant the world's clock started (ISO): its generated history ends on its day (build-clock.ts). */
  origin?: string;
}

export type WorldSize = 'default' | 'large';

export interface World {
  meta: WorldMeta;
  accounts: Record<string, AccountRecord>;
  environments: Record<string, EnvironmentRecord>;
  keys: Record<string, ApiKeyRecord>;
  consumers: Record<string, ConsumerRecord>;
  connections: Record<string, ConnectionRecord>;
  links: Record<string, LinkRecord>;
  /** Keyed by `${connectionid}:${client_request_id}`. */
  transactions: Record<string, TransactionRecord>;
  webhooks: Record<string, WebhookRecord>;
  webhook_logs: Record<string, WebhookLogRecord>;
  webhook_deliveries: Record<string, WebhookDeliveryRecord>;
  datastores: Record<string, DatastoreRecord>;
  datastore_data: Record<string, DatastoreDataRecord>;
  syncs: Record<string, SyncRecord>;
  flows: Record<string, FlowRecord>;
  /** Keyed by `${consumerid}:${syncid}`. */
  consumer_syncs: Record<string, ConsumerSyncRecord>;
  /** Keyed by `${consumerid}:${flowid}`. */
  flow_consumers: Record<string, FlowConsumerRecord>;
  executions: Record<string, ExecutionRecord>;
  execution_logs: Record<string, ExecutionLogRecord>;
  failure_plans: Record<string, FailurePlanRecord>;
  issues: Record<string, IssueRecord>;
  /** Keyed by connectionid. */
  datalayer_syncs: Record<string, DatalayerRecord>;
  /** Keyed by accountid. */
  datalayer_settings: Record<string, DatalayerSettingsRecord>;
  /*
   * Each vertical adds its collection of generated data here (one entry per connection or folder),
   * in its records file: `declare module '.../store/world.js' { interface World { ... } }`. The
   * store knows no vertical: emptyWorld is handed their names.
   */
  /** What the custom routes of each connection hold, keyed by connectionid; made on first write. */
  custom_records: Record<string, CustomRecordsRecord>;
  /** Events declared to happen when the sandbox clock reaches them (POST /__sandbox/timeline). */
  timeline: Record<string, TimelineRecord>;
  /** The sandbox's own state that outlives a restart, by name (see SandboxStateRecord). */
  sandbox_state: Record<string, SandboxStateRecord>;
}

/**
 * An event of the timeline: records of a vertical block (`blocks`, as declared) added to a
 * connection, or an `event` of the connection's life, applied once the clock reaches `at`.
 */
export interface TimelineRecord {
  id: string;
  at: string;
  consumerid: string;
  /** null: the consumer's active connection of the block's One API when it happens. */
  connectionid: string | null;
  event: string | null;
  until: string | null;
  /** The block as declared; null on the repeats of a burst after its first, which holds it once. */
  blocks: Record<string, unknown> | null;
  /** The first event of the burst this one repeats (its block is that event's), if it repeats one. */
  burst?: string;
  status: 'pending' | 'applied' | 'failed';
  declared_on: string;
  applied_on: string | null;
  /** The records it created, by vertical and kind. */
  records: Record<string, Record<string, string[]>> | null;
  error: string | null;
}

/**
 * `clock`: the sandbox clock as it was last moved (a manual clock's reading, or the machine's time),
 * what a restart from the world file starts from; `business:<vertical>`: the last day whose generated
 * business was announced (its events published); `pace`: the world's changes of pace.
 */
export interface SandboxStateRecord {
  mode?: 'system' | 'manual';
  now?: string;
  through?: string;
  changes?: PaceChange[];
}

export const transactionKey = (connectionid: string, clientRequestId: string) =>
  `${connectionid}:${clientRequestId}`;

/**
 * A world with no records: every collection of the platform, and those of the verticals named, empty.
 */
export function emptyWorld(seed: number, size: WorldSize, verticalCollections: readonly string[]): World {
  return {
    meta: { schema: 1, seed, size, sequence: 0 },
    accounts: {},
    environments: {},
    keys: {},
    consumers: {},
    connections: {},
    links: {},
    transactions: {},
    webhooks: {},
    webhook_logs: {},
    webhook_deliveries: {},
    datastores: {},
    datastore_data: {},
    syncs: {},
    flows: {},
    consumer_syncs: {},
    flow_consumers: {},
    executions: {},
    execution_logs: {},
    failure_plans: {},
    issues: {},
    datalayer_syncs: {},
    datalayer_settings: {},
    ...Object.fromEntries(verticalCollections.map((name) => [name, {}])),
    custom_records: {},
    timeline: {},
    sandbox_state: {},
  } as World;
}

/** A world with no records and the same collections as `world` (a vertical's among them). */
export function emptyLike(world: World): World {
  const platform = new Set(Object.keys(emptyWorld(world.meta.seed, world.meta.size, [])));
  const verticals = Object.keys(world).filter((key) => !platform.has(key));
  return emptyWorld(world.meta.seed, world.meta.size, verticals);
}
