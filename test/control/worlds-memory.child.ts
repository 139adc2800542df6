// Run by worlds-memory.test.ts in a process of its own (node --expose-gc), in one of two modes:
//
// - `<count>`: creates and deletes worlds through the server's routing, and prints the resident
//   memory before and after, in bytes, as JSON;
// - `used <count>`: over a real port, creates worlds and uses each a little the way clients do (a
//   token, reads, a fault, a webhook delivered, an MCP session whose client stays connected, a move
//   of the clock), deletes them all, and prints how many of their apps the collector could reclaim.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp } from '../../src/app.js';
import type { WorldHub } from '../../src/worlds.js';

const gc = (globalThis as { gc?: () => void }).gc as () => void;
const used = process.argv[2] === 'used';
const count = Number(process.argv[used ? 3 : 2] ?? 10_000);
const app = createApp({ seed: 2, webhookTimeoutMs: 200 });

const settle = async () => {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().rss;
};

type Created = {
  id: string;
  control_token: string;
  credentials: { account_id: string; sandbox: { client_id: string; client_secret: string } };
  env: Record<string, string>;
};

async function call(origin: string, method: string, path: string, body?: unknown, bearer?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  const res = await app.fetch(new Request(`${origin}${path}`, init));
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function cycle(origin: string): Promise<void> {
  const world = (await call(origin, 'POST', '/__sandbox/worlds', {
    clock: '2026-01-15T09:00:00Z',
  })) as Created;
  await call(origin, 'GET', '/__sandbox/clock', undefined, world.control_token);
  await call(origin, 'DELETE', `/__sandbox/worlds/${world.id}`);
}

if (!used) {
  const origin = 'http://127.0.0.1:4010';
  for (let i = 0; i < 300; i++) await cycle(origin);
  const before = await settle();
  const started = performance.now();
  for (let i = 0; i < count; i++) await cycle(origin);
  const ms = performance.now() - started;
  const after = await settle();
  process.stdout.write(JSON.stringify({ before, after, ms, live: app.services.worlds?.list().total }));
} else {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(500).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const collected = new Set<string>();
  const apps = new FinalizationRegistry<string>((id) => collected.add(id));
  // The clients stay connected, as an agent's would while its world is deleted under it.
  const clients: Client[] = [];
  const ids: string[] = [];
  const before = await settle();
  for (let i = 0; i < count; i++) {
    const world = (await call(origin, 'POST', '/__sandbox/worlds', {
      clock: '2026-01-15T09:00:00Z',
    })) as Created;
    apps.register((app.services.worlds as WorldHub).app(world.id) as object, world.id);
    ids.push(world.id);
    const key = {
      clientId: world.credentials.sandbox.client_id,
      clientSecret: world.credentials.sandbox.client_secret,
      accountId: world.credentials.account_id,
    };
    const token = (await call(origin, 'POST', '/token', key)).access_token as string;
    const consumer = world.env.SANDBOX_CONSUMER_ID_ACCOUNTING as string;
    await call(
      origin,
      'GET',
      `/consumers/${consumer}/accounting/invoices/type/customer_invoice`,
      undefined,
      token,
    );
    await call(
      origin,
      'POST',
      '/__sandbox/faults',
      { match: { path: '/nothing' }, effect: { status: 503 } },
      world.control_token,
    );
    await call(origin, 'POST', '/webhooks', { event: 'account.connection.created', url: hook }, token);
    const created = await call(origin, 'POST', '/consumers', { name: 'Used' }, token);
    await call(
      origin,
      'POST',
      `/consumers/${created.consumerid}/connections`,
      { integrationid: 7010, credentials: [{ key: 'api_token', value: 't' }] },
      token,
    );
    const mcp = (await call(origin, 'POST', '/mcp-token', { ...key, consumerId: consumer }, token))
      .access_token;
    const client = new Client({ name: 'memory', version: '1' });
    const headers = { authorization: `Bearer ${mcp}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }),
    );
    await client.listTools();
    clients.push(client);
    await call(origin, 'POST', '/__sandbox/clock', { advance_seconds: 3600 }, world.control_token);
  }
  for (const id of ids) await call(origin, 'DELETE', `/__sandbox/worlds/${id}`);
  // Attempts still out end within the delivery time-out.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await settle();
  const kept = ids.filter((id) => !collected.has(id)).length;
  process.stdout.write(JSON.stringify({ before, after, worlds: ids.length, kept }));
  process.exit(0);
}
