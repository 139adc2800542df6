import { existsSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createApp, DEFAULT_SEED, type SandboxApp } from './app.js';
import { sandboxEnv, writeEnvFile } from './control/env.js';
import type { FaultControl } from './control/faults.js';
import {
  FixtureError,
  type FixtureResult,
  type FixtureSource,
  loadFixtures,
} from './control/fixtures.control.js';
import { type ReadinessReport, reportOf } from './control/report/index.js';
import {
  type RequestEntry,
  type RequestFilter,
  type RequestJournal,
  type RequestSummary,
  requestsFileOf,
  writeRequestsFile,
} from './control/requests/index.js';
import { assertClockSpan, keptClock, type SandboxClock, sandboxControls } from './control/sandbox.domain.js';
import type { ConnectionLifeMode } from './control/seeded-life.js';
import {
  livingCollections,
  openWorldFile,
  type SeedDirectory,
  seedDirectory,
  seedWorld,
  verticalMaterializers,
} from './control/seeded-world.js';
import type { WorldDirectory } from './control/worlds.js';
import { type Clock, manualClock, originOf, systemClock } from './lib/clock.js';
import type { CorsOrigins } from './lib/cors.js';
import type { DriftEntry } from './lib/drift-file.js';
import { ApiError } from './lib/errors.js';
import { guideUrlAt } from './lib/guides.js';
import { NotingResponse } from './lib/noting-response.js';
import type { Pace, PaceChange } from './lib/pace.js';
import { type SeedCredentials, seedCredentials } from './platform/credentials.js';
import { listeningOrigins } from './platform/self.js';
import { Store } from './store/store.js';
import type { WorldSize } from './store/world.js';

export interface StartOptions {
  seed?: number;
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /**
   * Default 127.0.0.1. Any other host needs adminToken, and a world whose seed is not the default
   * one (a seed given here, or that of an existing db file).
   */
  host?: string;
  /** Keep the world in this JSON file (created from the seed when missing). Default: in memory. */
  db?: string | null;
  size?: WorldSize;
  /**
   * 'system' (default) follows the machine's time; a Date starts a manual clock at that instant;
   * 'now' a manual clock at the machine's current second (see docs/testing.md).
   */
  clock?: 'system' | 'now' | Date | Clock;
  adminToken?: string | null;
  publicUrl?: string | null;
  bodyLimit?: number;
  /** With db: the journal size (bytes) past which it is compacted into the file, in the background. */
  journalLimit?: number;
  /** Bytes (as JSON) of generated datasets kept in memory (default 64 MiB). */
  cacheBytes?: number;
  /** Bytes clients may write into the world (default 256 MiB): a write past it is refused with 413. */
  maxWorldBytes?: number;
  /** Requests the journal keeps (default 10,000; 0 keeps none): see docs/requests-and-faults.md. */
  requestJournalSize?: number;
  /** Worlds created over HTTP (POST /__sandbox/worlds) live at once, at most (default 100; 0: none). */
  maxWorlds?: number;
  /** Bytes those worlds may hold together (default 1 GiB): see docs/testing.md. */
  maxWorldsBytes?: number;
  /** 'seeded' (default) or 'off': the seeded life of the crowd's connections (docs/living-world.md). */
  connectionLife?: ConnectionLifeMode;
  /** Called once per request the journal records (the CLI's --log prints a line for each). */
  onRequest?: (summary: RequestSummary) => void;
  /** The entries of a drift file (`readDriftFile`): where production differs, the sandbox follows it. */
  drift?: readonly DriftEntry[];
  /**
   * Origins a browser page may call the sandbox from: '*', a list or a string of origins separated
   * by commas, null for none. Default: every origin on a loopback host, none beyond it.
   */
  cors?: CorsOrigins;
  /**
   * Host names requests may name besides loopback's, the listening address (every address of the
   * machine on 0.0.0.0 or ::) and the public url's host: `.example.com` takes the domain and its
   * subdomains, '*' any Host. Any other Host is refused with 403 (DNS rebinding).
   */
  allowedHosts?: readonly string[] | '*';
  /**
   * A fixture document, or the path of a JSON or YAML file holding one, applied before the server
   * listens (docs/fixtures.md); with db, only when the file is created. A refusal rejects with a
   * StartError naming the file, path and rule.
   */
  fixtures?: FixtureSource;
  /**
   * Once the server listens, write the lines `unified-api-sandbox env` prints to this file, with the
   * url it listens on (the public url when given): into a temporary file, then renamed over it. A
   * file that cannot be written refuses the start (StartError naming it).
   */
  envFile?: string | null;
}

export interface RunningSandbox {
  url: string;
  port: number;
  host: string;
  seed: number;
  credentials: SeedCredentials;
  app: SandboxApp;
  store: Store;
  close(): Promise<void>;
  /** The well-known ids of the seeded world (the default consumers, the sync...): seedDirectory(seed). */
  ids: SeedDirectory;
  /** Puts the seeded world back, as POST /__sandbox/reset does. */
  reset(): Promise<void>;
  /** The sandbox clock; moving it does what POST /__sandbox/clock does (the background work due). */
  clock: SandboxClock;
  /** As POST /__sandbox/pace: how busy the generated business is from a day (default: the clock's) on. */
  setPace(pace: Pace, from?: string): Promise<{ pace: Pace; changes: PaceChange[] }>;
  /** Declared worlds: what the start's `fixtures` created (null without), and loading more. */
  fixtures: { loaded: FixtureResult | null; load(source: FixtureSource): Promise<FixtureResult> };
  /** The recorded requests that pass `filter`, newest first (GET /__sandbox/requests, unpaged). */
  requests(filter?: RequestFilter): RequestEntry[];
  /**
   * The integration readiness report of what the client did, as GET /__sandbox/report answers it
   * (docs/readiness.md; each finding links its section at `<url>/guides/readiness`); `consumerId`:
   * only what concerns that consumer.
   */
  report(options?: { consumerId?: string; connectionId?: string }): Promise<ReadinessReport>;
  /** Fault injection: arm, list and remove faults, as /__sandbox/faults does. */
  faults: FaultControl;
  /** The worlds created over HTTP (POST /__sandbox/worlds); null with maxWorlds 0. */
  worlds: WorldDirectory | null;
  /** The file the start's `envFile` wrote (null without). */
  envFile: string | null;
}

export class StartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartError';
  }
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The SANDBOX_BASE_URL of the env lines: the public url when there is one, else the listening
 * address, loopback for an address that listens on every interface.
 */
export function envBaseUrl(host: string, port: number, publicUrl: string | null | undefined): string {
  if (publicUrl) return publicUrl;
  const shown = isLoopback(host) || host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

function pickClock(clock: StartOptions['clock']): Clock {
  if (clock === undefined || clock === 'system') return systemClock();
  if (clock === 'now' || clock instanceof Date) return manualClock(clock);
  return clock;
}

/**
 * The clock a world file kept (see keptClock). One outside the calendar (kept before the calendar
 * ended on 9999-12-30) refuses the start, the file closed: --now sets the clock anew.
 */
async function clockKeptIn(store: Store, db: string | null | undefined): Promise<Clock | undefined> {
  try {
    return keptClock(store.world);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await store.close();
    throw new StartError(`${db ?? 'The world'}: ${error.detail} (${error.message}): start it with --now`);
  }
}

/** Refuses the start (the file closed) with a clock past the span of living days after the file's origin. */
async function spanCheckedIn(store: Store, db: string, clock: Clock): Promise<void> {
  try {
    assertClockSpan(store.origin(), clock.now());
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await store.close();
    throw new StartError(`${db}: ${error.message}: ${error.detail}`);
  }
}

/**
 * Refuses a start beyond loopback without an admin token for the control endpoints, or with the
 * default seed; answers whether the server is exposed, and the refusal of the default seed.
 */
function exposureOf(
  host: string,
  adminToken: string | null,
  seed: number | undefined,
  db: string | null | undefined,
): { exposed: boolean; defaultSeedRefused: () => StartError } {
  if (!isLoopback(host) && !adminToken) {
    throw new StartError(
      `Listening on ${host} (beyond loopback) needs --admin-token for the control endpoints`,
    );
  }
  // The seed is a credential (the seeded keys derive from it): beyond loopback it must not be the
  // default one that everybody knows.
  const exposed = !isLoopback(host);
  const defaultSeedRefused = () =>
    new StartError(
      `Listening on ${host} (beyond loopback) needs a seed of your own (--seed N, not the default ${DEFAULT_SEED}): anyone who knows the seed can derive the seeded API keys`,
    );
  if (exposed && (seed ?? DEFAULT_SEED) === DEFAULT_SEED && !(db && existsSync(db))) {
    throw defaultSeedRefused();
  }
  return { exposed, defaultSeedRefused };
}

/** The world of a start: its world file (opened, or created with the seed), else one in memory. */
async function openStore(
  options: StartOptions,
  size: NonNullable<StartOptions['size']>,
  exposed: boolean,
  defaultSeedRefused: () => StartError,
  clock: Clock | undefined,
): Promise<{ store: Store; seed: number; fresh: boolean }> {
  let seed = options.seed ?? DEFAULT_SEED;
  let store: Store;
  const limits = {
    ...(options.cacheBytes !== undefined ? { cacheBytes: options.cacheBytes } : {}),
    ...(options.maxWorldBytes !== undefined ? { maxWorldBytes: options.maxWorldBytes } : {}),
  };
  // With a world file, the fixtures go into the world it is created with, not into one it holds.
  let fresh = true;
  if (options.db) {
    fresh = !existsSync(options.db);
    // A file created now keeps the instant its clock starts at as the world's origin.
    const made = () => {
      const world = seedWorld(seed, size);
      world.meta.origin = originOf(clock ?? systemClock()).toISOString();
      return world;
    };
    store = await openWorldFile(options.db, made, {
      ...(options.journalLimit !== undefined ? { compactAfterBytes: options.journalLimit } : {}),
      ...limits,
    });
    seed = store.world.meta.seed;
    if (exposed && seed === DEFAULT_SEED) {
      await store.close();
      throw defaultSeedRefused();
    }
    // --now may not stand past the span of living days after the origin the file keeps.
    if (clock) await spanCheckedIn(store, options.db, clock);
  } else {
    store = Store.memory(seedWorld(seed, size), {
      materializers: verticalMaterializers(),
      living: livingCollections(),
      ...limits,
    });
  }
  return { store, seed, fresh };
}

/** Opens the world (a file or memory), builds the app and listens. */
export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const adminToken = options.adminToken ?? null;
  const { exposed, defaultSeedRefused } = exposureOf(host, adminToken, options.seed, options.db);
  // A clock outside the calendar is refused before a world file is opened (and locked).
  const clock = options.clock === undefined ? undefined : pickClock(options.clock);
  const size = options.size ?? 'default';
  const { store, seed, fresh } = await openStore(options, size, exposed, defaultSeedRefused, clock);
  const app = createApp({
    seed,
    store,
    clock: clock ?? (await clockKeptIn(store, options.db)) ?? systemClock(),
    adminToken,
    publicUrl: options.publicUrl ?? null,
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.requestJournalSize !== undefined ? { requestJournalSize: options.requestJournalSize } : {}),
    ...(options.maxWorlds !== undefined ? { maxWorlds: options.maxWorlds } : {}),
    ...(options.maxWorldsBytes !== undefined ? { maxWorldsBytes: options.maxWorldsBytes } : {}),
    ...(options.connectionLife !== undefined ? { connectionLife: options.connectionLife } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.drift?.length ? { drift: options.drift } : {}),
    cors: options.cors !== undefined ? options.cors : exposed ? null : '*',
    allowedHosts: allowedHostsFor(host, options.allowedHosts),
  });
  let loaded: FixtureResult | null = null;
  if (options.fixtures !== undefined && fresh) {
    try {
      loaded = await loadFixtures(app, options.fixtures);
    } catch (error) {
      await store.close(); // the world file's lock goes with the refused start
      // The file this start created goes too: the next start creates it with the fixed fixtures.
      if (options.db) for (const path of [options.db, `${options.db}.journal`]) rmSync(path, { force: true });
      throw error instanceof FixtureError ? new StartError(`Fixtures refused: ${error.message}`) : error;
    }
  }
  let server: ServerType;
  try {
    server = await listen(app.fetch, options.port ?? 4010, host);
  } catch (error) {
    await store.close(); // the world file's lock goes with the refused start
    throw error;
  }
  // With the machine's time, background work comes due by itself: look for it every second. The
  // clock can change mode while the server runs (POST /__sandbox/clock {"mode"}), so the timer is
  // always there and looks only while the clock follows the machine.
  const timer = setInterval(() => {
    if (app.services.clock.mode === 'system') void app.services.ticker.run();
    app.services.worlds?.tick();
  }, 1000);
  timer.unref();
  const port = (server.address() as AddressInfo).port;
  // Only now is the port known: no world's webhook is ever delivered here (platform/self.ts).
  for (const origin of listeningOrigins(host, port)) app.services.self.answersOn(origin);
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const envFile = options.envFile || null;
  if (envFile) {
    try {
      const world = app.services.store.world;
      await writeEnvFile(
        envFile,
        sandboxEnv(world, envBaseUrl(host, port, options.publicUrl), app.services.catalogue),
      );
    } catch (error) {
      clearInterval(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      throw new StartError(`Cannot write the env file ${envFile}: ${(error as Error).message}`);
    }
  }
  return {
    envFile,
    url: `http://${urlHost}:${port}`,
    port,
    host,
    seed,
    credentials: seedCredentials(seed),
    ids: seedDirectory(seed),
    ...sandboxControls(app.services),
    app,
    store,
    fixtures: { loaded, load: (source) => loadFixtures(app, source) },
    requests: (filter) => app.services.requests.list(filter),
    // Read away from the server (a CI log): its links are the server's absolute urls.
    report: (asked = {}) =>
      reportOf(
        app.services,
        asked.consumerId,
        asked.connectionId,
        guideUrlAt(envBaseUrl(host, port, options.publicUrl)),
      ),
    faults: app.services.faults,
    worlds: app.services.worlds ?? null,
    close: async () => {
      clearInterval(timer);
      await app.services.worlds?.close();
      app.services.faults.close(); // requests a fault holds are let go, without an answer
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of clients would hold close() open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      // The journal beside the world file, for `unified-api-sandbox report --db` once stopped.
      if (options.db && app.services.requests.keeps) await keepRequests(options.db, app.services.requests);
      // Every acknowledged write is on disk already; this waits for a compaction and frees the file.
      await store.close();
    },
  };
}

/**
 * Writes the journal beside the world file (`<db>.requests.jsonl`, docs/readiness.md), whole or not at
 * all (lib/file-writer.ts). A failure is said, not thrown: the world itself is safe.
 */
async function keepRequests(db: string, journal: RequestJournal): Promise<void> {
  try {
    await writeRequestsFile(db, journal);
  } catch (error) {
    console.error(
      `[unified-api-sandbox] the requests file ${requestsFileOf(db)} could not be written: ${(error as Error).message}`,
    );
  }
}

/** The Host names of a server listening on `host`, with those given (see StartOptions.allowedHosts). */
function allowedHostsFor(host: string, given: readonly string[] | '*' | undefined): readonly string[] | '*' {
  if (given === '*') return '*';
  const listening = listeningOrigins(host, 0).map((origin) => new URL(origin).hostname);
  return [...listening, ...(given ?? [])];
}

function listen(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  port: number,
  hostname: string,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    // The answers' texts are noted as they are written, for the request journal (lib/noting-response.ts).
    const serverOptions = { ServerResponse: NotingResponse };
    const server = serve({ fetch, port, hostname, serverOptions }, () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new StartError(error.code === 'EADDRINUSE' ? `Port ${port} is already in use` : error.message));
    });
  });
}
