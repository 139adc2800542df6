import { createHmac, randomBytes } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { FaultBook } from './control/faults.js';
import { type FixtureSource, loadFixturesNow } from './control/fixtures.control.js';
import { registerSandboxControl } from './control/index.js';
import { registerReportControl } from './control/report/index.js';
import {
  DEFAULT_REQUEST_JOURNAL_SIZE,
  installTraffic,
  RequestJournal,
  type RequestSummary,
} from './control/requests/index.js';
import { assertClockSpan, keptClock } from './control/sandbox.domain.js';
import { type ConnectionLifeMode, connectionLifeTask } from './control/seeded-life.js';
import { livingCollections, seedWorld, verticalMaterializers } from './control/seeded-world.js';
import { timelineTask } from './control/timeline-task.js';
import { registerWorldControl } from './control/worlds.js';
import { type Clock, manualClock, originOf } from './lib/clock.js';
import { type CorsOrigins, corsPolicy } from './lib/cors.js';
import type { DriftEntry } from './lib/drift-file.js';
import { seededIds } from './lib/ids.js';
import { notFoundOrNotAllowed } from './lib/not-found.js';
import { DeferredTrieRouter } from './lib/router.js';
import { registerAuth } from './modules/auth/index.js';
import { registerConnections } from './modules/connections/index.js';
import { registerConsumers } from './modules/consumers/index.js';
import { registerDatalab } from './modules/datalab/index.js';
import { registerDatalayer } from './modules/datalayer/index.js';
import { registerDatastores } from './modules/datastores/index.js';
import { registerIntegrations } from './modules/integrations/index.js';
import { registerIssues } from './modules/issues/index.js';
import { registerLocalAgents } from './modules/local-agents/index.js';
import { automationTask, registerSyncs } from './modules/syncs/index.js';
import { registerWebhooks, webhookDeliveryTask } from './modules/webhooks/index.js';
import { bodyGuard } from './platform/body-guard.js';
import { loadCatalogue } from './platform/catalogue.js';
import type { AppEnv, SandboxConfig, Services } from './platform/context.js';
import { jwtSecret, keySecretsOf } from './platform/credentials.js';
import { DriftFollowing } from './platform/drift.js';
import { handleError } from './platform/handle-error.js';
import { appCachesOf, mountVerticals } from './platform/lazy-vertical.js';
import { livingDatasetsTask } from './platform/living-datasets.js';
import { validationHook } from './platform/openapi.js';
import { hostOfUrl, requestPolicy, surfaceOf } from './platform/request-policy.js';
import { Scrubber } from './platform/scrub.js';
import { SandboxSelf } from './platform/self.js';
import { readsWaitFor } from './platform/sliced-write.js';
import { type TaskWrites, Ticker, type TickTask } from './platform/ticker.js';
import { TokenService } from './platform/tokens.js';
import type { AnyVerticalModule } from './platform/vertical-module.js';
import { Store } from './store/store.js';
import type { CustomRecordsRecord, WorldSize } from './store/world.js';
import { mcpSessionsSection, registerConsole, sessionValue } from './surfaces/console/index.js';
import { registerDocs } from './surfaces/docs/index.js';
import { registerGuides } from './surfaces/guides/index.js';
import { isMcpPath, RAW_BODY_PATHS, registerMcp } from './surfaces/mcp/index.js';
import { VERTICALS } from './verticals.js';
import { DEFAULT_MAX_WORLDS, WorldHub } from './worlds.js';

export interface CreateAppOptions {
  /** The verticals the app is composed of (default: all of src/verticals.ts). */
  verticals?: readonly AnyVerticalModule[];
  /** Seed of the world (default 1): the same seed builds the same world. */
  seed?: number;
  /**
   * Without a store: gives the world API keys of its own, derived from the seed and this value (a
   * world created over HTTP draws it at random; see platform/credentials.ts).
   */
  keysSalt?: string;
  /** World size when no store is given: 'default' or 'large' (100,000 consumers). */
  size?: WorldSize;
  /** A store opened by the caller (a file, say); default: a new in-memory world of the seed. */
  store?: Store;
  /**
   * Without a store: bytes (as JSON) of generated datasets kept in memory (default 64 MiB); the
   * least recently used go past it and are built again, identically, when next reached.
   */
  cacheBytes?: number;
  /** Without a store: bytes clients may write into the world (default 256 MiB); see docs/persistence.md. */
  maxWorldBytes?: number;
  /**
   * Worlds created over HTTP (POST /__sandbox/worlds) that may live at once (default 100; 0: the app
   * serves none). Their keys route each request to them, through the app's `fetch` (src/worlds.ts).
   */
  maxWorlds?: number;
  /** Bytes those worlds may hold together (default 1 GiB). */
  maxWorldsBytes?: number;
  /**
   * Default: a manual clock at 2026-01-15T09:00:00Z, which makes responses byte-identical run after
   * run. A Date starts a manual clock at that instant; 'now' at the machine's current second, which a
   * client that checks a token's `expires_on` against the machine's time (the official Node SDK)
   * needs to keep its token: see docs/testing.md.
   */
  clock?: Clock | Date | 'now';
  publicUrl?: string | null;
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  bodyLimit?: number;
  /** When set, the /__sandbox control endpoints need it as a bearer token. */
  adminToken?: string | null;
  /**
   * Origins a browser page may call the sandbox from: '*' (the default), a list or a string of
   * origins separated by commas, or null for no CORS header at all (see lib/cors.ts).
   */
  cors?: CorsOrigins;
  /** Time-out of one webhook delivery attempt in milliseconds (default 5000; tests shorten it). */
  webhookTimeoutMs?: number;
  /**
   * 'seeded' (default): now and then a connection of the seeded crowd (never a well-known consumer)
   * sees its credentials expire or its software unreachable as days pass; 'off': never
   * (docs/living-world.md). The timeline scripts such events on any connection either way.
   */
  connectionLife?: ConnectionLifeMode;
  /**
   * A fixture document, or the path of a JSON or YAML file holding one, applied once the world is
   * open (docs/fixtures.md); a refusal is thrown as a FixtureError naming the file, path and rule.
   */
  fixtures?: FixtureSource;
  /** Requests the journal keeps, newest first (default 10,000; 0 keeps none). See docs/requests-and-faults.md. */
  requestJournalSize?: number;
  /** Characters of bodies the journal keeps across its requests (default 32 Mi); older bodies go first. */
  requestJournalBodyChars?: number;
  /** Called once per request the journal records (the CLI's --log prints a line for each). */
  onRequest?: (summary: RequestSummary) => void;
  /**
   * Secrets of the app hosting this one (a world created over HTTP: the server's admin token), which
   * its journal scrubs as it scrubs its own.
   */
  hostSecrets?: readonly string[];
  /** Longest a fault holds a request, in milliseconds (default and most 300000; tests shorten it). */
  faultHoldLimitMs?: number;
  /**
   * Host names (or addresses) requests may name besides loopback's and the public url's host;
   * `.example.com` takes the domain and its subdomains; '*' takes any Host (behind a proxy that
   * checks it). Any other Host is refused with 403 (see platform/request-policy.ts).
   */
  allowedHosts?: readonly string[] | '*';
  /**
   * The sandbox itself (platform/self.ts): where it answers and the marker of its deliveries. A
   * world hub hands its worlds the default world's, so that no world delivers to any of them;
   * default: one of the app's own.
   */
  self?: SandboxSelf;
  /**
   * The entries of a drift file (lib/drift-file.ts: `readDriftFile`) the sandbox follows where
   * production differs from its document (platform/drift.ts); the others are left to the proxy.
   */
  drift?: readonly DriftEntry[];
}

/**
 * POSTs that only read (Datalab queries read datasets in passing and write nothing): they run outside
 * the write boundary, so a long query holds up no write.
 */
const readsOnly = (method: string, path: string): boolean =>
  method === 'POST' && (path === '/datalab/query-db' || path === '/datalab/query-groups-join');

/** Paths whose requests make their own writes instead of running in the request's write boundary. */
function ownsItsWrites(path: string): boolean {
  const surface = surfaceOf(path);
  return surface === 'control' || (surface === 'pages' && path.startsWith('/console'));
}

export type SandboxApp = OpenAPIHono<AppEnv> & { readonly services: Services };

/**
 * The secrets the app issued, which the scrubber of what it records looks for: its keys' secrets
 * (those of the world it holds now), its admin (or control) token and the console's cookie of it,
 * and those of the app hosting it. The same array while they do not change.
 */
function knownSecrets(
  store: Store,
  config: SandboxConfig,
  options: CreateAppOptions,
): () => readonly string[] {
  const admin = config.adminToken ? [config.adminToken, sessionValue(config.adminToken)] : [];
  const host = options.hostSecrets ?? [];
  // Asked several times for every request recorded: the seed and salt compared, no text built.
  let seenSeed: number | undefined;
  let seenSalt: string | undefined;
  let secrets: readonly string[] = [];
  return () => {
    const { seed, keys_salt } = store.world.meta;
    if (seed !== seenSeed || keys_salt !== seenSalt || seenSeed === undefined) {
      seenSeed = seed;
      seenSalt = keys_salt;
      secrets = [
        ...keySecretsOf({ seed, ...(keys_salt !== undefined ? { keys_salt } : {}) }),
        ...admin,
        ...host,
      ];
    }
    return secrets;
  };
}

export const DEFAULT_SEED = 1;

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Each vertical the list holds has the verticals it is built on in the list too. */
function checkVerticals(verticals: readonly AnyVerticalModule[]): void {
  for (const module of verticals) {
    const missing = (module.builtOn ?? []).filter((key) => !verticals.some((other) => other.key === key));
    if (missing.length)
      throw new Error(`The ${module.key} vertical is built on ${missing.join(', ')}: add it to the list too`);
  }
}

/** The store of the app (the one given, or a new in-memory world of the seed) and its clock, set up. */
function openWorld(
  options: CreateAppOptions,
  seed: number,
  verticals: readonly AnyVerticalModule[],
): { store: Store; clock: Clock } {
  const store =
    options.store ??
    Store.memory(seedWorld(seed, options.size ?? 'default', verticals, options.keysSalt), {
      materializers: verticalMaterializers(verticals),
      living: livingCollections(verticals),
      ...(options.cacheBytes !== undefined ? { cacheBytes: options.cacheBytes } : {}),
      ...(options.maxWorldBytes !== undefined ? { maxWorldBytes: options.maxWorldBytes } : {}),
    });
  const clock =
    options.clock === 'now' || options.clock instanceof Date
      ? manualClock(options.clock)
      : // A world that kept its clock (a file someone moved it in) goes on from there.
        (options.clock ?? keptClock(store.world) ?? manualClock());
  // A store made by hand builds the datasets of the app's verticals.
  store.useBuilders(verticalMaterializers(verticals), livingCollections(verticals));
  store.useClock(() => clock.now());
  // A world made now starts at its clock: that is its origin (a world file keeps its own). A clock
  // given for a world that has one may not stand past the span of living days after it.
  const kept = store.world.meta.origin;
  if (kept !== undefined && (options.clock instanceof Date || options.clock === 'now'))
    assertClockSpan(kept, clock.now());
  store.startAt(originOf(clock));
  // The custom routes bound their records themselves (count and bytes per path and connection), and
  // keep their size.
  store.boundedElsewhere<CustomRecordsRecord>('custom_records', (record) => record.bytes);
  return { store, clock };
}

/** The services every request and task of the app reaches through its context. */
function makeServices(
  world: { store: Store; clock: Clock },
  config: SandboxConfig,
  options: CreateAppOptions,
  verticals: readonly AnyVerticalModule[],
): Services {
  const { store, clock } = world;
  const seed = config.seed;
  const sequence = {
    get value() {
      return store.world.meta.sequence;
    },
    set value(next: number) {
      store.world.meta.sequence = next;
    },
  };
  const appSecret = randomBytes(32);
  const derive = (purpose: string) => createHmac('sha256', appSecret).update(purpose).digest('base64url');
  const secret = jwtSecret(config.adminToken ? `${seed}:${config.adminToken}` : seed);
  const faults = new FaultBook({ seed, clock, holdLimitMs: options.faultHoldLimitMs, quota: store.quota });
  return {
    store,
    clock,
    // Link ids are keyed with a secret of this process alone (see seededIds): never stored, never
    // derived from the seed, so no one can compute the link of another account.
    ids: seededIds(seed, sequence, randomBytes(32)),
    catalogue: loadCatalogue(),
    tokens: new TokenService(secret, clock, () => store),
    config,
    // Every piece of background work is a write of its own, never part of the request that kicked it.
    ticker: new Ticker(
      (work) => store.transactApart(work),
      (work) => work(store),
    ),
    caches: appCachesOf(verticals),
    verticals,
    requests: new RequestJournal(options.requestJournalSize ?? DEFAULT_REQUEST_JOURNAL_SIZE, {
      ...(options.requestJournalBodyChars !== undefined
        ? { bodyBudget: options.requestJournalBodyChars }
        : {}),
      onRequest: options.onRequest,
      scrubber: new Scrubber({ adminToken: config.adminToken, known: knownSecrets(store, config, options) }),
    }),
    faults,
    // The same faults make the webhook deliveries they match misbehave (modules/webhooks/misbehaviour.ts).
    webhookMisbehaviour: faults,
    secrets: { consoleForm: derive('console form') },
    self:
      options.self ??
      new SandboxSelf({ publicUrl: config.publicUrl, allowedHosts: options.allowedHosts ?? [] }),
    ...(options.drift?.length ? { drift: new DriftFollowing(options.drift) } : {}),
  };
}

/** What every request goes through before its route: the request policy, the traffic, the write boundary. */
function installPipeline(
  app: OpenAPIHono<AppEnv>,
  store: Store,
  services: Services,
  options: CreateAppOptions,
): void {
  const { config } = services;
  // The request policy before anything else (the Host, the sandbox's own deliveries, CORS and the
  // origins each surface takes: see platform/request-policy.ts); a preflight is answered there.
  const publicHost = hostOfUrl(config.publicUrl);
  const allowedHosts = options.allowedHosts ?? [];
  app.use(
    '*',
    requestPolicy({
      allowedHosts:
        allowedHosts === '*' ? '*' : publicHost === null ? allowedHosts : [...allowedHosts, publicHost],
      publicUrl: config.publicUrl,
      cors: corsPolicy(options.cors),
      self: services.self,
    }),
  );
  // Faults and the request journal come first, before the write boundary (a faulted request never
  // reaches a route, so it writes nothing).
  installTraffic(app, services);
  // Where a drift file says production answers otherwise (a message, a page size), after the journal:
  // it records what the client sent and what it got.
  if (services.drift?.changesAnswers) app.use('*', services.drift.middleware());
  // One middleware in front of every route (each step of hono's chain costs on every request): the
  // services, then the body checks of requests that carry one, then the write boundary.
  const guard = bodyGuard({ forms: /^\/(?:link|console)\//, raw: RAW_BODY_PATHS });
  app.use('*', (c, next) => {
    c.set('store', services.store);
    c.set('clock', services.clock);
    c.set('ids', services.ids);
    c.set('catalogue', services.catalogue);
    c.set('tokens', services.tokens);
    c.set('config', services.config);
    c.set('ticker', services.ticker);
    c.set('caches', services.caches);
    c.set('secrets', services.secrets);
    c.set('self', services.self);
    c.set('verticals', services.verticals);
    if (services.drift) c.set('drift', services.drift);
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
      // A read waits for the end of a write of its world that runs in slices (sliced-write.ts).
      const held = readsWaitFor(store);
      return held ? held.then(() => next()) : next();
    }
    // The MCP server and its OAuth endpoints write nothing themselves: a tool call's operation takes
    // this boundary as its own request (held around it, that write would nest in this one).
    if (isMcpPath(c.req.path)) return next();
    // The control surfaces (endpoints and console forms) make their own writes, each in its turn,
    // and wait for background work that writes too: held around them, that work would wait for them.
    if (ownsItsWrites(c.req.path) || readsOnly(method, c.req.path)) return guard(c, next);
    // The body is read before the write boundary, so a slow upload holds no one's turn. Within it,
    // what the request changes is kept, and journaled, only when it answers without an error;
    // otherwise memory is rolled back and nothing is persisted.
    return guard(c, async () => {
      await store.transact(
        (scope) => {
          c.set('store', scope);
          return next();
        },
        () => c.error === undefined && c.res.status < 400,
      );
    });
  });
  // Writes that published events (deliveries in the outbox) have the worker send them at once.
  store.onCommit((collections) => {
    if (collections.has('webhook_deliveries')) void services.ticker.run();
  });
}

/** Every background task of the app, registered with its ticker; registering starts nothing. */
function registerBackground(services: Services, options: CreateAppOptions): void {
  const { verticals } = services;
  // In the order each run of the ticker performs them.
  const background: [name: string, task: TickTask, writes?: TaskWrites][] = [
    // What the timeline declared happens first, so the runs and events of the same instant see it;
    // it makes its own writes, in slices.
    ['timeline', timelineTask(services), 'own'],
    ['connection-life', connectionLifeTask(services, options.connectionLife ?? 'seeded')],
    ['webhook-delivery', webhookDeliveryTask(services, { timeoutMs: options.webhookTimeoutMs })],
    ['automation', automationTask(services)],
    // They build what they read in slices, apart from any write, then make their own writes.
    ...verticals.flatMap((module) =>
      Object.entries(module.tasks ?? {}).map(([name, make]): [string, TickTask, TaskWrites] => [
        name,
        make(services),
        'own',
      ]),
    ),
    // Last: the living datasets clients reached, built again for the minute the clock moved to.
    ['living-datasets', livingDatasetsTask(services)],
  ];
  for (const [name, task, writes] of background) services.ticker.register(name, task, writes);
}

/** The routes of every surface, then the answers of a path none serves and of an error. */
function registerRoutes(app: OpenAPIHono<AppEnv>, services: Services): void {
  const { verticals } = services;
  registerAuth(app);
  registerConsumers(app);
  registerConnections(app);
  registerIntegrations(app);
  registerWebhooks(app);
  registerDatastores(app);
  registerSyncs(app);
  registerDatalayer(app);
  registerIssues(app);
  mountVerticals(app, verticals, { hook: validationHook, onError: handleError });
  registerDatalab(app);
  registerLocalAgents(app);
  registerSandboxControl(app);
  registerWorldControl(app, services);
  registerReportControl(app, services);
  registerDocs(app, services);
  registerGuides(app);
  const mcp = registerMcp(app, services);
  registerConsole(app, { sections: [mcpSessionsSection(mcp)] });

  // A path served with other methods answers 405 with Allow; any other, 404.
  app.notFound(notFoundOrNotAllowed(app));
  app.onError(handleError);
}

/** The worlds created over HTTP the app hosts, built as it was (unless it may host none). */
function hostWorlds(sandboxApp: SandboxApp, options: CreateAppOptions, seed: number): void {
  const { config, verticals } = sandboxApp.services;
  if (!((options.maxWorlds ?? DEFAULT_MAX_WORLDS) > 0)) return;
  new WorldHub(sandboxApp, {
    build: createApp,
    defaultSeed: seed,
    ...(options.maxWorlds !== undefined ? { maxWorlds: options.maxWorlds } : {}),
    ...(options.maxWorldsBytes !== undefined ? { maxBytes: options.maxWorldsBytes } : {}),
    app: {
      publicUrl: config.publicUrl,
      bodyLimit: config.bodyLimit,
      ...(options.cors !== undefined ? { cors: options.cors } : {}),
      ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.webhookTimeoutMs !== undefined ? { webhookTimeoutMs: options.webhookTimeoutMs } : {}),
      ...(options.faultHoldLimitMs !== undefined ? { faultHoldLimitMs: options.faultHoldLimitMs } : {}),
      ...(config.adminToken ? { hostSecrets: [config.adminToken] } : {}),
      ...(options.drift !== undefined ? { drift: options.drift } : {}),
      verticals,
    },
  });
}

export function createApp(options: CreateAppOptions = {}): SandboxApp {
  const seed = options.seed ?? DEFAULT_SEED;
  const verticals = options.verticals ?? VERTICALS;
  checkVerticals(verticals);
  const world = openWorld(options, seed, verticals);
  const config: SandboxConfig = {
    seed,
    publicUrl: options.publicUrl ?? null,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    adminToken: options.adminToken ?? null,
  };
  const services = makeServices(world, config, options, verticals);

  // The declared world, in one write through the same domain functions as the API.
  if (options.fixtures !== undefined) loadFixturesNow(world.store, services, options.fixtures);

  const app: OpenAPIHono<AppEnv> = new OpenAPIHono<AppEnv>({
    router: new DeferredTrieRouter(),
    defaultHook: validationHook(() => app),
  });
  installPipeline(app, world.store, services, options);
  registerBackground(services, options);
  registerRoutes(app, services);
  const sandboxApp = Object.assign(app, { services });
  hostWorlds(sandboxApp, options, seed);
  return sandboxApp;
}
