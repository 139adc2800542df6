import { randomBytes } from 'node:crypto';
import type { CreateAppOptions, SandboxApp } from './app.js';
import { sandboxEnv } from './control/env.js';
import { loadFixtures } from './control/fixtures.control.js';
import { setPace } from './control/sandbox.domain.js';
import { livingCollections, seedWorld, verticalMaterializers } from './control/seeded-world.js';
import {
  DEFAULT_WORLD_TTL_SECONDS,
  type WorldCreatedValue,
  type WorldCreateInput,
  type WorldDirectory,
  type WorldListValue,
  type WorldSummaryValue,
} from './control/worlds.js';
import { systemClock } from './lib/clock.js';
import { errors } from './lib/errors.js';
import { own } from './lib/own.js';
import { credentialsOf } from './platform/credentials.js';
import { unverifiedClaims } from './platform/tokens.js';
import { Store } from './store/store.js';
import { VERTICALS } from './verticals.js';

/**
 * The worlds a server routes: the sandbox's own (the default world, as it always was) and the worlds
 * created over HTTP (POST /__sandbox/worlds). Each created world is an app of its own, built by
 * `createApp` as a test in process would build it, with API keys of its own; the server's `fetch`
 * hands each request to the world it belongs to, read from what the request carries anyway:
 *
 * - a bearer token: a world's control token, or a JWT the world minted (its subject is one of the
 *   world's client ids);
 * - `POST /token`: the client id in the body;
 * - a link page (`/link/{linkid}`): the world that holds the link;
 * - the console: `/console?world=<id>` (kept in a cookie for the pages after it);
 * - a path under `/__worlds/<id>/` (for a router in front of several sandboxes): the rest of the path.
 *
 * Anything else goes to the default world, which is what it was before worlds existed.
 */

export interface WorldHubOptions {
  /** Builds a world's app (createApp: handed in, since createApp makes the hub of every app). */
  build: (options: CreateAppOptions) => SandboxApp;
  /** The seed of a world created without one (the default world's). */
  defaultSeed: number;
  /** Live worlds at most (default 100). */
  maxWorlds?: number;
  /** Bytes the live worlds may hold together (default 1 GiB): see LiveWorld bytes. */
  maxBytes?: number;
  /** Generated data a world keeps cached (default 4 MiB). */
  worldCacheBytes?: number;
  /** Bytes clients may write into one world (default: its share, maxBytes / maxWorlds, 10 MiB; 1 MiB at least). */
  worldMaxBytes?: number;
  /** Requests each world's journal keeps (default 1,000). */
  worldJournalSize?: number;
  /** What every world's app shares with the default one (request policy, limits). */
  app?: Pick<
    CreateAppOptions,
    | 'publicUrl'
    | 'bodyLimit'
    | 'cors'
    | 'allowedHosts'
    | 'webhookTimeoutMs'
    | 'faultHoldLimitMs'
    | 'verticals'
    | 'hostSecrets'
    | 'drift'
  >;
  /** Machine time in milliseconds (tests of expiry give their own). */
  now?: () => number;
}

export const DEFAULT_MAX_WORLDS = 100;
export const DEFAULT_MAX_WORLDS_BYTES = 1024 * 1024 * 1024;
const WORLD_CACHE_BYTES = 4 * 1024 * 1024;
const WORLD_JOURNAL_SIZE = 1000;
/** The least a world may take of writes, whatever its share. */
const MIN_WORLD_BYTES = 1024 * 1024;
/** Characters of request and response bodies a world's journal keeps (its oldest bodies go first). */
const WORLD_JOURNAL_BODY_CHARS = 1024 * 1024;
/** A token exchange body larger than this is no one's: it goes to the default world (which refuses it). */
const MAX_TOKEN_BODY = 16 * 1024;
const PREFIX = '/__worlds/';
/** The cookie that keeps the console on a world after `/console?world=<id>`. */
export const CONSOLE_WORLD_COOKIE = 'sandbox_world';

interface LiveWorld {
  id: string;
  seed: number;
  app: SandboxApp;
  store: Store;
  controlToken: string;
  clientIds: string[];
  createdAt: number;
  lastUsedAt: number;
  ttlSeconds: number;
}

type Fetch = (request: Request, env?: unknown, executionCtx?: unknown) => Response | Promise<Response>;

export class WorldHub implements WorldDirectory {
  readonly #default: SandboxApp;
  /** The default app's own dispatch, before the hub took its `fetch`. */
  readonly #dispatch: Fetch;
  readonly #options: WorldHubOptions;
  readonly #now: () => number;
  readonly #worlds = new Map<string, LiveWorld>();
  readonly #byClient = new Map<string, LiveWorld>();
  readonly #byControl = new Map<string, LiveWorld>();
  #closed = false;
  /** Worlds being made (their fixtures loading): they count against the bound already. */
  #making = 0;

  /**
   * Hosts worlds on `defaultApp`: its `fetch` (and so `request`, and a server listening on it) routes
   * each request to its world from then on.
   */
  constructor(defaultApp: SandboxApp, options: WorldHubOptions) {
    this.#default = defaultApp;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#dispatch = defaultApp.fetch as Fetch;
    defaultApp.services.worlds = this;
    (defaultApp as { fetch: Fetch }).fetch = this.fetch;
  }

  get maxWorlds(): number {
    return this.#options.maxWorlds ?? DEFAULT_MAX_WORLDS;
  }

  get maxBytes(): number {
    return this.#options.maxBytes ?? DEFAULT_MAX_WORLDS_BYTES;
  }

  /** The app of a live world (for the helpers in code), or undefined. */
  app(id: string): SandboxApp | undefined {
    return this.#worlds.get(id)?.app;
  }

  /** Serves a request: hands it to the world it belongs to, or to the default world. */
  fetch = async (request: Request, env?: unknown, executionCtx?: unknown): Promise<Response> => {
    if (this.#worlds.size === 0 && !request.url.includes(PREFIX)) {
      return this.#dispatch(request, env, executionCtx);
    }
    const url = new URL(request.url);
    if (url.pathname.startsWith(PREFIX)) {
      const [id = '', ...rest] = url.pathname.slice(PREFIX.length).split('/');
      const world = this.#worlds.get(id);
      if (!world) return Response.json(errors.worldNotFound(id).toBody(), { status: 404 });
      url.pathname = `/${rest.join('/')}`;
      return this.#send(world, new Request(url, withBody(request)), env);
    }
    const asked = isConsole(url.pathname) ? url.searchParams.get('world') : null;
    if (asked === 'default') return withWorldCookie(await this.#dispatch(request, env, executionCtx), null);
    const world = await this.#worldOf(request, url);
    if (asked !== null && !world) return Response.json(errors.worldNotFound(asked).toBody(), { status: 404 });
    if (!world) return this.#dispatch(request, env, executionCtx);
    const answer = await this.#send(world, request, env);
    return asked !== null ? withWorldCookie(answer, world.id) : answer;
  };

  async #worldOf(request: Request, url: URL): Promise<LiveWorld | undefined> {
    const path = url.pathname;
    if (isConsole(path)) return this.#consoleWorld(request, url);
    const authorization = request.headers.get('authorization');
    if (authorization?.startsWith('Bearer ')) {
      const token = authorization.slice(7).trim();
      const controlled = this.#byControl.get(token);
      if (controlled) return controlled;
      const subject = unverifiedClaims(token)?.sub;
      if (subject !== undefined) return this.#byClient.get(subject);
      return undefined;
    }
    if (path === '/token' && request.method === 'POST') {
      const clientId = await tokenClientId(request);
      return clientId === undefined ? undefined : this.#byClient.get(clientId);
    }
    if (path.startsWith('/link/')) {
      const linkid = decodeURIComponent(path.slice('/link/'.length).split('/')[0] ?? '');
      for (const world of this.#worlds.values()) {
        if (own(world.app.services.store.world.links, linkid)) return world;
      }
    }
    return undefined;
  }

  /** The console's world: `?world=<id>` (or `default`), else the world its cookie names. */
  #consoleWorld(request: Request, url: URL): LiveWorld | undefined {
    const asked = url.searchParams.get('world');
    if (asked !== null) return this.#worlds.get(asked);
    const cookie = request.headers.get('cookie');
    if (!cookie) return undefined;
    for (const part of cookie.split(';')) {
      const [name, value] = part.trim().split('=');
      if (name === CONSOLE_WORLD_COOKIE && value) return this.#worlds.get(value);
    }
    return undefined;
  }

  #send(world: LiveWorld, request: Request, env: unknown): Response | Promise<Response> {
    world.lastUsedAt = this.#now();
    return world.app.fetch(request, env);
  }

  async create(input: WorldCreateInput, origin: string): Promise<WorldCreatedValue> {
    this.sweep();
    if (this.#closed) throw errors.worldsNotServed();
    if (this.#worlds.size + this.#making >= this.maxWorlds) throw errors.worldsCountFull(this.maxWorlds);
    const used = this.bytes();
    if (used >= this.maxBytes) throw errors.worldsBytesFull(used, this.maxBytes);
    const id = `world_${randomBytes(12).toString('hex')}`;
    const controlToken = `wct_${randomBytes(32).toString('base64url')}`;
    const seed = input.seed ?? this.#options.defaultSeed;
    const verticals = this.#options.app?.verticals ?? VERTICALS;
    const store = Store.memory(seedWorld(seed, 'default', verticals, randomBytes(18).toString('base64url')), {
      materializers: verticalMaterializers(verticals),
      living: livingCollections(verticals),
      cacheBytes: this.#options.worldCacheBytes ?? WORLD_CACHE_BYTES,
      maxWorldBytes:
        this.#options.worldMaxBytes ?? Math.max(MIN_WORLD_BYTES, Math.floor(this.maxBytes / this.maxWorlds)),
    });
    const app = this.#options.build({
      ...this.#options.app,
      // A world hosts no worlds, and is the same self as the server: no world delivers to any of it.
      maxWorlds: 0,
      self: this.#default.services.self,
      seed,
      store,
      adminToken: controlToken,
      clock:
        input.clock === undefined || input.clock === 'system'
          ? systemClock()
          : input.clock === 'now'
            ? 'now'
            : new Date(input.clock),
      connectionLife: input.connection_life ?? 'off',
      requestJournalSize: this.#options.worldJournalSize ?? WORLD_JOURNAL_SIZE,
      requestJournalBodyChars: WORLD_JOURNAL_BODY_CHARS,
    });
    if (input.fixtures !== undefined) {
      // In slices, the other worlds answered meanwhile. A refusal throws the rule's ApiError (the
      // status and message the API gives): no world is made.
      this.#making += 1;
      try {
        await loadFixtures(app, input.fixtures);
      } catch (error) {
        app.services.faults.close();
        throw error;
      } finally {
        this.#making -= 1;
      }
      if (this.#closed) throw errors.worldsNotServed();
    }
    if (input.pace !== undefined && input.pace !== 'normal') await setPace(app.services.store, input.pace);
    app.services.worlds = this.#ownDirectory(id);
    const world = app.services.store.world;
    const credentials = credentialsOf(world.meta);
    const now = this.#now();
    const live: LiveWorld = {
      id,
      seed,
      app,
      store,
      controlToken,
      clientIds: Object.keys(world.keys),
      createdAt: now,
      lastUsedAt: now,
      ttlSeconds: input.ttl_seconds ?? DEFAULT_WORLD_TTL_SECONDS,
    };
    this.#worlds.set(id, live);
    this.#byControl.set(controlToken, live);
    for (const clientId of live.clientIds) this.#byClient.set(clientId, live);
    const key = (k: { clientId: string; clientSecret: string }) => ({
      client_id: k.clientId,
      client_secret: k.clientSecret,
    });
    return {
      ...this.#summary(live),
      control_token: controlToken,
      credentials: {
        account_id: credentials.accountId,
        sandbox_env_id: credentials.sandboxEnvId,
        production_env_id: credentials.productionEnvId,
        sandbox: key(credentials.sandbox),
        production: key(credentials.production),
        restricted: { ...key(credentials.restricted), consumer_id: credentials.restricted.consumerId },
      },
      env: Object.fromEntries(sandboxEnv(world, origin, app.services.catalogue)),
    };
  }

  list(): WorldListValue {
    this.sweep();
    const items = [...this.#worlds.values()].map((world) => this.#summary(world));
    return { items, total: items.length, max_worlds: this.maxWorlds, max_bytes: this.maxBytes };
  }

  get(id: string): WorldSummaryValue | undefined {
    this.sweep();
    const world = this.#worlds.get(id);
    return world && this.#summary(world);
  }

  async delete(id: string): Promise<boolean> {
    const world = this.#worlds.get(id);
    if (!world) return false;
    this.#worlds.delete(id);
    this.#byControl.delete(world.controlToken);
    for (const clientId of world.clientIds) this.#byClient.delete(clientId);
    // Requests a fault holds are let go, and MCP sessions are closed: a client's open event stream
    // would otherwise keep the whole app reachable. The world's data goes with its app.
    world.app.services.faults.close();
    await world.app.services.mcp?.closeAll();
    await world.store.close();
    return true;
  }

  /** Bytes the live worlds hold together (each: what clients wrote, and its cached generated data). */
  bytes(): number {
    let total = 0;
    for (const world of this.#worlds.values()) total += world.store.heldBytes;
    return total;
  }

  /** Removes the worlds whose time-to-live passed since their last request. */
  sweep(): void {
    const now = this.#now();
    for (const world of [...this.#worlds.values()]) {
      if (now - world.lastUsedAt >= world.ttlSeconds * 1000) void this.delete(world.id);
    }
  }

  /** Each second on a server: expiry, and the background work of worlds that follow the machine's time. */
  tick(): void {
    this.sweep();
    for (const world of this.#worlds.values()) {
      if (world.app.services.clock.mode === 'system') void world.app.services.ticker.run();
    }
  }

  /** Removes every world; none is created after. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const id of [...this.#worlds.keys()]) await this.delete(id);
  }

  /**
   * The worlds as a world's control token sees them: itself alone, which it reads and deletes (a CI
   * job cleans up with the token it was given); no other world, no list, no new world (the server's
   * admin token stays with whoever runs the server). Another world's id is not found, whether it
   * lives or not.
   */
  #ownDirectory(id: string): WorldDirectory {
    return {
      create: async () => {
        throw errors.worldsNotServed();
      },
      list: () => {
        throw errors.worldsNotServed();
      },
      get: (asked) => (asked === id ? this.get(id) : undefined),
      delete: async (asked) => asked === id && this.delete(id),
      tick: () => undefined,
      close: async () => undefined,
    };
  }

  #summary(world: LiveWorld): WorldSummaryValue {
    const clock = world.app.services.clock;
    return {
      id: world.id,
      seed: world.seed,
      created_at: new Date(world.createdAt).toISOString(),
      last_used_at: new Date(world.lastUsedAt).toISOString(),
      expires_at: new Date(world.lastUsedAt + world.ttlSeconds * 1000).toISOString(),
      ttl_seconds: world.ttlSeconds,
      base_path: `${PREFIX}${world.id}`,
      bytes: world.store.heldBytes,
      clock: { now: clock.now().toISOString(), mode: clock.mode },
    };
  }
}

/** The client id of a token exchange, read from a copy of its body (JSON or a form), if small. */
async function tokenClientId(request: Request): Promise<string | undefined> {
  const length = request.headers.get('content-length');
  if (length !== null && !(Number(length) <= MAX_TOKEN_BODY)) return undefined;
  const text = await boundedText(request.clone(), MAX_TOKEN_BODY);
  if (text === undefined) return undefined;
  try {
    if ((request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
      return new URLSearchParams(text).get('clientId') ?? undefined;
    }
    const body = JSON.parse(text) as { clientId?: unknown } | null;
    return typeof body?.clientId === 'string' ? body.clientId : undefined;
  } catch {
    return undefined;
  }
}

/** A body's text, or undefined past `limit` bytes (reading stops there). */
async function boundedText(request: Request, limit: number): Promise<string | undefined> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A request's init for copying it to another url, its body streamed along. */
function withBody(request: Request): RequestInit {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return hasBody ? ({ ...requestInit(request), duplex: 'half' } as RequestInit) : requestInit(request);
}

function requestInit(request: Request): RequestInit {
  const init: RequestInit = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.method !== 'GET' && request.method !== 'HEAD') init.body = request.body;
  return init;
}

const isConsole = (path: string) => path === '/console' || path.startsWith('/console/');

/** The console's answer with the cookie that keeps its world (none: the default) for the next pages. */
function withWorldCookie(answer: Response, id: string | null): Response {
  const headers = new Headers(answer.headers);
  headers.append(
    'set-cookie',
    id === null
      ? `${CONSOLE_WORLD_COOKIE}=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict`
      : `${CONSOLE_WORLD_COOKIE}=${id}; Path=/console; HttpOnly; SameSite=Strict`,
  );
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
