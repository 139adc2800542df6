import { own } from '../../lib/own.js';
import { connectionCredentials, mandatoryPostConnections } from '../../modules/connections/index.js';
import type { Integration } from '../../platform/catalogue.js';
import { type Built, customPatch, customPost, type ExampleWorld, need } from '../../platform/examples.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import type { DocsExampleWorld } from './example-world.js';

/**
 * The examples of the sandbox's own operations (see examples.ts): the custom connectors'
 * pass-through, the link page and the control endpoints.
 */

/** An example of the platform's, which may read what only the docs' world knows (the prefill...). */
export interface DocsExampleSpec {
  path: string;
  build: (w: DocsExampleWorld) => Built | undefined;
}

/** What the sandbox adds: the custom connectors' pass-through, the link page, the control endpoints. */
export const SANDBOX_EXAMPLES: Record<string, DocsExampleSpec> = {
  custom_connector_post: {
    path: '/consumers/{consumer_id}/custom/{connector}/{custom_path}',
    build: (w) => {
      const { consumerid, connection, connector } = w.custom;
      const built = customPost(w, connection, 'imports', 'IMPORT', { source: 'orders', rows: 3 });
      return { ...built, params: { connector, ...built.params }, consumer: consumerid };
    },
  },
  custom_connector_patch: {
    path: '/consumers/{consumer_id}/custom/{connector}/{custom_path}',
    build: (w) => {
      const { consumerid, connection, connector } = w.custom;
      const built = customPatch(w, connection, 'imports', 'IMPORT', { status: 'done' });
      return { ...built, params: { connector, ...built.params }, consumer: consumerid };
    },
  },
  sandbox_complete_connection_link: {
    path: '/link/{linkid}',
    build: (w) => {
      // The newest open link of the sandbox environment's consumers, with the credentials its
      // integration asks for (the sandbox's values, as seeded connections hold).
      const { accountid, envid } = w.environment;
      const link = Object.values(w.world.links)
        .filter((l) => {
          const consumer = own(w.world.consumers, l.consumerid);
          return l.completed_on === null && consumer?.accountid === accountid && consumer.envid === envid;
        })
        .sort((a, b) => a.created_on.localeCompare(b.created_on))
        .at(-1);
      // No open link yet: the one the connection example makes, for the integration it names.
      const integration = need(
        !link
          ? newConnectionIntegration(w)
          : link.integrationid !== null
            ? w.services.catalogue.get(link.integrationid)
            : w.services.catalogue.integrations.find(
                (i) => i.status === 'active' && (link.apis === null || link.apis.includes(i.api)),
              ),
        'the integration of the link',
      );
      const credentials = Object.fromEntries(
        connectionCredentials(integration)
          .filter((c) => !c.optional)
          .map((c) => [c.name, `sandbox-${c.name}`]),
      );
      const postConnections = Object.fromEntries(
        mandatoryPostConnections(integration).map((p) => [p.id, `sandbox-${p.id}`]),
      );
      return {
        body: {
          ...(link?.integrationid === null ? { integrationid: integration.integrationid } : {}),
          credentials,
          ...(Object.keys(postConnections).length ? { post_connections: postConnections } : {}),
        },
        params: (link ? { linkid: link.linkid } : {}) as Record<string, string>,
      };
    },
  },
  sandbox_set_clock: {
    path: '/__sandbox/clock',
    build: () => ({ body: { advance_seconds: 3600 } }),
  },
  sandbox_declare_timeline: {
    path: '/__sandbox/timeline',
    build: (w) => {
      const { consumerid, connection } = w.scope('accounting', 'Accounting');
      const tomorrow = new Date(Date.parse(`${w.today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      return {
        body: {
          events: [
            {
              at: `${tomorrow}T10:00:00Z`,
              consumer: consumerid,
              connection: connection.connectionid,
              event: 'credentials_expired',
            },
          ],
        },
      };
    },
  },
  sandbox_set_pace: {
    path: '/__sandbox/pace',
    build: () => ({ body: { pace: 'busy' } }),
  },
  sandbox_create_world: {
    path: '/__sandbox/worlds',
    build: () => ({ body: { seed: 7, clock: '2026-01-15T09:00:00Z', pace: 'normal', ttl_seconds: 600 } }),
  },
  sandbox_arm_failure: {
    path: '/__sandbox/failures',
    build: (w) => ({
      body: {
        flowid: w.sync.flow.flowid,
        consumerid: w.sync.consumerid,
        count: 1,
        error_code: 'ERROR_AUTHENTICATION_FAILED',
        level: 'error',
        message: 'The credentials of the accounting software expired',
      },
    }),
  },
  sandbox_add_fault: {
    path: '/__sandbox/faults',
    build: (w) => ({
      body: {
        match: {
          method: 'GET',
          path: '/consumers/{consumer_id}/accounting/invoices',
          consumer_id: w.vertical('accounting').consumerid,
        },
        effect: { status: 503, headers: { 'Retry-After': '5' } },
        times: 1,
      },
    }),
  },
  sandbox_load_fixtures: {
    path: '/__sandbox/fixtures',
    build: (w) => ({
      body: {
        consumers: [
          {
            name: 'Fixture Bakery',
            ref: 'bakery',
            connections: [
              {
                integration: w.vertical('accounting').integration.integrationid,
                accounting: {
                  clients: [
                    {
                      name: 'Hotel Métropole',
                      is_company: true,
                      addresses: [
                        {
                          address_type: 'main',
                          street: 'Place de Brouckère',
                          number: '31',
                          city: 'Bruxelles',
                          postal_code: '1000',
                          country: 'BE',
                        },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    }),
  },
};

/**
 * The integration a new connection of the prefilled consumer is made for: one of a One API it has no
 * connection of (a bank feed when it has none), so that it clashes with none of its connections.
 */
export function newConnectionIntegration(w: ExampleWorld): Integration {
  const consumerid = need(w.consumerFor('/consumers/{consumer_id}/connections'), 'a consumer');
  const apis = new Set(
    connectionsOfConsumer(w.world, consumerid).map((c) => w.services.catalogue.get(c.integrationid)?.api),
  );
  const offered = w.services.catalogue.integrations.filter((i) => i.status === 'active' && !apis.has(i.api));
  return need(offered.find((i) => i.api === 'Banking') ?? offered[0], 'an integration of another One API');
}
