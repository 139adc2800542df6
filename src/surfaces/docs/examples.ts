import { own } from '../../lib/own.js';
import { webhookTypes } from '../../modules/webhooks/index.js';
import type { Services } from '../../platform/context.js';
import {
  type Built,
  type ExampleSpec,
  type ExampleWorld,
  MissingRecord,
  need,
  readingsOf,
} from '../../platform/examples.js';
import type { AnyVerticalModule } from '../../platform/vertical-module.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import { VERTICALS } from '../../verticals.js';
import { DocsExampleWorld } from './example-world.js';
import { type DocsExampleSpec, newConnectionIntegration, SANDBOX_EXAMPLES } from './sandbox-examples.js';

/**
 * A request body for every operation of the served documents that takes JSON, which the sandbox
 * accepts as it stands: sent once, with the path parameters below, by the seeded sandbox key, to the
 * world it was read from. Ids are never made up: each comes from the world, read through the same
 * domain and dataset functions the routes use (the consumer /docs prefills for the path, then its
 * connection's ledger or dataset: its VAT codes, accounts, journals, partners, products, locations).
 * The same world gives the same examples; as the world changes, so do they (an example that names
 * an open invoice names another once that one is paid).
 *
 * The examples of a vertical's operations are its module's (`examples`, written against the kit of
 * platform/examples.ts); those of the platform's groups and of the sandbox's own operations are
 * here, with the ExampleWorld they are all read through.
 *
 * Reading a dataset builds it when it was never used, as the first GET of it would: the data it
 * builds is the data that GET would have built, so no answer changes.
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked as plain JSON
type Json = any;

/**
 * Operations whose example needs a record the seeded world does not hold: what to send first (its
 * own example). Examples read the world again afterwards, and then name what it created: the
 * webhook to change, the link to complete, the bank receipt to match with an invoice, the datalayer
 * to refresh, the record of a custom route to change. Until then their body is there, and the path
 * parameter naming the missing record is not (or names the record the prerequisite creates).
 */
export const EXAMPLE_PREREQUISITES: Readonly<Record<string, string>> = {
  webhooks_update_webhook: 'webhooks_create_webhook',
  sandbox_complete_connection_link: 'connections_create_connection',
  datalayer_refresh: 'datalayer_enable',
  accounting_match_entries: 'accounting_create_bank_transactions',
  accounting_match_entries_multiple: 'accounting_create_bank_transactions',
  custom_connector_patch: 'custom_connector_post',
  accounting_custom_patch: 'accounting_custom_post',
  invoicing_custom_patch: 'invoicing_custom_post',
};

/** One operation's example: its body, and the path parameters it goes with. */
export interface RequestExample {
  body: unknown;
  params: Record<string, string>;
}

/** Request bodies by operationId (see requestExamples). */
export function requestBodyExamples(services: Services, origin: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(requestExamples(services, origin)).map(([operationId, { body }]) => [operationId, body]),
  );
}

/** The path parameters each example goes with, by operationId (see requestExamples). */
export function examplePathParams(
  services: Services,
  origin = 'http://127.0.0.1',
): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(requestExamples(services, origin)).map(([operationId, { params }]) => [
      operationId,
      params,
    ]),
  );
}

/**
 * Every example the world allows, by operationId, with its path parameters: consumer_id as /docs
 * prefills it (the consumer of the path's vertical, see docsPrefill), the others the records the
 * body works on. Where the world lacks the record a path names (no webhook yet: see
 * EXAMPLE_PREREQUISITES), the body is there and that parameter is not. A world that lacks what a
 * body needs (a fixture that replaced the seeded world) has no example for that operation.
 */
export function requestExamples(services: Services, origin: string): Record<string, RequestExample> {
  const world = new DocsExampleWorld(services, origin);
  const out: Record<string, RequestExample> = {};
  for (const [operationId, { path, build }] of Object.entries(examplesOf(services.verticals))) {
    let built: Built | undefined;
    try {
      built = build(world);
    } catch (error) {
      // A world without a record an example needs has no example for it: the others still stand.
      if (error instanceof MissingRecord) continue;
      throw error;
    }
    if (built === undefined) continue;
    const params: Record<string, string> = {};
    if (path.includes('{consumer_id}')) {
      const consumer = built.consumer ?? world.consumerFor(path);
      if (consumer === undefined) continue;
      params.consumer_id = consumer;
    }
    Object.assign(params, built.params);
    out[operationId] = { body: built.body, params };
  }
  return out;
}

/**
 * The document with an example on each operation's JSON request body that has one in `examples`
 * (by operationId). Schemas are left as they are; the document given is not changed.
 */
export function withRequestExamples(
  document: Record<string, Json>,
  examples: Record<string, unknown>,
): Record<string, Json> {
  const copy = structuredClone(document);
  for (const item of Object.values<Json>(copy.paths ?? {})) {
    if (item === null || typeof item !== 'object') continue;
    for (const operation of Object.values<Json>(item)) {
      const media = operation?.requestBody?.content?.['application/json'];
      if (!media || typeof operation.operationId !== 'string') continue;
      if (!Object.hasOwn(examples, operation.operationId)) continue;
      media.example = structuredClone(examples[operation.operationId]);
    }
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------------
// The examples, by operationId (read through the DocsExampleWorld of example-world.ts), with the path each one is served at.

/** The platform's groups: auth, consumers, connections, webhooks, syncs, datalayer, datastores, datalab. */
const PLATFORM_EXAMPLES: Record<string, DocsExampleSpec> = {
  generate_access_token_token_post: {
    path: '/token',
    build: (w) => ({
      body: {
        accountId: w.prefill.accountId,
        clientId: w.prefill.clientId,
        clientSecret: w.prefill.clientSecret,
      },
    }),
  },
  generate_mcp_token_mcp_token_post: {
    path: '/mcp-token',
    build: (w) => ({
      body: {
        accountId: w.prefill.accountId,
        clientId: w.prefill.clientId,
        clientSecret: w.prefill.clientSecret,
        consumerId: w.vertical('accounting').consumerid,
        scopes: ['accounting.read', 'consumers.read'],
      },
    }),
  },
  consumers_create_consumer: {
    path: '/consumers',
    build: (w) => ({
      body: {
        name: 'Boulangerie Dupont',
        email: 'admin@boulangerie-dupont.example',
        internal_reference: 'CUST-2026-0042',
        redirect_url: `${w.origin}/console`,
      },
    }),
  },
  consumers_update_consumer: {
    path: '/consumers/{consumer_id}',
    build: () => ({
      body: { email: 'finance@consumer.example', internal_reference: 'CUST-2026-0007' },
    }),
  },
  connections_create_connection: {
    path: '/consumers/{consumer_id}/connections',
    build: (w) => {
      const integration = newConnectionIntegration(w);
      return { body: { integrationid: integration.integrationid, name: `${integration.name} (bank feed)` } };
    },
  },
  connections_update_connection: {
    path: '/consumers/{consumer_id}/connections/{connectionid}',
    build: (w) => {
      const { connection, integration } = w.vertical('accounting');
      return {
        body: { name: `${integration.name}: main company`, redirect: false },
        params: { connectionid: connection.connectionid },
      };
    },
  },
  webhooks_create_webhook: {
    path: '/webhooks',
    build: () => {
      const event = need(
        webhookTypes().find((t) => t.api === null && t.event.includes('connection')) ??
          webhookTypes().find((t) => t.api === null),
        'a platform event',
      );
      return {
        body: {
          event: event.event,
          url: 'https://hooks.vendor.example/unified',
          signingsecret: 'whsec-example-1',
        },
      };
    },
  },
  webhooks_update_webhook: {
    path: '/webhooks/{webhookid}',
    build: (w) => {
      const { accountid, envid } = w.environment;
      const webhooks = Object.values(w.world.webhooks).filter(
        (h) => h.accountid === accountid && h.envid === envid && !h.restricted_to,
      );
      const webhook = webhooks.sort((a, b) => a.createdon.localeCompare(b.createdon)).at(-1);
      const params: Record<string, string> = webhook ? { webhookid: webhook.webhookid } : {};
      return { body: { status: 'inactive' }, params };
    },
  },

  // ---- syncs and flows -----------------------------------------------------------------------
  syncs_post_sync: {
    path: '/syncs',
    build: () => ({
      body: {
        name: 'Orders to invoicing',
        connections: [
          { one_api: 3, connection_type: 1, display_order: 0 },
          { one_api: 4, connection_type: 2, display_order: 1 },
        ],
        flows: [
          {
            name: 'Send paid orders',
            execution: { type: 'module', data: { name: 'send-paid-orders' } },
            config: {
              definitionFields: [{ name: 'journal_code', title: 'Journal of the invoices', type: 'string' }],
              datastores: [],
            },
            triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['0 3 * * *'] }],
          },
        ],
      },
    }),
  },
  syncs_send_custom_event: {
    path: '/syncs/{syncid}/flows/{flowid}/event',
    build: (w) => {
      const { sync, flow, consumerid } = w.sync;
      return {
        body: { consumers: [consumerid], data: { is_preview: false } },
        params: { syncid: sync.syncid, flowid: flow.flowid },
      };
    },
  },
  syncs_create_synctoconsumer: {
    path: '/consumers/{consumer_id}/syncs',
    build: (w) => {
      const { sync, consumerid } = w.sync;
      // One integration per One API the sync connects: the consumer's own active ones.
      const chosen = new Map<string, number>();
      for (const connection of connectionsOfConsumer(w.world, consumerid)) {
        const api = w.services.catalogue.get(connection.integrationid)?.api;
        if (connection.status === 'active' && api && sync.integrationids.includes(connection.integrationid)) {
          chosen.set(api, connection.integrationid);
        }
      }
      return {
        body: {
          syncid: sync.syncid,
          integrationids: [...chosen.values()].map(String),
          link_metadata: { plan: 'premium' },
        },
      };
    },
  },
  syncs_update_synctoconsumer: {
    path: '/consumers/{consumer_id}/syncs/{syncid}',
    build: (w) => {
      const { sync, consumerid } = w.sync;
      // The sync's mapping of tax rates to VAT codes: each rate of the consumer's invoicing
      // software to the sale VAT code of that rate of its accounting folder (by code, as the seeded
      // mapping names them).
      const mapping = sync.mappings[0] as { name?: string; sub_mappings?: { name?: string }[] } | undefined;
      const vatCodeOf = need(readingsOf(w.services, 'Accounting').saleVatCodes, 'the accounting examples')(
        w,
        consumerid,
      );
      const rates = need(readingsOf(w.services, 'Invoicing').taxRates, 'the invoicing examples')(
        w,
        consumerid,
      );
      const values = rates
        .sort((a, b) => b - a)
        .flatMap((rate) => {
          const code = vatCodeOf(rate);
          return code !== undefined ? [{ source_id: String(rate), target_id: code }] : [];
        });
      return {
        body: [
          {
            name: mapping?.name ?? 'VAT codes',
            display_order: 0,
            values,
            hidden_source_ids: [],
            sub_mapping_name: mapping?.sub_mappings?.[0]?.name ?? 'Tax rate to VAT code',
          },
        ],
        params: { syncid: sync.syncid },
      };
    },
  },
  syncs_enable_syncconsumer: {
    path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/enable',
    build: (w) => {
      const { sync, flow, consumerid } = w.sync;
      const current = own(w.world.flow_consumers, `${consumerid}:${flow.flowid}`);
      return {
        body: { triggerid: current?.triggerid ?? flow.triggers[0]?.id ?? null, data: current?.values ?? {} },
        params: { syncid: sync.syncid, flowid: flow.flowid },
      };
    },
  },
  syncs_update_flowtoconsumer: {
    path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}',
    build: (w) => {
      const { sync, flow, consumerid } = w.sync;
      const current = own(w.world.flow_consumers, `${consumerid}:${flow.flowid}`);
      return {
        body: { data: current?.values ?? {} },
        params: { syncid: sync.syncid, flowid: flow.flowid },
      };
    },
  },
  syncs_create_flow: {
    path: '/syncs/{syncid}/flows',
    build: (w) => ({
      body: {
        name: 'Send credit notes to accounting',
        execution: { type: 'code', data: { code: 'export default async function run() {}' } },
        config: { definitionFields: [], datastores: [] },
        triggers: [{ id: 'trigger-1', type: 'event' }],
      },
      params: { syncid: w.sync.sync.syncid },
    }),
  },
  syncs_report_local_run: {
    path: '/syncs/{syncid}/flows/{flowid}/local',
    build: (w) => ({
      body: { type: 'START' },
      params: { syncid: w.sync.sync.syncid, flowid: w.sync.flow.flowid },
    }),
  },
  consumers_post_logs: {
    path: '/consumers/{consumer_id}/logs',
    build: () => ({
      body: [
        { type: 'info', message: 'Imported 12 invoices', context: { invoices: 12 } },
        { type: 'warning', message: 'Skipped a credit note without lines' },
      ],
    }),
  },

  // ---- datalayer, datastores, datalab --------------------------------------------------------
  datalayer_enable: {
    path: '/consumers/{consumer_id}/connections/{connection_id}/enable_datalayer',
    build: (w) => ({
      body: { from_date: `${Number(w.today.slice(0, 4)) - 1}-01-01`, full_history: false },
      params: { connection_id: w.vertical('accounting').connection.connectionid },
    }),
  },
  datalayer_refresh: {
    path: '/consumers/{consumer_id}/connections/{connection_id}/refresh_datalayer',
    build: (w) => ({
      body: { force_from_date: `${w.today.slice(0, 7)}-01` },
      params: { connection_id: w.vertical('accounting').connection.connectionid },
    }),
  },
  datastores_create_consumer_datastoredata: {
    path: '/consumers/{consumer_id}/datastore/{datastoreid}/data',
    build: (w) => {
      const { datastore } = consumerDatastore(w);
      return {
        body: [{ data: rowData(w, datastore.definition.columns, 'new') }],
        params: { datastoreid: datastore.datastoreid },
      };
    },
  },
  datastores_update_consumer_datastoredata: {
    path: '/consumers/{consumer_id}/datastore/{datastoreid}/data/{datastoredataid}',
    build: (w) => {
      const { datastore, row } = consumerDatastore(w);
      return {
        body: { data: rowData(w, datastore.definition.columns, 'change') },
        params: { datastoreid: datastore.datastoreid, datastoredataid: need(row, 'a row').datastoredataid },
      };
    },
  },
  datalab_query_db: {
    path: '/datalab/query-db',
    build: (w) => ({
      body: {
        measures: ['pos_orders.total', 'pos_orders.count'],
        timeDimensions: [
          { dimension: 'pos_orders.closing_date', granularity: 'month', dateRange: 'last 3 months' },
        ],
        filters: [{ member: 'pos_orders.consumer_id', operator: 'equals', values: [w.consumerOf('pos')] }],
      },
    }),
  },
  datalab_query_groups_join: {
    path: '/datalab/query-groups-join',
    build: (w) => ({
      body: {
        queries: [
          {
            measures: ['pos_orders.total'],
            timeDimensions: [
              { dimension: 'pos_orders.closing_date', granularity: 'month', dateRange: 'last 3 months' },
            ],
            filters: [
              { member: 'pos_orders.consumer_id', operator: 'equals', values: [w.consumerOf('pos')] },
            ],
          },
          {
            measures: ['commerce_orders.count'],
            timeDimensions: [
              { dimension: 'commerce_orders.created_on', granularity: 'month', dateRange: 'last 3 months' },
            ],
            filters: [
              {
                member: 'commerce_orders.consumer_id',
                operator: 'equals',
                values: [w.consumerOf('commerce')],
              },
            ],
          },
        ],
        align: [['pos_orders.closing_date.month', 'commerce_orders.created_on.month']],
      },
    }),
  },
};

/**
 * Every example, by operationId: the platform's, then each vertical's of the app in the order of its
 * list, then the sandbox's (the order they are read in, which is the order datasets are built in).
 */
function examplesOf(verticals: readonly AnyVerticalModule[]): Record<string, DocsExampleSpec> {
  const ofVerticals: [string, ExampleSpec][] = verticals.flatMap((m) =>
    Object.entries(m.examples?.specs ?? {}),
  );
  return Object.fromEntries([
    ...Object.entries(PLATFORM_EXAMPLES),
    ...ofVerticals,
    ...Object.entries(SANDBOX_EXAMPLES),
  ]);
}

/**
 * The path each example is served at, by operationId (what the tests check the documents against):
 * those of every vertical of the sandbox (src/verticals.ts), whatever an app was composed of.
 */
export function examplePaths(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(examplesOf(VERTICALS)).map(([operationId, { path }]) => [operationId, path]),
  );
}

// ---------------------------------------------------------------------------------------------------
// What the platform's examples read.

/** The consumer's datastore for /docs: an active one of its account where it keeps rows. */
function consumerDatastore(w: ExampleWorld) {
  const consumerid = need(w.consumerFor('/consumers/{consumer_id}/datastore'), 'a consumer');
  const consumer = need(own(w.world.consumers, consumerid), 'the consumer');
  const rows = Object.values(w.world.datastore_data).filter((r) => r.consumerid === consumerid);
  const active = Object.values(w.world.datastores).filter(
    (d) => d.accountid === consumer.accountid && d.status === 'active',
  );
  // Preferably one with an optional column, so that an update changes one column alone.
  const withRows = active.filter((d) => rows.some((r) => r.datastoreid === d.datastoreid));
  const datastore = need(
    withRows.find((d) => d.definition.columns.some((c) => c.optional)) ?? withRows[0] ?? active[0],
    'an active datastore',
  );
  const row = rows.filter((r) => r.datastoreid === datastore.datastoreid).at(-1);
  return { datastore, row };
}

/** A row of a datastore: every column for a new row, one column (optional if any) for a change. */
function rowData(
  w: ExampleWorld,
  columns: readonly { name: string; type: string; optional: boolean }[],
  kind: 'new' | 'change',
): Record<string, unknown> {
  const now = w.services.clock.now().toISOString();
  const value = (column: { name: string; type: string }) => {
    switch (column.type) {
      case 'number':
        return 1250.5;
      case 'integer':
        return 3;
      case 'boolean':
        return true;
      case 'date':
        return w.today;
      case 'datetime':
        return now;
      default:
        return kind === 'change' ? 'Checked by hand' : `${column.name.replace(/_/g, '-').toUpperCase()}-1042`;
    }
  };
  if (kind === 'change') {
    const column = need(columns.find((c) => c.optional) ?? columns[0], 'a column');
    return { [column.name]: value(column) };
  }
  return Object.fromEntries(columns.map((c) => [c.name, value(c)]));
}
