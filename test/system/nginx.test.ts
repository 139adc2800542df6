/**
 * docs/scaling.md run for real: nginx (the machine's) with the configuration the page shows, in front
 * of two sandbox processes of dist/cli.mjs started with the options the page gives. Worlds made and
 * read through the router by name (/p1/, /p2/) with the official Node SDK, the link pages and logos
 * it writes, MCP, the Host, the body limit, the pytest plugin's example suite, the affinity
 * arrangement, and a dropped connection.
 * It fails, saying how to get it, where nginx is not installed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { API } from '@chift/chift-nodejs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../src/lib/errors.js';
import { ROOT } from '../cli/helpers.js';
import { formTarget } from '../helpers.js';
import { EXAMPLE_SUITE_SUMMARY, PYTHON3, runExampleSuite } from '../python/pytest.js';
import {
  type Answer,
  type Arrangement,
  findNginx,
  NGINX_MISSING,
  PROCESS_NAMES,
  type ProcessName,
  type RawRequest,
  send,
  startArrangement,
} from './router.js';

const CLI = join(ROOT, 'dist', 'cli.mjs');
const ADMIN = 'router-test-admin-token';
/** A name the router passes on besides the public url's, given to each process with --allowed-hosts. */
const OTHER_NAME = 'sandbox.test';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let arrangement: Arrangement | undefined;
let router: string;
/** Why the arrangement cannot run here: every test fails with it (none is skipped). */
let unavailable: string | undefined;

/** The process of a name: its own url, not through the router. */
const direct = (name: ProcessName) => (arrangement as Arrangement).processes[name].url;
const admin = { authorization: `Bearer ${ADMIN}` };

beforeAll(async () => {
  const nginx = findNginx();
  if (nginx === undefined) unavailable = NGINX_MISSING;
  else if (!existsSync(CLI)) unavailable = 'dist/cli.mjs is missing: npm run build';
  if (nginx === undefined || unavailable !== undefined) return;
  arrangement = await startArrangement(nginx, ADMIN, ['--allowed-hosts', OTHER_NAME]);
  router = arrangement.router;
}, 60_000);

beforeEach(() => {
  if (unavailable !== undefined) throw new Error(unavailable);
});

afterAll(async () => {
  if (arrangement === undefined) return;
  await arrangement.close();
  expect(existsSync(arrangement.dir)).toBe(false);
});

interface CreatedWorld {
  id: string;
  control_token: string;
  credentials: { account_id: string; sandbox: { client_id: string; client_secret: string } };
  env: Record<string, string>;
}

/** Creates a world through the router at `base` (a process's route, or the router's root). */
async function createWorld(base: string, options: RawRequest = {}): Promise<CreatedWorld> {
  const res = await send(`${base}/__sandbox/worlds`, {
    ...options,
    method: 'POST',
    headers: { ...admin, ...options.headers },
    body: {},
  });
  expect(res.status, res.text).toBe(201);
  return res.json as CreatedWorld;
}

/** The process that holds a world, asked of each directly. */
async function holder(id: string): Promise<ProcessName> {
  const found: ProcessName[] = [];
  for (const name of PROCESS_NAMES) {
    const res = await send(`${direct(name)}/__sandbox/worlds/${id}`, { headers: admin });
    if (res.status === 200) found.push(name);
  }
  expect(found).toHaveLength(1);
  return found[0] as ProcessName;
}

/** POST /token with a world's sandbox keys at `base`. */
const exchange = (base: string, world: CreatedWorld, options: RawRequest = {}): Promise<Answer> =>
  send(`${base}/token`, {
    ...options,
    method: 'POST',
    body: {
      accountId: world.credentials.account_id,
      clientId: world.credentials.sandbox.client_id,
      clientSecret: world.credentials.sandbox.client_secret,
    },
  });

const sdkFor = (base: string, world: CreatedWorld) =>
  new API({
    baseUrl: base,
    accountId: world.credentials.account_id,
    clientId: world.credentials.sandbox.client_id,
    clientSecret: world.credentials.sandbox.client_secret,
  });

describe('nginx in front of two sandbox processes (docs/scaling.md): routes by name', () => {
  it('each process makes its worlds under its name, and the official Node SDK reads them through the router', async () => {
    for (const name of PROCESS_NAMES) {
      const base = `${router}/${name}`;
      const world = await createWorld(base);
      expect(await holder(world.id)).toBe(name);
      expect(world.env.SANDBOX_BASE_URL).toBe(base);

      const client = sdkFor(base, world);
      const consumers = await client.Consumers.getConsumers();
      expect(consumers.length).toBeGreaterThan(0);
      const invoicing = await client.Consumers.getConsumerById(
        world.env.SANDBOX_CONSUMER_ID_INVOICING as string,
      );
      expect((await invoicing.getConnections()).map((c) => c.api)).toContain('Invoicing');
      const invoices = await invoicing.invoicing.getInvoices({ invoice_type: 'customer_invoice' });
      expect(invoices.length).toBeGreaterThan(0);

      // Its keys are unknown to the other process: a router must keep the world's requests on its process.
      const other = name === 'p1' ? 'p2' : 'p1';
      expect((await exchange(`${router}/${other}`, world)).status).toBe(401);
      expect((await exchange(base, world)).status).toBe(200);
      // Its base path reaches it under the process's name too.
      expect((await exchange(`${base}/__worlds/${world.id}`, world)).status).toBe(200);
    }
  });

  it('the link pages and logo urls it writes name the router, and the page posts back through it', async () => {
    const base = `${router}/p2`;
    const client = sdkFor(base, await createWorld(base));
    const integrations = await client.Integrations.getIntegrations();
    const evoliz = integrations.find((i) => i.integrationid === 7010);
    expect(evoliz?.logo_url).toBe(`${base}/integrations/7010/logo.png`);
    const logo = await send(evoliz?.logo_url as string);
    expect([logo.status, logo.headers['content-type']]).toEqual([200, 'image/png']);

    const consumer = await client.Consumers.createConsumer({ name: 'Routed consumer' });
    const link = await consumer.createConnection({ integrationid: 7010, name: 'Invoicing', redirect: false });
    expect(link.url).toMatch(new RegExp(`^${base}/link/[0-9a-f-]{36}$`));
    const page = await send(link.url, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect([...page.text.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1])).toEqual([evoliz?.logo_url]);

    // A browser posts the form to its action, resolved against the page's url, from the router's origin.
    const target = formTarget(page.text, link.url);
    expect(target).toBe(link.url);
    const done = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: BROWSER_ACCEPT,
        origin: router,
      },
      body: new URLSearchParams({ integrationid: '7010', 'credential:7010:api_token': 'typed' }),
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('<h1>Connected</h1>');
    expect((await consumer.getConnections()).map((c) => c.status)).toEqual(['active']);
  });

  it('MCP answers under the prefix, with a token of POST /mcp-token', async () => {
    const base = `${router}/p1`;
    const world = await createWorld(base);
    const token = (await exchange(base, world)).json as { access_token: string };
    const minted = await send(`${base}/mcp-token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}` },
      body: {
        accountId: world.credentials.account_id,
        clientId: world.credentials.sandbox.client_id,
        clientSecret: world.credentials.sandbox.client_secret,
        consumerId: world.env.SANDBOX_CONSUMER_ID_INVOICING,
      },
    });
    expect(minted.status, minted.text).toBe(200);
    const client = new Client({ name: 'router-test', version: '1.0.0' });
    const headers = { authorization: `Bearer ${(minted.json as { access_token: string }).access_token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
    );
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

describe('nginx in front of two sandbox processes (docs/scaling.md): what it passes on', () => {
  it('the router passes the Host on: a name given with --allowed-hosts is served, any other is refused', async () => {
    const port = new URL(router).port;
    const served = await send(`${router}/p1/__sandbox/worlds`, {
      headers: { ...admin, host: `${OTHER_NAME}:${port}` },
    });
    expect(served.status).toBe(200);
    const host = `elsewhere.test:${port}`;
    const refused = await send(`${router}/p1/__sandbox/worlds`, { headers: { ...admin, host } });
    const error = errors.hostNotAllowed(host);
    expect([refused.status, refused.json]).toEqual([error.status, error.toBody()]);
  });

  it('the router takes the bodies the sandbox takes, and refuses with 413 the ones it refuses', async () => {
    const base = `${router}/p1`;
    const world = await createWorld(base);
    const token = (await exchange(base, world)).json as { access_token: string };
    const limit = 1024 * 1024;
    const post = (bytes: number) =>
      send(`${base}/consumers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}` },
        // A JSON body of exactly `bytes` bytes.
        body: { name: 'x'.repeat(bytes - '{"name":""}'.length) },
      });
    // At the limit, the sandbox reads it (and answers as the service does to such a name).
    const within = await post(limit);
    expect(within.status).not.toBe(413);
    expect(within.json).toMatchObject({ status: 'error' });
    // Past it, the router answers 413 itself (its own page), before the sandbox would.
    expect((await post(limit + 1)).status).toBe(413);
  });

  it("the pytest plugin's example suite passes against a process through the router (SANDBOX_URL)", async () => {
    if (PYTHON3 === undefined) {
      throw new Error(
        'no python3 with pytest and requests: .ci/run installs python3-pytest and python3-requests',
      );
    }
    const url = `${router}/p1`;
    const run = await runExampleSuite(PYTHON3, { SANDBOX_URL: url, SANDBOX_ADMIN_TOKEN: ADMIN }, 170_000);
    expect(run.signal, run.output).toBeNull();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(EXAMPLE_SUITE_SUMMARY);
  }, 180_000);
});

describe('nginx in front of two sandbox processes (docs/scaling.md): affinity and faults', () => {
  it.each([
    ['an X-Test-Shard header', (i: number): RawRequest => ({ headers: { 'x-test-shard': `job-${i}` } })],
    ['the client address', (i: number): RawRequest => ({ from: `127.0.0.${i + 1}` })],
  ])(
    'without a name in the path, %s keeps a client on one process, and spreads clients',
    async (_n, client) => {
      const seen = new Map<ProcessName, { world: CreatedWorld; as: RawRequest }>();
      // Clients until both processes hold one (2^-63 that 64 all land on one), each on its own world.
      for (let i = 0; i < 64 && seen.size < 2; i++) {
        const as = client(i);
        const world = await createWorld(router, as);
        const token = await exchange(router, world, as);
        expect(token.status, token.text).toBe(200);
        const bearer = { authorization: `Bearer ${(token.json as { access_token: string }).access_token}` };
        for (let read = 0; read < 3; read++) {
          const res = await send(`${router}/consumers`, { ...as, headers: { ...as.headers, ...bearer } });
          expect(res.status, res.text).toBe(200);
        }
        const name = await holder(world.id);
        // The urls it writes name its process's route, which reaches it whatever route made it.
        expect(world.env.SANDBOX_BASE_URL).toBe(`${router}/${name}`);
        seen.set(name, { world, as });
      }
      expect([...seen.keys()].sort()).toEqual(['p1', 'p2']);
      // One client's world, asked for as the other client (routed to the other process): unknown there.
      const one = seen.get('p1');
      const other = seen.get('p2');
      if (one && other) expect((await exchange(router, one.world, other.as)).status).toBe(401);
    },
  );

  it('a dropped connection reaches the client as one, once; an error status passes as the sandbox answers it', async () => {
    const base = `${router}/p1`;
    const world = await createWorld(base);
    const control = { authorization: `Bearer ${world.control_token}` };
    const token = (await exchange(base, world)).json as { access_token: string };
    const api = { authorization: `Bearer ${token.access_token}` };
    const fault = (effect: unknown) =>
      send(`${base}/__sandbox/faults`, {
        method: 'POST',
        headers: control,
        body: { match: { path: '/consumers' }, effect, times: 1 },
      });
    // Kept-alive connections to the process first: a router may try a request again on another one.
    for (let i = 0; i < 3; i++) expect((await send(`${base}/consumers`, { headers: api })).status).toBe(200);

    expect((await fault({ drop: true })).status).toBe(200);
    await expect(send(`${base}/consumers`, { headers: api })).rejects.toThrow(/socket hang up/);
    expect((await fault({ status: 502 })).status).toBe(200);
    const failed = await send(`${base}/consumers`, { headers: api });
    expect(failed.status).toBe(502);
    expect(failed.headers['x-sandbox-fault']).toBe('fault_2');
    expect(failed.json).toMatchObject({ status: 'error' });

    const journal = await send(`${base}/__sandbox/requests?path=/consumers`, { headers: control });
    const items = (journal.json as { items: { status: number; fault: string | null }[] }).items;
    expect(items.map((item) => [item.status, item.fault])).toEqual([
      [502, 'fault_2'],
      [0, 'fault_1'],
      [200, null],
      [200, null],
      [200, null],
    ]);
  });
});
