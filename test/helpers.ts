import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { expect } from 'vitest';
import { type CreateAppOptions, createApp, type SandboxApp } from '../src/app.js';
import { seedDirectory } from '../src/control/seeded-world.js';
import type { ApiError } from '../src/lib/errors.js';

export const SEED = 7;

export interface TestSandbox {
  app: SandboxApp;
  ids: ReturnType<typeof seedDirectory>;
}

export function sandbox(options: CreateAppOptions = {}): TestSandbox {
  const seed = options.seed ?? SEED;
  return { app: createApp({ seed, ...options }), ids: seedDirectory(seed) };
}

/** A sandbox app served on a free loopback port: its origin (no trailing slash), and how to stop it. */
export interface Listening {
  origin: string;
  close(): Promise<void>;
}

/** Serves an app on 127.0.0.1 at a free port, for clients that need a real socket (a browser, an SDK). */
export async function listenOn(app: Pick<SandboxApp, 'fetch'>): Promise<Listening> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    started.once('error', reject);
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Kept-alive sockets (a browser's, an SDK client's stream) would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in tests
export interface CallResult<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** One request through app.request(), the body parsed when it is JSON. */
// biome-ignore lint/suspicious/noExplicitAny: as above
export async function call<T = any>(
  app: SandboxApp,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app.request(path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text.length) parsed = JSON.parse(text);
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

export async function tokenFor(
  app: SandboxApp,
  creds: { accountId: string; clientId: string; clientSecret: string },
): Promise<string> {
  const res = await call(app, 'POST', '/token', {
    body: { accountId: creds.accountId, clientId: creds.clientId, clientSecret: creds.clientSecret },
  });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

/** Token of the seeded sandbox key. */
export async function sandboxToken(s: TestSandbox): Promise<string> {
  return tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
}

/** Asserts a ServiceError answer built by the given helper. */
export function expectError(res: CallResult, error: ApiError): void {
  expect({ status: res.status, message: res.body?.message, status_word: res.body?.status }).toEqual({
    status: error.status,
    message: error.message,
    status_word: 'error',
  });
  expect(typeof res.body.detail).toBe('string');
  if (error.errorCode) expect(res.body.error_code).toBe(error.errorCode);
}

/** Asserts a 422 validation body naming the given location. */
export function expectValidation(res: CallResult, loc: (string | number)[], type?: string): void {
  expect(res.status).toBe(422);
  expect(res.body.message).toBe('Validation error');
  expect(res.body.status).toBe('error');
  const match = (res.body.detail as { loc: unknown[]; type: string }[]).find(
    (d) => JSON.stringify(d.loc) === JSON.stringify(loc),
  );
  expect(match, `no validation entry at ${JSON.stringify(loc)} in ${res.text}`).toBeDefined();
  if (type) expect(match?.type).toBe(type);
}

/**
 * Every operation the app serves, documented: /openapi.json (the published operations) and
 * /__sandbox/openapi.json (what the sandbox adds) merged into one document, paths and components.
 */
// biome-ignore lint/suspicious/noExplicitAny: the documents are walked as plain JSON
export async function everyOperationDocument(app: Pick<SandboxApp, 'request'>): Promise<any> {
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const service: any = await (await app.request('/openapi.json')).json();
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const sandbox: any = await (await app.request('/__sandbox/openapi.json')).json();
  const paths = { ...service.paths };
  for (const [path, item] of Object.entries(sandbox.paths as Record<string, object>)) {
    paths[path] = { ...paths[path], ...item };
  }
  const schemas = { ...service.components.schemas, ...sandbox.components.schemas };
  return { ...service, paths, components: { ...service.components, schemas } };
}

/** A vendor's webhook receiver on a free loopback port: the bodies it received, in order. */
export interface WebhookReceiver {
  url: string;
  received: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function webhookReceiver(): Promise<WebhookReceiver> {
  const received: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The url a page's first form posts to, as a browser resolves its action against the page's url
 * (a form without an action posts back to the page itself).
 */
export function formTarget(html: string, pageUrl: string): string {
  const action = /<form\b[^>]*\saction="([^"]*)"/.exec(html)?.[1];
  return new URL(action ?? '', pageUrl).href;
}
