import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createApp, DEFAULT_SEED, type SandboxApp } from './app.js';
import { type Clock, manualClock, systemClock } from './lib/clock.js';
import { listeningOrigins } from './resources/webhooks/own-origins.js';
import { type SeedCredentials, seedCredentials } from './seed/credentials.js';
import { DATASET_BUILDERS } from './seed/datasets.js';
import { seedWorld } from './seed/world.js';
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
  /** 'system' (default) follows the machine's time; a Date starts a manual clock at that instant. */
  clock?: 'system' | Date | Clock;
  adminToken?: string | null;
  publicUrl?: string | null;
  bodyLimit?: number;
  /** With db: the journal size (bytes) past which it is compacted into the file, in the background. */
  journalLimit?: number;
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

function pickClock(clock: StartOptions['clock']): Clock {
  if (clock === undefined || clock === 'system') return systemClock();
  if (clock instanceof Date) return manualClock(clock);
  return clock;
}

/** Opens the world (a file or memory), builds the app and listens. */
export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const adminToken = options.adminToken ?? null;
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
  if (exposed && (options.seed ?? DEFAULT_SEED) === DEFAULT_SEED && !(options.db && existsSync(options.db))) {
    throw defaultSeedRefused();
  }
  const size = options.size ?? 'default';
  let seed = options.seed ?? DEFAULT_SEED;
  let store: Store;
  if (options.db) {
    store = await Store.file(options.db, () => seedWorld(seed, size), {
      materializers: DATASET_BUILDERS,
      ...(options.journalLimit !== undefined ? { compactAfterBytes: options.journalLimit } : {}),
    });
    seed = store.world.meta.seed;
    if (exposed && seed === DEFAULT_SEED) {
      await store.close();
      throw defaultSeedRefused();
    }
  } else {
    store = Store.memory(seedWorld(seed, size));
  }
  const app = createApp({
    seed,
    store,
    clock: pickClock(options.clock),
    adminToken,
    publicUrl: options.publicUrl ?? null,
    ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
  });
  let server: ServerType;
  try {
    server = await listen(app, options.port ?? 4010, host);
  } catch (error) {
    await store.close(); // the world file's lock goes with the refused start
    throw error;
  }
  // With the machine's time, background work comes due by itself: look for it every second.
  const timer =
    app.services.clock.mode === 'system' ? setInterval(() => void app.services.ticker.run(), 1000) : null;
  timer?.unref();
  const port = (server.address() as AddressInfo).port;
  // Only now is the port known: webhooks must never be delivered to the control endpoints here.
  app.services.selfOrigins = new Set(listeningOrigins(host, port));
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    seed,
    credentials: seedCredentials(seed),
    app,
    store,
    close: async () => {
      if (timer) clearInterval(timer);
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of clients would hold close() open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      // Every acknowledged write is on disk already; this waits for a compaction and frees the file.
      await store.close();
    },
  };
}

function listen(app: SandboxApp, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new StartError(error.code === 'EADDRINUSE' ? `Port ${port} is already in use` : error.message));
    });
  });
}
