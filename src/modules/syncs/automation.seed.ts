import { uuidFrom } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import { loadCatalogue } from '../../platform/catalogue.js';
import type { SeededIds } from '../../platform/credentials.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import type {
  ExecutionRecord,
  FlowConsumerRecord,
  FlowRecord,
  IssueLevelName,
  IssueRecord,
  SyncRecord,
  World,
} from '../../store/world.js';
import { connectionForFlow, QUEUE_SECONDS, runSeconds } from './simulation/engine.js';
import { describeError } from './simulation/error-codes.js';

/**
 * The seeded automation: syncs with flows (an event-triggered one and a timer one with a cron),
 * consumers set up for them with flows enabled, past executions (successes and failures), and the
 * issues those failures opened (open and closed, of both levels), dated in the days before the
 * sandbox's default start (2026-01-15T09:00Z) and consistent with what the simulation would have
 * done. The datalayer is configured on the main account for Accounting, Point of Sale and
 * Invoicing, and enabled on the sync consumer's accounting connection. Ids derive from the seed.
 */

type Directory = SeededIds;

/** Well-known ids of the seeded automation, for tests and docs. */
export function automationDirectory(seed: number) {
  return {
    syncId: uuidFrom('sync', seed, 'main'),
    invoicesFlowId: uuidFrom('flow', seed, 'main', 'invoices'),
    paymentsFlowId: uuidFrom('flow', seed, 'main', 'payments'),
    posSyncId: uuidFrom('sync', seed, 'pos'),
    posSalesFlowId: uuidFrom('flow', seed, 'pos', 'sales'),
    otherAccountSyncId: uuidFrom('sync', seed, 'other'),
    otherAccountFlowId: uuidFrom('flow', seed, 'other', 'orders'),
    /** Closed, level error: the authentication failure a later success closed. */
    closedErrorIssueId: uuidFrom('issue', seed, 'auth'),
    /** Open, level error, two occurrences: a mapping missing on the invoices flow. */
    openErrorIssueId: uuidFrom('issue', seed, 'mapping'),
    /** Closed, level warning: a rate limit on the payments import. */
    closedWarningIssueId: uuidFrom('issue', seed, 'rate-limit'),
    /** Open, level warning, two occurrences: refused sales of the POS consumer. */
    openWarningIssueId: uuidFrom('issue', seed, 'validation'),
  };
}

/** The One APIs with the datalayer configured on the main account (none on the other one). */
export const SEEDED_DATALAYER_APIS = ['Accounting', 'Point of Sale', 'Invoicing'];

const INVOICES_FIELDS = [
  { name: 'journal_code', title: 'Journal of the invoices', type: 'string' },
  { name: 'post_payments', title: 'Also post the payments', type: 'boolean', optional: true },
  { name: 'days_back', title: 'Days to look back', type: 'integer', default: 30 },
];

function flow(
  world: World,
  flowid: string,
  syncid: string,
  name: string,
  description: string,
  fields: Record<string, unknown>[],
  trigger: FlowRecord['triggers'][number],
  created_on: string,
): FlowRecord {
  const record: FlowRecord = {
    flowid,
    syncid,
    name,
    description,
    execution: { type: 'module', data: { name: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') } },
    config: { definitionFields: fields, datastores: [] },
    triggers: [trigger],
    created_on,
  };
  world.flows[flowid] = record;
  return record;
}

const trigger = (
  type: 'event' | 'timer',
  cronschedules: string[] | null,
  definitionFields: Record<string, unknown>[] | null = null,
): FlowRecord['triggers'][number] => ({
  id: 'trigger-1',
  type,
  cronschedules,
  visible: true,
  definitionFields,
  options: null,
  priority: 'NORMAL',
});

class AutomationSeeder {
  readonly world: World;
  readonly seed: number;
  #counter = 0;

  constructor(world: World, seed: number) {
    this.world = world;
    this.seed = seed;
  }

  enable(
    consumerid: string,
    sync: SyncRecord,
    flowRecord: FlowRecord,
    values: Record<string, unknown>,
    extra: Partial<FlowConsumerRecord>,
  ) {
    this.world.flow_consumers[`${consumerid}:${flowRecord.flowid}`] = {
      consumerid,
      syncid: sync.syncid,
      flowid: flowRecord.flowid,
      enabled: true,
      enabled_on: '2026-01-05T10:00:00.000Z',
      disabled_on: null,
      triggerid: 'trigger-1',
      cronschedule: null,
      values,
      integrationids: [],
      next_run_at: null,
      ...extra,
    };
  }

  setUp(
    consumerid: string,
    sync: SyncRecord,
    link_createdon: string,
    mappings: Record<string, unknown>[] | null,
  ) {
    this.world.consumer_syncs[`${consumerid}:${sync.syncid}`] = {
      consumerid,
      syncid: sync.syncid,
      link_createdon,
      link_metadata: { source: 'seed' },
      link_mappings: mappings,
      link_presync: null,
    };
  }

  /** A settled execution queued at `at`, planned as the engine plans one. */
  execution(
    consumerid: string,
    sync: SyncRecord | null,
    flowRecord: FlowRecord | null,
    at: string,
    trigger: ExecutionRecord['trigger'],
    failure: ExecutionRecord['failure'],
    parent: string | null,
    connectionid?: string,
  ): ExecutionRecord {
    this.#counter += 1;
    const executionid = uuidFrom('execution', this.seed, 'seed', this.#counter);
    const consumer = own(this.world.consumers, consumerid);
    if (!consumer) throw new Error(`seed: unknown consumer ${consumerid}`);
    const connection = connectionid
      ? own(this.world.connections, connectionid)
      : sync
        ? connectionForFlow(
            this.world,
            consumerid,
            sync,
            own(this.world.flow_consumers, `${consumerid}:${flowRecord?.flowid}`),
          )
        : null;
    const start = Date.parse(at) + QUEUE_SECONDS * 1000;
    const record: ExecutionRecord = {
      executionid,
      parentexecutionid: parent,
      accountid: consumer.accountid,
      envid: consumer.envid,
      consumerid,
      kind: flowRecord ? 'flow' : 'datalayer',
      trigger,
      syncid: sync?.syncid ?? null,
      flowid: flowRecord?.flowid ?? null,
      used_connectionid: connection?.connectionid ?? null,
      integrationid: connection?.integrationid ?? null,
      is_preview: false,
      data: null,
      queued_at: at,
      start: new Date(start).toISOString(),
      end: new Date(start + runSeconds(executionid) * 1000).toISOString(),
      outcome: failure ? 'error' : 'success',
      failure,
      settled: true,
    };
    this.world.executions[executionid] = record;
    return record;
  }

  chain(flowRecord: FlowRecord, at: string) {
    return uuidFrom('chain-execution', this.seed, flowRecord.flowid, at);
  }

  /** The issue the failed executions opened; `closedBy` is the success that closed it, if any. */
  issue(issueId: string, failed: ExecutionRecord[], closedBy: ExecutionRecord | null): IssueRecord {
    const first = failed[0];
    const last = failed.at(-1);
    if (!first?.failure || !last?.end) throw new Error('seed: an issue needs failed executions');
    const description = describeError(first.failure.error_code, first.failure.message);
    const connection = first.used_connectionid
      ? own(this.world.connections, first.used_connectionid)
      : undefined;
    const integration = connection ? loadCatalogue().get(connection.integrationid) : undefined;
    const record: IssueRecord = {
      issue_id: issueId,
      accountid: first.accountid,
      envid: first.envid,
      consumerid: first.consumerid,
      connection_id: connection?.connectionid ?? null,
      integration_id: connection?.integrationid ?? null,
      integration_name: integration?.name ?? null,
      syncid: first.syncid,
      flowid: first.flowid,
      datalayer_of: first.kind === 'datalayer' ? first.used_connectionid : null,
      error_code: first.failure.error_code,
      error_status: description.status,
      error_title: description.title,
      error_description: description.description,
      level: first.failure.level,
      status: closedBy ? 'closed' : 'open',
      created_on: first.end as string,
      updated_on: closedBy?.end ?? last.end,
      last_seen: last.end,
      occurrences: failed.length,
      events: failed.map((execution, i) => ({
        id: uuidFrom('issue-event', this.seed, issueId, i),
        execution_id: execution.executionid,
        created_on: execution.end as string,
        context: {
          kind: execution.kind,
          trigger: execution.trigger,
          syncid: execution.syncid,
          flowid: execution.flowid,
          connectionid: execution.used_connectionid,
        },
        message: execution.failure?.message ?? description.description,
      })),
    };
    this.world.issues[issueId] = record;
    return record;
  }
}

const fail = (error_code: string, level: IssueLevelName, message: string | null = null) => ({
  error_code,
  level,
  message,
});

export function seedAutomation(world: World, seed: number, directory: Directory): void {
  const ids = automationDirectory(seed);
  const s = new AutomationSeeder(world, seed);
  const { accountId, otherAccount } = directory;

  world.datalayer_settings[accountId] = { accountid: accountId, apis: [...SEEDED_DATALAYER_APIS] };
  world.datalayer_settings[otherAccount.accountId] = { accountid: otherAccount.accountId, apis: [] };

  seedMainSync(world, s, ids, directory);
  seedPosSync(world, s, ids, directory);
  seedOtherAccountSync(world, ids, directory);
}

/** The main sync (invoices of the invoicing software posted to the accounting software) and its runs. */
function seedMainSync(
  world: World,
  s: AutomationSeeder,
  ids: ReturnType<typeof automationDirectory>,
  directory: Directory,
): void {
  const { accountId, sandboxEnvId } = directory;
  // The main sync: invoices of the invoicing software posted to the accounting software.
  const main: SyncRecord = {
    syncid: directory.syncId,
    accountid: accountId,
    envid: sandboxEnvId,
    name: 'Invoices to accounting',
    config: null,
    connections: [
      { one_api: 4, connection_type: 1, display_order: 0, display_hidden: false },
      { one_api: 1, connection_type: 2, display_order: 1, display_hidden: false },
    ],
    mappings: [
      {
        name: 'VAT codes',
        description: 'Which VAT code of the accounting software each tax rate of the invoices uses',
        display_order: 0,
        sub_mappings: [
          {
            name: 'Tax rate to VAT code',
            source_field: {
              name: 'tax_rate',
              type: 'api',
              api_route: '/invoicing/taxes',
              connection_type: 1,
            },
            target_field: {
              name: 'vat_code',
              type: 'api',
              api_route: '/accounting/vat-codes',
              connection_type: 2,
            },
          },
        ],
      },
    ],
    // Sandbox Books Desktop (90102) is deliberately left out of the selection.
    integrationids: [7010, 7023, 1000, 90101],
    created_on: '2026-01-02T09:00:00.000Z',
  };
  world.syncs[main.syncid] = main;
  const invoices = flow(
    world,
    ids.invoicesFlowId,
    main.syncid,
    'Send invoices to accounting',
    'Posts each new invoice of the invoicing software as a sale entry',
    INVOICES_FIELDS,
    trigger('event', null, [
      { name: 'invoice_number', title: 'Only this invoice', type: 'string', optional: true },
    ]),
    '2026-01-02T09:00:00.000Z',
  );
  const payments = flow(
    world,
    ids.paymentsFlowId,
    main.syncid,
    'Import payments',
    'Matches the payments of the invoices in the accounting software',
    [{ name: 'start_date', title: 'Import payments from', type: 'date', optional: true }],
    trigger('timer', ['0 2 * * *', '0 */6 * * *']),
    '2026-01-02T09:05:00.000Z',
  );

  const consumerid = directory.syncConsumerId;
  s.setUp(consumerid, main, '2026-01-05T09:30:00.000Z', [
    {
      name: 'VAT codes',
      display_order: 0,
      values: [
        { source_id: '21', target_id: 'V21' },
        { source_id: '6', target_id: 'V06' },
      ],
      hidden_source_ids: [],
      sub_mapping_name: 'Tax rate to VAT code',
    },
  ]);
  s.enable(consumerid, main, invoices, { journal_code: 'VEN', post_payments: true, days_back: 30 }, {});
  s.enable(
    consumerid,
    main,
    payments,
    {},
    { cronschedule: '0 2 * * *', next_run_at: '2026-01-16T02:00:00.000Z' },
  );
  // The accounting showcase consumer opened the link but has no invoicing connection yet (inactive).
  s.setUp(directory.verticalConsumers.ACCOUNTING as string, main, '2026-01-08T14:00:00.000Z', null);
  seedPastRuns(s, ids, consumerid, main, invoices, payments);
  seedDatalayerSync(world, s, directory);
}

/** The past runs of the main sync's flows, and the issues they opened and closed. */
function seedPastRuns(
  s: AutomationSeeder,
  ids: ReturnType<typeof automationDirectory>,
  consumerid: string,
  main: SyncRecord,
  invoices: FlowRecord,
  payments: FlowRecord,
): void {
  // Past runs of the invoices flow: a success, an authentication failure closed by the next success,
  // then a mapping missing twice (still open).
  const event = (at: string, failure: ExecutionRecord['failure']) =>
    s.execution(consumerid, main, invoices, at, 'event', failure, s.chain(invoices, at));
  event('2026-01-10T10:00:00.000Z', null);
  const authFailure = event('2026-01-12T10:00:00.000Z', fail('ERROR_AUTHENTICATION_FAILED', 'error'));
  const authFixed = event('2026-01-13T10:00:00.000Z', null);
  const mapping1 = event(
    '2026-01-14T10:00:00.000Z',
    fail('ERROR_MAPPING_MISSING', 'error', 'No VAT code mapped for the tax rate 12'),
  );
  const mapping2 = event(
    '2026-01-14T16:00:00.000Z',
    fail('ERROR_MAPPING_MISSING', 'error', 'No VAT code mapped for the tax rate 12'),
  );
  s.issue(ids.closedErrorIssueId, [authFailure], authFixed);
  s.issue(ids.openErrorIssueId, [mapping1, mapping2], null);

  // Nightly runs of the payments import: a rate limit (warning) closed by the next night's success.
  const nightly = (at: string, failure: ExecutionRecord['failure']) =>
    s.execution(consumerid, main, payments, at, 'timer', failure, s.chain(payments, at));
  nightly('2026-01-13T02:00:00.000Z', null);
  const rateLimited = nightly('2026-01-14T02:00:00.000Z', fail('ERROR_RATE_LIMITED', 'warning'));
  const recovered = nightly('2026-01-15T02:00:00.000Z', null);
  s.issue(ids.closedWarningIssueId, [rateLimited], recovered);
}

/** The datalayer of the sync consumer's accounting connection, refreshed every night. */
function seedDatalayerSync(world: World, s: AutomationSeeder, directory: Directory): void {
  const { accountId, sandboxEnvId } = directory;
  const consumerid = directory.syncConsumerId;
  // The datalayer of the sync consumer's accounting connection, refreshed every night.
  const accounting = connectionsOfConsumer(world, consumerid).find((c) => c.integrationid === 1000);
  if (accounting) {
    const refreshed = s.execution(
      consumerid,
      null,
      null,
      '2026-01-15T03:00:00.000Z',
      'schedule',
      null,
      null,
      accounting.connectionid,
    );
    world.datalayer_syncs[accounting.connectionid] = {
      connectionid: accounting.connectionid,
      consumerid,
      accountid: accountId,
      envid: sandboxEnvId,
      enabled: true,
      enabled_on: '2026-01-05T09:45:00.000Z',
      disabled_on: null,
      from_date: '2025-01-01',
      fiscal_years_back: null,
      full_history: false,
      entity_filter: null,
      next_run_at: '2026-01-16T03:00:00.000Z',
      last_refresh_at: refreshed.end,
    };
  }
}

/** A second sync: daily sales of the point of sale, for the POS showcase consumer. */
function seedPosSync(
  world: World,
  s: AutomationSeeder,
  ids: ReturnType<typeof automationDirectory>,
  directory: Directory,
): void {
  const { accountId, sandboxEnvId } = directory;
  // A second sync: daily sales of the point of sale, for the POS showcase consumer.
  const pos: SyncRecord = {
    syncid: ids.posSyncId,
    accountid: accountId,
    envid: sandboxEnvId,
    name: 'Daily sales to accounting',
    config: { presync: { ask_vat_regime: true } },
    connections: [
      { one_api: 2, connection_type: 1, display_order: 0, display_hidden: false },
      { one_api: 1, connection_type: 2, display_order: 1, display_hidden: false },
    ],
    mappings: [],
    integrationids: [9012, 9000, 1000, 90101, 90102],
    created_on: '2026-01-03T09:00:00.000Z',
  };
  world.syncs[pos.syncid] = pos;
  const sales = flow(
    world,
    ids.posSalesFlowId,
    pos.syncid,
    'Post daily sales',
    'Posts the sales of each closed day as one journal entry',
    [{ name: 'sales_journal', title: 'Journal of the sales', type: 'string', default: 'CAISSE' }],
    trigger('timer', ['0 5 * * *']),
    '2026-01-03T09:00:00.000Z',
  );
  const posConsumer = directory.verticalConsumers.POS as string;
  s.setUp(posConsumer, pos, '2026-01-06T11:00:00.000Z', null);
  s.enable(
    posConsumer,
    pos,
    sales,
    { sales_journal: 'CAISSE' },
    {
      cronschedule: '0 5 * * *',
      next_run_at: '2026-01-16T05:00:00.000Z',
    },
  );
  const refused = (at: string) =>
    s.execution(
      posConsumer,
      pos,
      sales,
      at,
      'timer',
      fail('ERROR_VALIDATION', 'warning', 'A sale has no payment method'),
      s.chain(sales, at),
    );
  s.issue(
    ids.openWarningIssueId,
    [refused('2026-01-14T05:00:00.000Z'), refused('2026-01-15T05:00:00.000Z')],
    null,
  );
}

/** The other vendor account's sync of its own (isolation). */
function seedOtherAccountSync(
  world: World,
  ids: ReturnType<typeof automationDirectory>,
  directory: Directory,
): void {
  const { otherAccount } = directory;
  // The other vendor account has a sync of its own (isolation).
  const other: SyncRecord = {
    syncid: ids.otherAccountSyncId,
    accountid: otherAccount.accountId,
    envid: otherAccount.sandboxEnvId,
    name: 'Orders to accounting',
    config: null,
    connections: [{ one_api: 3, connection_type: 1, display_order: 0, display_hidden: false }],
    mappings: [],
    integrationids: [90301],
    created_on: '2026-01-04T09:00:00.000Z',
  };
  world.syncs[other.syncid] = other;
  flow(
    world,
    ids.otherAccountFlowId,
    other.syncid,
    'Post orders',
    'Posts the orders of the shop',
    [],
    trigger('event', null),
    '2026-01-04T09:00:00.000Z',
  );
}
