import { type ApiError, errors, messages } from '../lib/errors.js';
import { type IdSource, uuidFrom } from '../lib/ids.js';
import { own } from '../lib/own.js';
import type { Sliced } from '../lib/slices.js';
import { isKnownScope } from '../modules/auth/index.js';
import type { PostConnectionInput } from '../modules/connections/index.js';
import {
  connectionCredentials,
  createConnection,
  requireActiveIntegration,
} from '../modules/connections/index.js';
import { createConsumer } from '../modules/consumers/index.js';
import { createRows } from '../modules/datastores/index.js';
import {
  createConsumerSyncLink,
  createSync,
  enableFlow,
  flowsOf,
  replaceMappings,
  requireFlow,
} from '../modules/syncs/index.js';
import { createWebhook, webhookTypes } from '../modules/webhooks/index.js';
import { requireConsumer } from '../platform/access.js';
import type { Integration } from '../platform/catalogue.js';
import { credentialsOf } from '../platform/credentials.js';
import {
  type FixtureContext,
  type FixtureServices,
  ID_TAKEN,
  pinnedIds,
  RefTable,
  UNKNOWN_REFERENCE,
} from '../platform/fixtures/context.js';
import {
  FixtureError,
  formatPath,
  type PathPart,
  ruleError,
  schemaError,
} from '../platform/fixtures/errors.js';
import type { Principal } from '../platform/tokens.js';
import { Store, type WorldStore } from '../store/store.js';
import { cloneRecord, rawOf } from '../store/unit-of-work.js';
import { type ConsumerRecord, emptyLike, type SyncRecord, type World } from '../store/world.js';
import { assertFixtureBudget } from './fixtures.budget.js';
import { applyCustom } from './fixtures.custom.js';
import {
  type ConnectionFixtureValue,
  type ConsumerFixtureValue,
  type FixtureDocumentValue,
  type FixtureResultValue,
  fixtureDocument,
  type SyncConsumerFixtureValue,
} from './fixtures.schema.js';
import { applyVerticals } from './fixtures.verticals.js';
import { livingCollections, verticalMaterializers } from './seeded-world.js';
import { checkedEntry, declareTimeline } from './timeline.js';
import { assertTimelineBudget } from './timeline-budget.js';

export type { FixtureServices };

/**
 * Applies a fixture document. Every record goes through the domain function the API's handler
 * calls for it, with the same checks, so a document can only declare a world the API could build;
 * the first refusal stops everything, and the caller's write (one store.transact) is rolled back.
 */

export interface FixtureBuild {
  result: FixtureResultValue;
  /** With `replace: true`: the world to put in place of the current one (built apart). */
  replaceWith: World | null;
  /** The store it was built in: what its generated datasets were built from. */
  builtIn: Store | null;
}

type RawDocument = Record<string, unknown[] | unknown>;

/**
 * Validates `input` and applies it through `store` (inside a write), or, with `replace: true`, into
 * a new world holding only the accounts, environments and keys (returned for the caller to put in
 * place), one slice a record (run it with runAtOnce or runInSlices). Throws a FixtureError naming
 * `file`, the JSON path and the rule; a document past its budget (FIXTURE_BUDGET, and its timeline's)
 * is refused before anything of it is read further.
 */
export function* buildFixture(
  store: WorldStore,
  services: FixtureServices,
  input: unknown,
  file: string | null = null,
): Sliced<FixtureBuild> {
  assertFixtureBudget(input, file);
  // A timeline's blocks may write `{{at}}` for the instant of their event.
  const raw = input as { timeline?: unknown } | null;
  const timeline =
    raw !== null && typeof raw === 'object' && Array.isArray(raw.timeline) ? raw.timeline : null;
  if (timeline) assertTimelineBudget(timeline, ['timeline'], file);
  const checked = timeline ? { ...(raw as object), timeline: timeline.map(checkedEntry) } : input;
  const parsed = fixtureDocument(services.verticals).safeParse(checked);
  if (!parsed.success) throw schemaError(parsed.error, input, [], file);
  const doc = parsed.data;
  // The id counter lives in the world, outside what a write tracks: put it back on a refusal.
  const meta = rawOf(store.world).meta;
  const base = meta.sequence;
  try {
    // One step of the counter per load: the same document loaded twice derives other ids.
    services.ids.next('fixture');
    let target: WorldStore = store;
    let fresh: World | null = null;
    let scratch: Store | null = null;
    if (doc.replace) {
      fresh = worldWithoutRecords(store.world);
      // Nothing leaves its cache, and it shares none: the loader changes its datasets directly.
      scratch = Store.memory(fresh, {
        cacheBytes: Number.POSITIVE_INFINITY,
        shared: null,
        materializers: verticalMaterializers(services.verticals),
        living: livingCollections(services.verticals),
      });
      scratch.useClock(() => services.clock.now());
      target = scratch;
    }
    const result = yield* new Loader(target, services, doc, input as RawDocument, file, base).run();
    if (fresh) fresh.meta.sequence = meta.sequence;
    return { result, replaceWith: fresh, builtIn: scratch };
  } catch (error) {
    meta.sequence = base;
    throw error;
  }
}

/** The world `replace: true` starts from: the accounts, their environments and keys, nothing else. */
function worldWithoutRecords(world: World): World {
  const fresh = emptyLike(world);
  fresh.meta = cloneRecord(world.meta);
  fresh.accounts = cloneRecord(world.accounts);
  fresh.environments = cloneRecord(world.environments);
  fresh.keys = cloneRecord(world.keys);
  return fresh;
}

class Loader implements FixtureContext {
  readonly #consumers: RefTable;
  readonly #principal: Principal;
  readonly #seed: number;

  constructor(
    readonly store: WorldStore,
    readonly services: FixtureServices,
    private readonly doc: FixtureDocumentValue,
    private readonly raw: RawDocument,
    readonly file: string | null,
    private readonly base: number,
  ) {
    this.#seed = store.world.meta.seed;
    this.#consumers = new RefTable(this);
    const credentials = credentialsOf(store.world.meta);
    const production = doc.environment === 'production';
    const envid = production ? credentials.productionEnvId : credentials.sandboxEnvId;
    if (!own(store.world.environments, envid)) {
      this.fail(['environment'], UNKNOWN_REFERENCE, `The world holds no ${doc.environment} environment`);
    }
    this.#principal = {
      kind: 'api',
      clientid: production ? credentials.production.clientId : credentials.sandbox.clientId,
      accountid: credentials.accountId,
      envid,
      consumers: null,
      mcp: null,
    };
  }

  get world(): World {
    return this.store.world;
  }

  idFor(given: string | undefined, path: readonly PathPart[]): string {
    return given?.toLowerCase() ?? uuidFrom('fixture', this.#seed, this.base, formatPath(path));
  }

  at<T>(path: readonly PathPart[], record: unknown, work: () => T): T {
    try {
      return work();
    } catch (error) {
      return ruleError(error, record, path, this.file);
    }
  }

  fail(path: readonly PathPart[], rule: string, detail: string, status: 400 | 422 = 400): never {
    throw new FixtureError(status, rule, { path: formatPath(path), detail, file: this.file });
  }

  now(): string {
    return this.services.clock.now().toISOString();
  }

  /** Runs a domain call with the fixture's id for its record (`kind`), the app's for the others. */
  #pinned<T>(
    kind: string,
    id: string,
    path: readonly PathPart[],
    record: unknown,
    work: (ids: IdSource) => T,
  ): T {
    const ids = pinnedIds(this.services.ids, kind, id);
    const out = this.at(path, record, () => work(ids));
    if (!ids.used)
      throw new Error(`fixtures: the ${kind} at ${formatPath(path)} was not created under its id`);
    return out;
  }

  #rawAt(...path: PathPart[]): Record<string, unknown> {
    let node: unknown = this.raw;
    for (const part of path) node = (node as Record<PathPart, unknown> | undefined)?.[part];
    return (node ?? {}) as Record<string, unknown>;
  }

  *run(): Sliced<FixtureResultValue> {
    const { doc } = this;
    if (doc.mcp_scopes) this.#mcpScopes(doc.mcp_scopes);
    const consumers = [];
    for (const [index, consumer] of doc.consumers.entries()) {
      consumers.push(yield* this.#consumer(consumer, ['consumers', index]));
    }
    const webhooks = [];
    for (const [index, webhook] of doc.webhooks.entries()) {
      webhooks.push(this.#webhook(webhook, ['webhooks', index]));
      yield;
    }
    const syncs = [];
    for (const [index, sync] of doc.syncs.entries()) {
      syncs.push(this.#sync(sync, ['syncs', index]));
      yield;
    }
    const datastores = [];
    for (const [index, datastore] of doc.datastores.entries()) {
      datastores.push(yield* this.#datastore(datastore, ['datastores', index]));
    }
    const declared = yield* declareTimeline(
      this.store,
      this.services,
      doc.timeline,
      ['timeline'],
      (named) => this.#consumers.resolve(named),
      this.file,
      (this.raw.timeline as unknown[] | undefined) ?? [],
    );
    const timeline = declared.map((record) => record.id);
    return {
      replaced: doc.replace,
      consumers,
      webhooks,
      syncs,
      datastores,
      ...(timeline.length > 0 ? { timeline } : {}),
    };
  }

  #webhook(webhook: FixtureDocumentValue['webhooks'][number], path: PathPart[]) {
    const { id: given, ...input } = webhook;
    const id = this.idFor(given, path);
    if (own(this.world.webhooks, id))
      this.fail([...path, 'id'], ID_TAKEN, `The webhook '${id}' already exists`);
    const sandbox = this.services.self.endpoints(this.services.requestOrigin);
    const record = this.#pinned('webhook', id, path, this.#rawAt(...path), (ids) =>
      createWebhook(
        this.world,
        {
          ids,
          clock: this.services.clock,
          catalogue: this.services.catalogue,
          types: webhookTypes(),
          own: sandbox,
        },
        this.#principal,
        input,
      ),
    );
    return { webhookid: record.webhookid, event: record.event };
  }

  #sync(sync: FixtureDocumentValue['syncs'][number], path: PathPart[]) {
    const { id: given, consumers: setups = [], ...input } = sync;
    const id = this.idFor(given, path);
    if (own(this.world.syncs, id)) this.fail([...path, 'id'], ID_TAKEN, `The sync '${id}' already exists`);
    const record = this.#pinned('sync', id, path, this.#rawAt(...path), (ids) =>
      createSync(
        this.world,
        { ids, clock: this.services.clock, catalogue: this.services.catalogue },
        this.#principal,
        input,
      ),
    );
    const flows = Object.values(this.world.flows)
      .filter((flow) => flow.syncid === record.syncid)
      .map((flow) => flow.flowid);
    const consumers = setups.map((setup, at) =>
      this.#syncConsumer(record, setup, [...path, 'consumers', at]),
    );
    return { syncid: record.syncid, name: record.name, flows, consumers };
  }

  /**
   * A consumer set up for a sync as POST /consumers/{consumer_id}/syncs sets it up (its link made),
   * then each flow enabled as POST .../flows/{flowid}/enable enables it, then its mappings replaced
   * as PATCH /consumers/{consumer_id}/syncs/{syncid} replaces them. No event is published.
   */
  #syncConsumer(sync: SyncRecord, setup: SyncConsumerFixtureValue, path: PathPart[]): string {
    const { consumer: named, flows = [], mappings, ...body } = setup;
    const deps = { ids: this.services.ids, clock: this.services.clock, catalogue: this.services.catalogue };
    const consumer = this.at([...path, 'consumer'], null, () =>
      requireConsumer(this.world, this.#principal, this.#consumers.resolve(named)),
    );
    this.at(path, this.#rawAt(...path), () =>
      createConsumerSyncLink(this.world, deps, consumer, sync, { ...body, syncid: sync.syncid }),
    );
    flows.forEach(({ flow: name, ...input }, index) => {
      const at = [...path, 'flows', index];
      // A flow by id, or by its name (unique in its sync, whatever the case).
      const byName = flowsOf(this.world, sync.syncid).find(
        (f) => f.name.toLowerCase() === name.trim().toLowerCase(),
      );
      this.at(at, this.#rawAt(...at), () => {
        const flow = requireFlow(this.world, sync, byName?.flowid ?? name);
        enableFlow(this.world, deps, consumer, sync, flow, input);
      });
    });
    if (mappings) {
      this.at([...path, 'mappings'], this.#rawAt(...path, 'mappings'), () =>
        replaceMappings(this.world, consumer, sync, mappings),
      );
    }
    return consumer.consumerid;
  }

  /** The environment's allowed MCP scopes: each one the service knows, or '*'. */
  #mcpScopes(scopes: string[]) {
    scopes.forEach((scope, index) => {
      if (scope !== '*' && !isKnownScope(scope)) {
        this.fail(['mcp_scopes', index], messages.mcpScopesUnknown, `Unknown scope '${scope}'`);
      }
    });
    const environment = own(this.world.environments, this.#principal.envid);
    if (environment) environment.mcp_scopes = [...new Set(scopes)];
  }

  *#consumer(fixture: ConsumerFixtureValue, path: PathPart[]) {
    const { id: given, ref, connections = [], ...input } = fixture;
    const id = this.idFor(given, path);
    if (own(this.world.consumers, id))
      this.fail([...path, 'id'], ID_TAKEN, `The consumer '${id}' already exists`);
    this.#consumers.declare(ref, id, path);
    const consumer = this.#pinned('consumer', id, path, this.#rawAt(...path), (ids) =>
      createConsumer(this.world, { ids, clock: this.services.clock }, this.#principal, input),
    );
    yield;
    const made = [];
    for (const [index, connection] of connections.entries()) {
      made.push(yield* this.#connection(consumer, connection, [...path, 'connections', index]));
    }
    return { consumerid: consumer.consumerid, name: consumer.name, ref: ref ?? null, connections: made };
  }

  /** The integration by id or by name (case-insensitive), which must be offered (active). */
  #integration(value: number | string, path: PathPart[]): Integration {
    const { catalogue } = this.services;
    const byName = (name: string) =>
      catalogue.integrations.find((i) => i.name.toLowerCase() === name.trim().toLowerCase());
    const found =
      typeof value === 'number'
        ? catalogue.get(value)
        : /^\d+$/.test(value)
          ? catalogue.get(Number(value))
          : byName(value);
    const refuse = (error: ApiError) => ruleError(error, null, path, this.file);
    if (!found)
      refuse(
        errors.integrationInvalid(
          `No integration has the id or name '${value}' (GET /integrations lists them)`,
        ),
      );
    return this.at(path, null, () =>
      requireActiveIntegration(catalogue, (found as Integration).integrationid),
    );
  }

  *#connection(consumer: ConsumerRecord, fixture: ConnectionFixtureValue, path: PathPart[]) {
    const raw = this.#rawAt(...path);
    const integration = this.#integration(fixture.integration, [...path, 'integration']);
    const id = this.idFor(fixture.id, path);
    if (own(this.world.connections, id))
      this.fail([...path, 'id'], ID_TAKEN, `The connection '${id}' already exists`);
    if (fixture.status === 'inactive' && fixture.credentials) {
      this.fail(
        [...path, 'credentials'],
        'An inactive connection has no credentials',
        'Give credentials with status active (or none: the end user gives them on the link page)',
      );
    }
    // Active: the credentials given, else the sandbox's value for each mandatory one (as seeded).
    const credentials =
      fixture.status === 'active'
        ? Object.entries(
            fixture.credentials ??
              Object.fromEntries(
                connectionCredentials(integration)
                  .filter((c) => !c.optional)
                  .map((c) => [c.name, `sandbox-${c.name}`]),
              ),
          ).map(([key, value]) => ({ key, value }))
        : null;
    const input: PostConnectionInput = {
      integrationid: integration.integrationid,
      name: fixture.name ?? null,
      credentials,
      redirect: false,
      post_connections: fixture.post_connections
        ? Object.entries(fixture.post_connections).map(([key, value]) => ({ key, value }))
        : null,
    };
    const { connection } = this.#pinned('connection', id, path, raw, (ids) =>
      createConnection(
        this.world,
        { ids, clock: this.services.clock, catalogue: this.services.catalogue },
        consumer,
        input,
      ),
    );
    if (!connection) throw new Error('fixtures: a connection with an integrationid was not created');
    yield;
    const records = yield* applyVerticals(this, consumer, connection, integration, fixture, raw, path);
    const custom = yield* applyCustom(this, connection, integration, fixture.custom, raw.custom, path);
    if (Object.keys(custom).length > 0) records.custom = custom;
    return {
      connectionid: connection.connectionid,
      integrationid: connection.integrationid,
      status: connection.status,
      records: Object.fromEntries(
        Object.entries(records).map(([vertical, kinds]) => [
          vertical,
          Object.fromEntries(Object.entries(kinds).filter(([, list]) => list.length > 0)),
        ]),
      ),
    };
  }

  *#datastore(fixture: FixtureDocumentValue['datastores'][number], path: PathPart[]) {
    const { accountid } = this.#principal;
    const id = this.idFor(fixture.id, path);
    if (own(this.world.datastores, id))
      this.fail([...path, 'id'], ID_TAKEN, `The datastore '${id}' already exists`);
    const definitionError = 'The datastore definition is not valid';
    const clash = Object.values(this.world.datastores).find(
      (d) => d.accountid === accountid && d.name === fixture.name,
    );
    if (clash)
      this.fail(
        [...path, 'name'],
        definitionError,
        `The account already has a datastore named '${fixture.name}'`,
      );
    const names = new Set<string>();
    fixture.columns.forEach((column, index) => {
      if (names.has(column.name)) {
        this.fail(
          [...path, 'columns', index, 'name'],
          definitionError,
          `The column '${column.name}' is given twice`,
        );
      }
      names.add(column.name);
    });
    const search = fixture.search_column ?? null;
    if (search !== null && !names.has(search)) {
      this.fail([...path, 'search_column'], definitionError, `'${search}' is not a column of the datastore`);
    }
    const now = this.now();
    this.world.datastores[id] = {
      datastoreid: id,
      accountid,
      name: fixture.name,
      status: fixture.status,
      definition: {
        columns: fixture.columns.map((c) => ({
          name: c.name,
          title: c.title ?? c.name,
          type: c.type,
          optional: c.optional,
        })),
        search_column: search,
      },
      created_on: now,
    };
    const datastore = this.world.datastores[id];
    const rows: string[] = [];
    // The datastore is new: each consumer's rows in it are those made here.
    const held = new Map<string, number>();
    for (const [index, row] of (fixture.rows ?? []).entries()) {
      const at = [...path, 'rows', index];
      const consumerid = this.#consumers.resolve(row.consumer).toLowerCase();
      const consumer = own(this.world.consumers, consumerid);
      if (!consumer || consumer.accountid !== accountid) {
        ruleError(errors.consumerNotFound(), null, [...at, 'consumer'], this.file);
      }
      const made = held.get(consumerid) ?? 0;
      const [created] = this.at(at, this.#rawAt(...at), () =>
        createRows(
          this.world,
          { ids: this.services.ids, clock: this.services.clock },
          consumer,
          datastore,
          [{ data: row.data }],
          null,
          made,
        ),
      );
      held.set(consumerid, made + 1);
      rows.push(created?.datastoredataid ?? '');
      yield;
    }
    return { datastoreid: id, name: fixture.name, rows };
  }
}
