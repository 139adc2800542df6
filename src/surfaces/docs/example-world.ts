import { sandboxEnv } from '../../control/env.js';
import { own } from '../../lib/own.js';
import { connectorSlug } from '../../modules/custom/index.js';
import type { ApiName } from '../../platform/catalogue.js';
import type { Services } from '../../platform/context.js';
import { type ExampleScope, type ExampleWorld, need, readingsOf } from '../../platform/examples.js';
import { activeConnectionOf } from '../../platform/transactions.js';
import type { World } from '../../store/world.js';
import { docsPrefill } from './prefill.js';

/**
 * The world as the examples read it (the ExampleWorld of platform/examples.ts), with what only the
 * platform's examples read: the /docs prefill (the seeded key), the custom connector, the sync.
 */
export class DocsExampleWorld implements ExampleWorld {
  readonly services: Services;
  readonly origin: string;
  readonly world: World;
  readonly today: string;
  readonly prefill: ReturnType<typeof docsPrefill>;
  readonly #memo = new Map<string, unknown>();

  constructor(services: Services, origin: string) {
    this.services = services;
    this.origin = origin;
    this.world = services.store.world;
    this.today = services.store.today();
    this.prefill = docsPrefill(this.world, origin, services.catalogue);
  }

  once<T>(key: string, make: () => T): T {
    if (!this.#memo.has(key)) this.#memo.set(key, make());
    return this.#memo.get(key) as T;
  }

  /** The consumer /docs prefills for a path: that of the segment after /consumers/{consumer_id}. */
  consumerFor(path: string): string | undefined {
    const at = path.indexOf('{consumer_id}');
    const segment = path.slice(at + '{consumer_id}'.length).split('/')[1] ?? '';
    const ids = this.prefill.consumer_ids as Record<string, string | undefined>;
    return (Object.hasOwn(ids, segment) ? ids[segment] : undefined) ?? ids[''];
  }

  /** The prefilled consumer of a segment with its active connection of the One API. */
  scope(segment: string, api: ApiName): ExampleScope {
    return this.scopeOf(
      need(this.consumerFor(`/consumers/{consumer_id}/${segment}`), `a ${api} consumer`),
      api,
    );
  }

  /** A consumer's active connection of a One API, as its operations pick it (the newest). */
  scopeOf(consumerid: string, api: ApiName): ExampleScope {
    const connection = need(
      activeConnectionOf(this.world, consumerid, api, (id) => this.services.catalogue.get(id)?.api),
      `an active ${api} connection`,
    );
    const integration = need(this.services.catalogue.get(connection.integrationid), 'its integration');
    return { consumerid, connection, integration };
  }

  /**
   * The scope the examples of the vertical of a One API work in, its data read as they read it (the
   * platform's examples that name a vertical's consumer or connection read it so, in their order).
   */
  #examplesScope(api: ApiName): ExampleScope {
    return need(readingsOf(this.services, api).scope, `the ${api} examples`)(this);
  }

  /** The scope the examples of the app's vertical of `key` (its descriptor's) work in. */
  vertical(key: string): ExampleScope {
    const found = this.services.verticals.find((v) => v.key === key);
    return this.#examplesScope(need(found, `the ${key} vertical`).api);
  }

  /** The consumer of that scope. */
  consumerOf(key: string): string {
    return this.vertical(key).consumerid;
  }

  /**
   * The consumer of a custom connector, its active Custom connection, and the connector as a path
   * names it. /docs prefills no consumer for custom paths yet: then the one `env` prints.
   */
  get custom(): ExampleScope & { connector: string } {
    return this.once('custom', () => {
      const ids = this.prefill.consumer_ids as Record<string, string | undefined>;
      const env = new Map(sandboxEnv(this.world, this.origin, this.services.catalogue));
      const consumerid = need(ids.custom ?? env.get('SANDBOX_CONSUMER_ID_CUSTOM'), 'a custom consumer');
      const connection = need(
        activeConnectionOf(this.world, consumerid, 'Custom', (id) => this.services.catalogue.get(id)?.api),
        'an active Custom connection',
      );
      const integration = need(this.services.catalogue.get(connection.integrationid), 'its integration');
      return { consumerid, connection, integration, connector: connectorSlug(integration.name) };
    });
  }

  /** The seeded sandbox key's account and environment (what the prefilled key reaches). */
  get environment(): { accountid: string; envid: string } {
    const key = Object.values(this.world.keys).find((k) => k.clientid === this.prefill.clientId);
    return need(key && { accountid: key.accountid, envid: key.envid }, 'the sandbox key');
  }

  /** The sync /docs works with: the one the sync consumer is set up for, with its flows. */
  get sync() {
    return this.once('sync', () => {
      const consumerid = need(this.prefill.consumer_ids.syncs, 'the sync consumer');
      const setUp = Object.values(this.world.consumer_syncs).filter((s) => s.consumerid === consumerid);
      const sync = need(
        setUp.map((s) => own(this.world.syncs, s.syncid)).find((s) => s !== undefined),
        'a sync',
      );
      const flows = Object.values(this.world.flows).filter((f) => f.syncid === sync.syncid);
      const enabled = (flowid: string) => own(this.world.flow_consumers, `${consumerid}:${flowid}`)?.enabled;
      // The flow an event starts and the consumer has enabled: what events, enabling and runs use.
      const flow = need(
        flows.find((f) => enabled(f.flowid) && f.triggers.some((t) => t.type === 'event')) ??
          flows.find((f) => enabled(f.flowid)),
        'an enabled flow',
      );
      return { consumerid, sync, flow, flows };
    });
  }
}
