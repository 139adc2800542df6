import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errors } from '../../src/lib/errors.js';
import { canonicalHost } from '../../src/lib/hosts.js';
import { GIVE_UP_REASONS } from '../../src/modules/webhooks/delivery.js';
import { listeningOrigins, OwnEndpoints, SandboxSelf } from '../../src/platform/self.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import type { WorldHub } from '../../src/worlds.js';
import { webhookReceiver } from '../helpers.js';

/**
 * One self: the default world and every world created over HTTP answer on the same addresses, so
 * no world's webhook may be delivered to any of them, on any path, and a delivery that comes back
 * anyway (relayed, proxied) is refused by whichever world it reaches.
 */

const EVENT = 'account.connection.created';
const INVOICING = 7010;
const ODOO = 9012;

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of running.splice(0)) await thing.close();
});

interface World {
  id: string;
  base_path: string;
  control_token: string;
  credentials: { account_id: string; sandbox: { client_id: string; client_secret: string } };
}

interface Served {
  sb: RunningSandbox;
  hub: WorldHub;
  /** A request to the server, through its socket. */
  send(path: string, init?: { method?: string; bearer?: string; json?: unknown }): Promise<Response>;
  world(): Promise<World & { token: string }>;
}

async function serve(): Promise<Served> {
  const sb = await startSandbox({ seed: 11, port: 0, clock: new Date('2026-01-15T10:00:00Z') });
  running.push(sb);
  const send = (path: string, init: { method?: string; bearer?: string; json?: unknown } = {}) =>
    fetch(`${sb.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
  const world = async () => {
    const res = await send('/__sandbox/worlds', { method: 'POST', json: { clock: 'now' } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as World;
    const exchanged = await send('/token', {
      method: 'POST',
      json: {
        accountId: created.credentials.account_id,
        clientId: created.credentials.sandbox.client_id,
        clientSecret: created.credentials.sandbox.client_secret,
      },
    });
    expect(exchanged.status).toBe(200);
    return { ...created, token: ((await exchanged.json()) as { access_token: string }).access_token };
  };
  return { sb, hub: sb.app.services.worlds as WorldHub, send, world };
}

async function subscribe(s: Served, token: string, url: string) {
  const res = await s.send('/webhooks', { method: 'POST', bearer: token, json: { event: EVENT, url } });
  return { status: res.status, body: (await res.json()) as { message?: string; webhookid?: string } };
}

/** A consumer and an active connection in the world of `token`: the created event goes out. */
async function connectSomeone(s: Served, token: string) {
  const consumer = await s.send('/consumers', { method: 'POST', bearer: token, json: { name: 'Evented' } });
  expect(consumer.status).toBe(200);
  const { consumerid } = (await consumer.json()) as { consumerid: string };
  const connected = await s.send(`/consumers/${consumerid}/connections`, {
    method: 'POST',
    bearer: token,
    json: { integrationid: INVOICING, credentials: [{ key: 'api_token', value: 't-1' }] },
  });
  expect(connected.status).toBe(200);
}

/** The link of a new connection in the world of `token` (an Odoo link, its integration fixed). */
async function openLink(s: Served, token: string): Promise<string> {
  const consumer = await s.send('/consumers', { method: 'POST', bearer: token, json: { name: 'Linked' } });
  const { consumerid } = (await consumer.json()) as { consumerid: string };
  const res = await s.send(`/consumers/${consumerid}/connections`, {
    method: 'POST',
    bearer: token,
    json: { integrationid: ODOO },
  });
  expect(res.status).toBe(200);
  return new URL(((await res.json()) as { url: string }).url).pathname;
}

/** A receiver that relays every request it gets to `target`, headers and body as they came. */
async function relay(target: () => string): Promise<{ url: string; statuses: number[] }> {
  const statuses: number[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    }
    const answer = await fetch(target(), { method: 'POST', headers, body: Buffer.concat(chunks) });
    statuses.push(answer.status);
    res.writeHead(answer.status).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, statuses };
}

/** Waits for the background work of a world (or of the default world) to end. */
const settle = (s: Served, id?: string) => (id ? s.hub.app(id)?.services : s.sb.app.services)?.ticker.idle();

const journalOf = (s: Served, id?: string) =>
  ((id ? s.hub.app(id)?.services : s.sb.app.services)?.requests.list() ?? []).map(
    (entry) => `${entry.method} ${entry.path} ${entry.status}`,
  );

describe('no world delivers to the sandbox', () => {
  it('a webhook of any world at any address and path of the server is refused at creation', async () => {
    const s = await serve();
    const [a, b] = [await s.world(), await s.world()];
    const port = s.sb.port;
    const link = await openLink(s, b.token);
    const defaultToken = await (async () => {
      const { accountId, sandbox } = s.sb.credentials;
      const res = await s.send('/token', {
        method: 'POST',
        json: { accountId, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
      });
      return ((await res.json()) as { access_token: string }).access_token;
    })();
    const urls = [
      `${s.sb.url}/consumers`,
      `http://localhost:${port}/consumers`,
      `http://[::1]:${port}/token`,
      `http://LOCALHOST.:${port}/`,
      `http://127.0.0.1:${port}${link}`,
      `http://127.0.0.1:${port}${b.base_path}/consumers`,
      `http://127.0.0.1:${port}${a.base_path}/webhooks`,
    ];
    for (const [who, token] of [
      ['world a', a.token],
      ['default world', defaultToken],
    ] as const) {
      for (const url of urls) {
        const res = await subscribe(s, token, url);
        expect({ who, url, status: res.status, message: res.body.message }).toEqual({
          who,
          url,
          status: 400,
          message: errors.webhookUrlInvalid().message,
        });
      }
    }
    // A receiver on loopback at another port is still called, named by its address or by a name.
    const receiver = await webhookReceiver();
    running.push(receiver);
    expect((await subscribe(s, a.token, receiver.url)).status).toBe(200);
    expect((await subscribe(s, a.token, receiver.url.replace('127.0.0.1', 'localhost'))).status).toBe(200);
    await connectSomeone(s, a.token);
    await settle(s, a.id);
    expect(receiver.received.map((body) => body.event)).toEqual([EVENT, EVENT]);
  });

  it("a world's fixtures cannot name the sandbox either: the world is refused", async () => {
    const s = await serve();
    const res = await s.send('/__sandbox/worlds', {
      method: 'POST',
      json: { fixtures: { webhooks: [{ event: EVENT, url: `${s.sb.url}/consumers` }] } },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(errors.webhookUrlInvalid().message);
    expect(s.hub.list().total).toBe(0);
  });

  it('a url stored by other means gets no request: the delivery is given up, no world hears of it', async () => {
    const s = await serve();
    const [a, b] = [await s.world(), await s.world()];
    const store = s.hub.app(a.id)?.services.store;
    expect(store).toBeDefined();
    const account = a.credentials.account_id;
    const envid = Object.values(store?.world.environments ?? {}).find(
      (env) => env.accountid === account && env.kind === 'sandbox',
    )?.envid as string;
    const targets = [`${s.sb.url}/consumers`, `http://localhost:${s.sb.port}${b.base_path}/consumers`];
    await store?.transact((write) => {
      targets.forEach((url, i) => {
        const webhookid = `00000000-0000-4000-8000-00000000000${i}`;
        write.world.webhooks[webhookid] = {
          webhookid,
          accountid: account,
          envid,
          createdby: null,
          createdon: '2026-01-15T09:00:00.000Z',
          event: EVENT,
          url,
          status: 'active',
          integrationid: null,
          signingsecret: null,
        };
      });
    });
    const before = { default: journalOf(s), b: journalOf(s, b.id) };
    await connectSomeone(s, a.token);
    await settle(s, a.id);
    const deliveries = Object.values(s.hub.app(a.id)?.services.store.world.webhook_deliveries ?? {});
    expect(deliveries.map((d) => [d.state, d.attempts, d.last_error])).toEqual([
      ['failed', 0, GIVE_UP_REASONS.ownEndpoint],
      ['failed', 0, GIVE_UP_REASONS.ownEndpoint],
    ]);
    expect({ default: journalOf(s), b: journalOf(s, b.id) }).toEqual(before);
  });

  it('a delivery relayed back to another world or to the default world is refused by it: nothing happens there', async () => {
    const s = await serve();
    const [a, b] = [await s.world(), await s.world()];
    const link = await openLink(s, b.token);
    const toLink = await relay(() => `${s.sb.url}${link}`);
    const toDefault = await relay(() => `${s.sb.url}/consumers`);
    const toBase = await relay(() => `${s.sb.url}${b.base_path}/consumers`);
    for (const hop of [toLink, toDefault, toBase])
      expect((await subscribe(s, a.token, hop.url)).status).toBe(200);
    const before = { default: journalOf(s), b: journalOf(s, b.id) };
    await connectSomeone(s, a.token);
    await settle(s, a.id);
    expect([...toLink.statuses, ...toDefault.statuses, ...toBase.statuses]).toEqual([403, 403, 403]);
    expect({ default: journalOf(s), b: journalOf(s, b.id) }).toEqual(before);
    // The link is still open: its page still offers the form.
    const page = await s.send(link);
    expect(await page.text()).toContain('<form');
  });
});

describe('the endpoints of the sandbox itself', () => {
  it.each([
    ['localhost', 'loopback'],
    ['LOCALHOST.', 'loopback'],
    ['api.localhost', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.9.8.7', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:c0a8:101]', '192.168.1.1'],
    ['Hooks.Example', 'hooks.example'],
  ])('canonicalHost(%j) is %j', (host, expected) => {
    expect(canonicalHost(host)).toBe(expected);
  });

  it('matches every path of every name of an own origin, on its port only', () => {
    const own = new OwnEndpoints(['http://127.0.0.1:4010', 'https://sandbox.example', null]);
    for (const url of [
      'http://127.0.0.1:4010/__sandbox/reset',
      'http://127.0.0.1:4010/consumers',
      'http://localhost:4010/__worlds/world_0/link/x',
      'http://[::1]:4010/token',
      'http://0.0.0.0:4010/',
      'http://2130706433:4010/hook',
      'http://[::ffff:127.0.0.1]:4010/hook',
      'http://LOCALHOST.:4010/hook',
      'http://sandbox.example:443/consumers',
      'https://sandbox.example/__sandbox/webhook-deliveries/1/redeliver',
    ]) {
      expect(own.isOwnUrl(url), url).toBe(true);
    }
    for (const url of [
      'http://127.0.0.1:4011/__sandbox/reset',
      'http://sandbox.example/hook',
      'https://elsewhere.example/__sandbox/reset',
      'not a url',
    ]) {
      expect(own.isOwnUrl(url), url).toBe(false);
    }
    expect(own.isOwnAddress('::1', 4010)).toBe(true);
    expect(own.isOwnAddress('127.0.0.1', 4011)).toBe(false);
    expect(own.addressGuard('http://my-host:4010/hook')?.('127.0.1.1')).toBe(true);
    expect(own.addressGuard('http://my-host:4011/hook')?.('127.0.1.1')).toBe(false);
    expect(own.addressGuard('not a url')).toBeNull();
  });

  it('the self of a server: where it listens, its public url, its exact allowed names on those ports', () => {
    const self = new SandboxSelf({
      publicUrl: 'https://sandbox.example',
      allowedHosts: ['Sandbox.Internal', '.dev.example', ' ', 'other.internal:8443'],
    });
    expect(self.endpoints().isOwnUrl('http://127.0.0.1:4010/x')).toBe(false);
    self.answersOn('http://127.0.0.1:4010');
    const own = self.endpoints('http://proxy.example:8080');
    for (const url of [
      'http://localhost:4010/x',
      'https://sandbox.example/x',
      'http://sandbox.internal:4010/x',
      'https://sandbox.internal/x',
      'http://proxy.example:8080/x',
      'http://sandbox.internal:8080/x',
      'http://other.internal:4010/x',
    ]) {
      expect(own.isOwnUrl(url), url).toBe(true);
    }
    // A domain is a pattern of names, not one server: its receivers are called.
    for (const url of ['https://hooks.dev.example/x', 'http://sandbox.internal:9000/x']) {
      expect(own.isOwnUrl(url), url).toBe(false);
    }
    expect(new SandboxSelf({ allowedHosts: '*' }).endpoints().isOwnUrl('http://anything.example/')).toBe(
      false,
    );
  });

  it('a server on every address answers on each address of the machine', () => {
    expect(listeningOrigins('127.0.0.1', 4010)).toEqual(['http://127.0.0.1:4010']);
    expect(listeningOrigins('::1', 4010)).toEqual(['http://[::1]:4010']);
    const all = listeningOrigins('0.0.0.0', 4010);
    expect(all[0]).toBe('http://0.0.0.0:4010');
    expect(all).toContain('http://127.0.0.1:4010');
  });
});
