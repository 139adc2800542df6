import { API } from '@chift/chift-nodejs';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { messages } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { WorldHub, type WorldHubOptions } from '../../src/worlds.js';

/**
 * Worlds over HTTP: POST /__sandbox/worlds makes an isolated world whose own keys select it on every
 * request, through the server's routing (WorldHub.fetch), with nothing else to send.
 */

const ORIGIN = 'http://127.0.0.1:4010';
const START = '2026-01-15T09:00:00.000Z';

interface Hub {
  hub: WorldHub;
  send(path: string, init?: RequestInit & { json?: unknown; bearer?: string }): Promise<Response>;
}

function hub(options: Partial<WorldHubOptions> = {}, adminToken: string | null = null): Hub {
  // The app's own hub is left out (maxWorlds 0) for one whose machine time the test sets.
  const app = createApp({ seed: 3, clock: new Date(START), adminToken, maxWorlds: 0 });
  const hub = new WorldHub(app, { build: createApp, defaultSeed: 3, ...options });
  const send = (path: string, init: RequestInit & { json?: unknown; bearer?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`);
    const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
    return hub.fetch(new Request(`${ORIGIN}${path}`, { ...init, headers, ...(body ? { body } : {}) }));
  };
  return { hub, send };
}

type Created = {
  id: string;
  control_token: string;
  base_path: string;
  credentials: {
    account_id: string;
    sandbox: { client_id: string; client_secret: string };
    restricted: { client_id: string; client_secret: string; consumer_id: string };
  };
  env: Record<string, string>;
  expires_at: string;
};

async function createWorld(h: Hub, body: unknown = {}, bearer?: string): Promise<Created> {
  const res = await h.send('/__sandbox/worlds', {
    method: 'POST',
    json: body,
    ...(bearer ? { bearer } : {}),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Created;
}

async function tokenOf(h: Hub, world: Created): Promise<string> {
  const res = await h.send('/token', {
    method: 'POST',
    json: {
      clientId: world.credentials.sandbox.client_id,
      clientSecret: world.credentials.sandbox.client_secret,
      accountId: world.credentials.account_id,
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function consumerNames(h: Hub, token: string): Promise<string[]> {
  const res = await h.send('/consumers', { bearer: token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { name: string }[]).map((c) => c.name);
}

const addConsumer = (h: Hub, token: string, name: string) =>
  h.send('/consumers', { method: 'POST', bearer: token, json: { name, email: `${name}@example.com` } });

describe('worlds over HTTP', () => {
  it('answers a world with its keys, its control token and the lines env prints for it', async () => {
    const h = hub();
    const world = await createWorld(h, { clock: '2026-03-01T10:00:00Z' });
    expect(world.id).toMatch(/^world_[0-9a-f]{24}$/);
    expect(world.base_path).toBe(`/__worlds/${world.id}`);
    expect(world.env.SANDBOX_BASE_URL).toBe(ORIGIN);
    expect(world.env.SANDBOX_CLIENT_ID).toBe(world.credentials.sandbox.client_id);
    expect(world.env.SANDBOX_CONSUMER_ID_POS).toMatch(/^[0-9a-f-]{36}$/);
    // Keys of its own: the default world's keys are not its keys.
    const seeded = await h.send('/__sandbox/worlds');
    expect(seeded.status).toBe(200);
    const token = await tokenOf(h, world);
    expect((await h.send('/__sandbox/clock', { bearer: world.control_token })).status).toBe(200);
    const clock = (await (await h.send('/__sandbox/clock', { bearer: world.control_token })).json()) as {
      now: string;
    };
    expect(clock.now).toBe('2026-03-01T10:00:00.000Z');
    const restricted = await h.send('/token', {
      method: 'POST',
      json: {
        clientId: world.credentials.restricted.client_id,
        clientSecret: world.credentials.restricted.client_secret,
        accountId: world.credentials.account_id,
      },
    });
    expect(restricted.status).toBe(200);
    expect(await consumerNames(h, token)).toContain(
      (
        (await (
          await h.send(`/consumers/${world.env.SANDBOX_CONSUMER_ID_POS}`, { bearer: token })
        ).json()) as {
          name: string;
        }
      ).name,
    );
  });

  it('keeps two worlds created in parallel apart: records, clock, journal and faults', async () => {
    const h = hub();
    const [a, b] = await Promise.all([createWorld(h, { clock: 'now' }), createWorld(h, { clock: 'now' })]);
    const [ta, tb] = await Promise.all([tokenOf(h, a as Created), tokenOf(h, b as Created)]);
    const A = a as Created;
    const B = b as Created;
    expect((await addConsumer(h, ta, 'only-in-a')).status).toBe(200);
    expect((await addConsumer(h, tb, 'only-in-b')).status).toBe(200);
    expect(await consumerNames(h, ta)).toContain('only-in-a');
    expect(await consumerNames(h, ta)).not.toContain('only-in-b');
    expect(await consumerNames(h, tb)).toContain('only-in-b');
    expect(await consumerNames(h, tb)).not.toContain('only-in-a');

    const journal = async (world: Created) =>
      (
        (await (await h.send('/__sandbox/requests?limit=100', { bearer: world.control_token })).json()) as {
          items: { path: string; method: string; body?: unknown }[];
        }
      ).items;
    const inA = await journal(A);
    const inB = await journal(B);
    expect(inA.some((r) => r.method === 'POST' && r.path === '/consumers')).toBe(true);
    expect(JSON.stringify(inA)).not.toContain('only-in-b');
    expect(JSON.stringify(inB)).not.toContain('only-in-a');

    // The clock of one moves alone.
    const before = (await (await h.send('/__sandbox/clock', { bearer: B.control_token })).json()) as {
      now: string;
    };
    const moved = await h.send('/__sandbox/clock', {
      method: 'POST',
      bearer: A.control_token,
      json: { advance_seconds: 86_400 * 10 },
    });
    expect(moved.status).toBe(200);
    const after = (await (await h.send('/__sandbox/clock', { bearer: B.control_token })).json()) as {
      now: string;
    };
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeLessThan(60_000);

    // A fault armed in one world fails its requests only.
    const armed = await h.send('/__sandbox/faults', {
      method: 'POST',
      bearer: A.control_token,
      json: { match: { path: '/consumers' }, effect: { status: 503 } },
    });
    expect(armed.status).toBe(200);
    expect((await h.send('/consumers', { bearer: ta })).status).toBe(503);
    expect((await h.send('/consumers', { bearer: tb })).status).toBe(200);
    const listed = (await (
      await h.send('/__sandbox/faults', { bearer: B.control_token })
    ).json()) as unknown[];
    expect(listed).toEqual([]);
  });

  it("never lets a world's keys or tokens reach another world or the default one", async () => {
    const h = hub({}, 'default-admin');
    const a = await createWorld(h, { clock: 'now' }, 'default-admin');
    const b = await createWorld(h, { clock: 'now' }, 'default-admin');
    const ta = await tokenOf(h, a);
    // A's key with B's account id: still A's world, whose key belongs to A's account: the same seed's
    // account, so the exchange works, and it sees A's world.
    expect((await addConsumer(h, ta, 'a-consumer')).status).toBe(200);
    const tb = await tokenOf(h, b);
    expect(await consumerNames(h, tb)).not.toContain('a-consumer');
    // A's control token drives A's world only; it creates no world and lists none.
    const asA = await h.send('/__sandbox/worlds', { bearer: a.control_token });
    expect(asA.status).toBe(404);
    expect(((await asA.json()) as { message: string }).message).toBe(messages.worldsNotServed);
    // Without the default admin token, worlds are neither listed nor created.
    expect((await h.send('/__sandbox/worlds')).status).toBe(401);
    expect((await h.send('/__sandbox/worlds', { method: 'POST', json: {} })).status).toBe(401);
    // The default world's admin token does not control a world.
    const clockOfA = await h.send(`${a.base_path}/__sandbox/clock`, { bearer: 'default-admin' });
    expect(clockOfA.status).toBe(401);
  });

  it('serves a world under its base path, and answers 404 for a world that is not there', async () => {
    const h = hub();
    const world = await createWorld(h, { clock: START });
    const token = await tokenOf(h, world);
    const direct = await h.send(`${world.base_path}/consumers`, { bearer: token });
    expect(direct.status).toBe(200);
    const missing = await h.send('/__worlds/world_000000000000000000000000/consumers', { bearer: token });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe(
      messages.worldNotFound('world_000000000000000000000000'),
    );
  });

  it('refuses a world past the most worlds, or past the bytes they may hold, with 429', async () => {
    const h = hub({ maxWorlds: 2, maxBytes: 1 });
    const first = await createWorld(h, { clock: START });
    // The first world holds nothing written yet: a second one fits the bytes.
    await createWorld(h, { clock: START });
    const third = await h.send('/__sandbox/worlds', { method: 'POST', json: {} });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toBe(messages.worldsCountFull(2));
    expect((await h.send(`/__sandbox/worlds/${first.id}`, { method: 'DELETE' })).status).toBe(204);
    // A write into the second world makes the worlds hold more than one byte.
    const second = h.hub.list().items[0] as { id: string };
    const app = h.hub.app(second.id);
    expect(app).toBeDefined();
    const listing = await h.send('/__sandbox/worlds');
    expect(((await listing.json()) as { total: number }).total).toBe(1);
    const token = await h.send('/token', { method: 'POST', json: {} });
    expect(token.status).toBe(422);
    const written = await createWorld(h, { clock: START }).catch(() => null);
    expect(written).not.toBeNull();
    const t = await tokenOf(h, written as Created);
    expect((await addConsumer(h, t, 'fills')).status).toBe(200);
    expect((await h.send(`/__sandbox/worlds/${second.id}`, { method: 'DELETE' })).status).toBe(204);
    const full = await h.send('/__sandbox/worlds', { method: 'POST', json: {} });
    expect(full.status).toBe(429);
    expect(((await full.json()) as { message: string }).message).toMatch(/^The live worlds hold \d+ bytes/);
  });

  it('refuses a write past the bytes a world may take (413), and counts what it holds', async () => {
    const h = hub({ worldMaxBytes: 6_000 });
    const world = await createWorld(h, { clock: START });
    const token = await tokenOf(h, world);
    let status = 200;
    let written = 0;
    while (status === 200 && written < 100) {
      const body = { name: `quota-${written}-${'q'.repeat(200)}` };
      status = (await h.send('/consumers', { method: 'POST', bearer: token, json: body })).status;
      written += 1;
    }
    expect(status).toBe(413);
    expect(written).toBeGreaterThan(5);
    const summary = (await (await h.send(`/__sandbox/worlds/${world.id}`)).json()) as { bytes: number };
    expect(summary.bytes).toBeGreaterThan(3_000);
    expect(summary.bytes).toBeLessThanOrEqual(6_000);
  });

  it('removes a world once its time-to-live passes without a request', async () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const h = hub({ now: () => now });
    const world = await createWorld(h, { clock: START, ttl_seconds: 60 });
    const token = await tokenOf(h, world);
    now += 50_000;
    expect((await h.send('/consumers', { bearer: token })).status).toBe(200); // used: lives 60 s more
    now += 50_000;
    h.hub.tick();
    expect((await h.send(`/__sandbox/worlds/${world.id}`)).status).toBe(200);
    now += 10_000;
    h.hub.tick();
    const gone = await h.send(`/__sandbox/worlds/${world.id}`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { message: string }).message).toBe(messages.worldNotFound(world.id));
    // Its token reaches no world any more: the default one does not know it.
    expect((await h.send('/consumers', { bearer: token })).status).toBe(401);
  });

  it('applies fixtures, and refuses a world whose fixtures break a rule, creating nothing', async () => {
    const h = hub();
    const world = await createWorld(h, {
      clock: START,
      fixtures: { consumers: [{ ref: 'acme', name: 'Acme from fixtures' }] },
    });
    expect(await consumerNames(h, await tokenOf(h, world))).toContain('Acme from fixtures');
    const refused = await h.send('/__sandbox/worlds', {
      method: 'POST',
      json: { fixtures: { consumers: [{ name: 'x', connections: [{ integration_id: 999_999 }] }] } },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(h.hub.list().total).toBe(1);
    // A path is not a document: the server reads no file for a caller.
    const path = await h.send('/__sandbox/worlds', { method: 'POST', json: { fixtures: '/etc/passwd' } });
    expect(path.status).toBe(422);
  });

  it("keeps a world's keys through its reset", async () => {
    const h = hub();
    const world = await createWorld(h, { clock: START });
    const token = await tokenOf(h, world);
    expect((await addConsumer(h, token, 'before-reset')).status).toBe(200);
    expect((await h.send('/__sandbox/reset', { method: 'POST', bearer: world.control_token })).status).toBe(
      200,
    );
    const again = await tokenOf(h, world);
    expect(await consumerNames(h, again)).not.toContain('before-reset');
  });

  it('shows a world in the console after /console?world=<id>, behind its control token', async () => {
    const h = hub();
    const world = await createWorld(h, { clock: START });
    const first = await h.send(`/console?world=${world.id}`);
    // The world's console asks for its control token (the default one here has none).
    expect(first.status).toBe(401);
    const form = await first.text();
    expect(form).toContain('action="/console/login"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form)?.[1] as string;
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toBe(`sandbox_world=${world.id}`);
    const page = await h.send('/console', { headers: { cookie }, bearer: world.control_token });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(world.credentials.sandbox.client_id);
    // The login form signs in to the world its cookie names.
    const login = await h.send('/console/login', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: world.control_token, next: '/console', _csrf: csrf }).toString(),
    });
    expect(login.status).toBe(303);
    const session = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const signedIn = await h.send('/console', { headers: { cookie: `${cookie}; ${session}` } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain(world.credentials.sandbox.client_id);
    const back = await h.send('/console?world=default', { headers: { cookie } });
    expect(back.status).toBe(200);
    expect(await back.text()).not.toContain(world.credentials.sandbox.client_id);
  });

  it("deletes a world with its own control token, which reaches no other world's", async () => {
    const h = hub({}, 'server-admin');
    const [a, b] = [await createWorld(h, {}, 'server-admin'), await createWorld(h, {}, 'server-admin')];
    const as = (path: string, method = 'GET', bearer = a.control_token) => h.send(path, { method, bearer });
    // Another world, or the list, it neither sees nor deletes.
    expect((await as(`/__sandbox/worlds/${b.id}`, 'DELETE')).status).toBe(404);
    expect((await as(`/__sandbox/worlds/${b.id}`)).status).toBe(404);
    expect((await as('/__sandbox/worlds')).status).toBe(404);
    expect((await as('/__sandbox/worlds', 'POST')).status).toBe(404);
    // Itself it reads and deletes, under the server's paths or its base path.
    const own = await as(`/__sandbox/worlds/${a.id}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { id: string }).id).toBe(a.id);
    expect((await as(`${a.base_path}/__sandbox/worlds/${a.id}`, 'DELETE')).status).toBe(204);
    expect(h.hub.list().items.map((world) => world.id)).toEqual([b.id]);
    // Its token is worth nothing now; the admin token still deletes the other world.
    expect((await as(`/__sandbox/worlds/${a.id}`, 'DELETE')).status).toBe(401);
    expect((await as(`/__sandbox/worlds/${b.id}`, 'DELETE', 'server-admin')).status).toBe(204);
    const c = await createWorld(h, {}, 'server-admin');
    expect((await as(`/__sandbox/worlds/${c.id}`, 'DELETE', c.control_token)).status).toBe(204);
    expect(h.hub.list().total).toBe(0);
  });

  it('routes a link page to the world that made it', async () => {
    const h = hub();
    const world = await createWorld(h, { clock: START });
    const token = await tokenOf(h, world);
    const made = await addConsumer(h, token, 'linked');
    const consumer = ((await made.json()) as { consumerid: string }).consumerid;
    const res = await h.send(`/consumers/${consumer}/connections`, {
      method: 'POST',
      bearer: token,
      json: { integrationid: 9012 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { url } = (await res.json()) as { url: string };
    const page = await h.send(new URL(url).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form');
  });
});

describe('worlds of an app in process', () => {
  it('are served by createApp() itself, through app.request', async () => {
    const app = createApp({ seed: 4, clock: new Date(START) });
    const res = await app.request('/__sandbox/worlds', { method: 'POST' });
    expect(res.status).toBe(201);
    const world = (await res.json()) as Created;
    const token = await app.request('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientId: world.credentials.sandbox.client_id,
        clientSecret: world.credentials.sandbox.client_secret,
        accountId: world.credentials.account_id,
      }),
    });
    expect(token.status).toBe(200);
    // A world hosts no worlds of its own.
    const nested = await app.request('/__sandbox/worlds', {
      method: 'POST',
      headers: { authorization: `Bearer ${world.control_token}` },
    });
    expect(nested.status).toBe(404);
    const none = createApp({ maxWorlds: 0 });
    const refused = await none.request('/__sandbox/worlds');
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { message: string }).message).toBe(messages.worldsNotServed);
  });
});

describe('worlds on a running server', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('lets the official Node SDK work unchanged against a created world', async () => {
    sandbox = await startSandbox({ port: 0, seed: 5 });
    const res = await fetch(`${sandbox.url}/__sandbox/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const world = (await res.json()) as Created;
    const client = new API({
      baseUrl: sandbox.url,
      accountId: world.credentials.account_id,
      clientId: world.credentials.sandbox.client_id,
      clientSecret: world.credentials.sandbox.client_secret,
    });
    const created = await client.Consumers.createConsumer({
      name: 'made by the sdk',
      email: 'sdk@example.com',
    } as never);
    const mine = await client.Consumers.getConsumers();
    expect(mine.map((c) => c.name)).toContain('made by the sdk');
    const pos = await client.Consumers.getConsumerById(world.env.SANDBOX_CONSUMER_ID_POS as string);
    const orders = await pos.pos.getOrders({ date_from: '2026-01-01', date_to: '2026-01-10' } as never);
    expect(Array.isArray(orders)).toBe(true);
    // The default world's keys never saw the consumer.
    const seeded = new API({
      baseUrl: sandbox.url,
      accountId: sandbox.credentials.accountId,
      clientId: sandbox.credentials.sandbox.clientId,
      clientSecret: sandbox.credentials.sandbox.clientSecret,
    });
    expect((await seeded.Consumers.getConsumers()).map((c) => c.consumerId)).not.toContain(
      created.consumerId,
    );
    expect(created.consumerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sandbox.worlds?.list().total).toBe(1);
  });
});
