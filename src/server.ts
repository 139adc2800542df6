import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createApp, DEFAULT_SEED, type SandboxApp } from './app.js';
import { type Clock, manualClock, systemClock } from './lib/clock.js';
import { type SeedCredentials, seedCredentials } from './seed/credentials.js';
import { seedWorld } from './seed/world.js';
import { Store } from './store/store.js';
import type { WorldSize } from './store/world.js';

export interface StartOptions {
  seed?: number;
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. Any other host needs adminToken. */
  host?: string;
  /** Keep the world in this JSON file (created from the seed when missing). Default: in memory. */
  db?: string | null;
  size?: WorldSize;
  /** 'system' (default) follows the machine's time; a Date starts a manual clock at that instant. */
  clock?: 'system' | Date | Clock;
  adminToken?: string | null;
  publicUrl?: string | null;
  bodyLimit?: number;
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
  const size = options.size ?? 'default';
  let seed = options.seed ?? DEFAULT_SEED;
  let store: Store;
  if (options.db) {
    store = await Store.file(options.db, () => seedWorld(seed, size));
    seed = store.world.meta.seed;
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
  const server = await listen(app, options.port ?? 4010, host);
  // With the machine's time, background work comes due by itself: look for it every second.
  const timer =
    app.services.clock.mode === 'system' ? setInterval(() => void app.services.ticker.run(), 1000) : null;
  timer?.unref();
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    seed,
    credentials: seedCredentials(seed),
    app,
    store,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer);
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of clients would hold close() open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
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
