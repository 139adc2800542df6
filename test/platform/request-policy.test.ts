import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errors } from '../../src/lib/errors.js';
import { publishEvent } from '../../src/modules/webhooks/events.js';
import { SELF_CALL_HEADER, surfaceOf } from '../../src/platform/request-policy.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { call, expectError, SEED, sandbox, sandboxToken, tokenFor } from '../helpers.js';

/**
 * The request policy of the process (platform/request-policy.ts), and the attacks it closes: a
 * webhook aimed at the console or the control endpoints (directly, or relayed by a receiver), a
 * webhook that redelivers itself, a web page driving the sandbox on loopback, DNS rebinding.
 */

const EVENT = 'account.connection.updated';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of running.splice(0)) await thing.close();
});

async function serveSandbox(): Promise<RunningSandbox> {
  const sb = await startSandbox({ seed: SEED, port: 0, clock: new Date('2026-01-15T10:00:00Z') });
  running.push(sb);
  return sb;
}

/**
 * A receiver that relays every request it gets to `target(path)`, headers and body as they came
 * (a vendor's proxy, say): what no url check at webhook creation can see.
 */
async function relay(target: () => string): Promise<{ url: string; count: () => number }> {
  let count = 0;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    }
    try {
      const answer = await fetch(target(), { method: 'POST', headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status).end(await answer.text());
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => count };
}

async function otherAccountWebhook(sb: RunningSandbox, url: string) {
  const token = await tokenFor(sb.app, sb.credentials.otherAccount);
  const res = await call(sb.app, 'POST', '/webhooks', { token, body: { event: EVENT, url } });
  return { res, token };
}

/** Publishes the event the webhook listens to, for the second account, and waits for the deliveries. */
async function fire(sb: RunningSandbox) {
  const { otherAccount } = sb.credentials;
  await sb.store.transact((write) => {
    publishEvent(
      { ...sb.app.services, store: write },
      {
        accountid: otherAccount.accountId,
        envid: otherAccount.sandboxEnvId,
        event: EVENT,
        consumerid: sb.ids.otherAccountConsumerId,
      },
    );
  });
  await sb.app.services.ticker.run();
  await sb.app.services.ticker.idle();
}

/** A consumer of the first account, created through the API: a reset would remove it. */
async function firstAccountConsumer(sb: RunningSandbox) {
  const token = await sandboxToken({ app: sb.app, ids: sb.ids });
  const res = await call(sb.app, 'POST', '/consumers', { token, body: { name: 'Still here' } });
  expect(res.status, res.text).toBe(200);
  const id = res.body.consumerid as string;
  return { stillThere: async () => (await call(sb.app, 'GET', `/consumers/${id}`, { token })).status };
}

describe('the sandbox never calls itself', () => {
  it.each([
    '/console/reset',
    '//console/reset',
    '/%63onsole/reset',
    '/console/requests/clear',
    '/console/automation/failures/clear',
    '/__sandbox/reset',
  ])('refuses a webhook at its own %s, and a delivery never reaches it', async (path) => {
    const sb = await serveSandbox();
    const kept = await firstAccountConsumer(sb);
    const { res } = await otherAccountWebhook(sb, `http://127.0.0.1:${sb.port}${path}`);
    expectError(res, errors.webhookUrlInvalid());
    expect(await kept.stillThere()).toBe(200);
  });

  it('a delivery relayed to the console reset by a receiver is refused before routing: no account is reset', async () => {
    const sb = await serveSandbox();
    const kept = await firstAccountConsumer(sb);
    const hop = await relay(() => `${sb.url}/console/reset`);
    const { res } = await otherAccountWebhook(sb, hop.url);
    expect(res.status, res.text).toBe(200);
    await fire(sb);
    expect(hop.count()).toBe(1);
    expect(await kept.stillThere()).toBe(200);
    const deliveries = Object.values(sb.store.world.webhook_deliveries).filter(
      (d) => d.webhookid === res.body.webhookid,
    );
    expect(deliveries.map((d) => d.last_httpstatus)).toEqual([403]);
  });

  it('a webhook that redelivers its own delivery loops no more: one attempt each time it is asked', async () => {
    const sb = await serveSandbox();
    let deliveryid = '';
    const hop = await relay(() => `${sb.url}/__sandbox/webhook-deliveries/${deliveryid}/redeliver`);
    const { res, token } = await otherAccountWebhook(sb, hop.url);
    expect(res.status, res.text).toBe(200);
    // Aiming it at the console's redeliver button directly is refused at once.
    const patched = await call(sb.app, 'PATCH', `/webhooks/${res.body.webhookid}`, {
      token,
      body: { url: `http://127.0.0.1:${sb.port}/console/webhooks/deliveries/x/redeliver` },
    });
    expectError(patched, errors.webhookUrlInvalid());
    await fire(sb);
    deliveryid = Object.values(sb.store.world.webhook_deliveries).find(
      (d) => d.webhookid === res.body.webhookid,
    )?.deliveryid as string;
    const again = await call(sb.app, 'POST', `/__sandbox/webhook-deliveries/${deliveryid}/redeliver`);
    expect(again.status, again.text).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await sb.app.services.ticker.idle();
    // The first delivery and the redelivery asked for: the relayed redeliveries were refused.
    expect(hop.count()).toBe(2);
    const logs = Object.values(sb.store.world.webhook_logs).filter((l) => l.webhookid === res.body.webhookid);
    expect(logs).toHaveLength(2);
  });

  it.each(['/consumers', '/console/reset', '/__sandbox/reset', '//__sandbox/reset', '/mcp', '/nowhere'])(
    'a request bearing the delivery marker is refused at %s',
    async (path) => {
      const t = sandbox();
      const marker = t.app.services.self.marker;
      const res = await call(t.app, 'POST', path, { headers: { [SELF_CALL_HEADER]: marker } });
      expectError(res, errors.selfCallRefused());
      // Another value is no marker: the request goes on to its route.
      const other = await call(t.app, 'GET', '/openapi.json', { headers: { [SELF_CALL_HEADER]: 'x' } });
      expect(other.status).toBe(200);
    },
  );
});

describe('the console takes changes only from its own pages', () => {
  it('a POST without the form token is refused, whatever its headers say', async () => {
    const t = sandbox();
    const token = await sandboxToken(t);
    const created = await call(t.app, 'POST', '/consumers', { token, body: { name: 'Kept' } });
    const variants: Record<string, string>[] = [
      {},
      { origin: 'http://localhost' },
      { 'sec-fetch-site': 'same-origin' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ];
    for (const headers of variants) {
      const res = await t.app.request('/console/reset', { method: 'POST', headers, body: '' });
      expect(res.status).toBe(403);
    }
    const forged = await t.app.request('/console/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '_csrf=forged',
    });
    expect(forged.status).toBe(403);
    expect((await call(t.app, 'GET', `/consumers/${created.body.consumerid}`, { token })).status).toBe(200);
  });
});

describe('a web page of another site', () => {
  const EVIL = 'https://evil.example';

  it.each([
    '/docs/prefill.json',
    '/console/env',
    '/__sandbox/requests',
    '/console',
    '/docs',
    '/guides/readiness',
  ])('cannot read %s: no CORS header answers it', async (path) => {
    const t = sandbox();
    const res = await t.app.request(path, { headers: { origin: EVIL } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await t.app.request(path, {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still reads the API, as the CORS setting lets it', async () => {
    const t = sandbox();
    const token = await sandboxToken(t);
    const res = await call(t.app, 'GET', '/consumers', { token, headers: { origin: EVIL } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['an Origin of another site', { origin: EVIL }],
    ['an opaque Origin', { origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (another port of localhost)', { 'sec-fetch-site': 'same-site' }],
  ])('cannot reset the world with a bodyless POST carrying %s', async (_label, headers) => {
    const t = sandbox();
    const token = await sandboxToken(t);
    const created = await call(t.app, 'POST', '/consumers', { token, body: { name: 'Kept' } });
    for (const path of ['/__sandbox/reset', '/console/reset', '/__sandbox/requests']) {
      const res = await call(t.app, path === '/__sandbox/requests' ? 'DELETE' : 'POST', path, { headers });
      expectError(res, errors.crossSiteRefused());
    }
    expect((await call(t.app, 'GET', `/consumers/${created.body.consumerid}`, { token })).status).toBe(200);
    expect(t.app.services.requests.size).toBeGreaterThan(0);
  });

  it('changes state from the sandbox’s own origin, and from clients that are no browsers', async () => {
    const t = sandbox();
    expect(
      (await call(t.app, 'POST', '/__sandbox/reset', { headers: { origin: 'http://localhost' } })).status,
    ).toBe(200);
    expect((await call(t.app, 'POST', '/__sandbox/reset')).status).toBe(200);
  });

  it('/mcp refuses an Origin the CORS setting does not let in', async () => {
    const t = sandbox({ cors: ['http://app.example'] });
    const res = await call(t.app, 'POST', '/mcp', { headers: { origin: EVIL }, body: {} });
    expectError(res, errors.originNotAllowed());
    const allowed = await call(t.app, 'POST', '/mcp', {
      headers: { origin: 'http://app.example' },
      body: {},
    });
    expect(allowed.status).not.toBe(403);
  });
});

describe('/mcp and the spellings of an Origin', () => {
  const LISTED = ['http://app.example', 'http://[::1]:5173'];
  it.each([
    ['http://app.example', true],
    ['HTTP://APP.EXAMPLE', true],
    ['http://app.example:80', true],
    ['http://app.example.', true],
    ['http://[::1]:5173', true],
    ['http://[0:0:0:0:0:0:0:1]:5173', true],
    ['http://localhost', true], // the origin the request came through (app.request's)
    ['http://LOCALHOST.:80', true],
    ['http://app.example:8080', false],
    ['https://app.example', false],
    ['http://app.example.evil.example', false],
    ['http://evil-app.example', false],
    ['http://[::1]:5174', false],
    ['http://localhost:4010', false],
    ['http://app.example/', false],
    ['http://app.example/path', false],
    ['http://user@app.example', false],
    ['app.example', false],
    ['http:app.example', false],
    ['null', false],
    ['NULL', false],
    ['', false],
  ])('with listed origins, Origin %j is let in: %s', async (origin, allowed) => {
    const t = sandbox({ cors: LISTED });
    const res = await call(t.app, 'POST', '/mcp', { headers: { origin }, body: {} });
    if (allowed) expect(res.status).not.toBe(403);
    else expectError(res, errors.originNotAllowed());
  });

  it.each(['null', 'Null', 'garbage', 'http://app.example/x', ''])(
    'with every origin let in, an opaque or malformed Origin %j is still refused',
    async (origin) => {
      const t = sandbox();
      expectError(
        await call(t.app, 'POST', '/mcp', { headers: { origin }, body: {} }),
        errors.originNotAllowed(),
      );
    },
  );

  it('the API answers a listed origin in any spelling with the Origin as sent', async () => {
    const t = sandbox({ cors: LISTED });
    for (const origin of ['http://app.example', 'http://APP.example:80']) {
      const res = await t.app.request('/openapi.json', { headers: { origin } });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const other = await t.app.request('/openapi.json', { headers: { origin: 'http://app.example:8080' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a page of the address the server listens on is its own, whatever Host the request names', async () => {
    const sb = await serveSandbox();
    const res = await fetch(`http://localhost:${sb.port}/__sandbox/reset`, {
      method: 'POST',
      headers: { origin: sb.url },
    });
    expect(res.status).toBe(200);
    const elsewhere = await fetch(`http://localhost:${sb.port}/__sandbox/reset`, {
      method: 'POST',
      headers: { origin: `http://127.0.0.1:${sb.port + 1}` },
    });
    expect(elsewhere.status).toBe(403);
  });
});

describe('DNS rebinding: the Host must name this server', () => {
  const REBIND = 'rebind.evil.example:4010';

  it.each([
    ['POST', '/console/reset'],
    ['POST', '/__sandbox/reset'],
    ['GET', '/__sandbox/requests'],
    ['GET', '/docs/prefill.json'],
    ['GET', '/console/env'],
    ['GET', '/consumers'],
    ['POST', '/token'],
    ['GET', '/mcp'],
  ])('%s %s with Host and Origin of a rebound name is refused', async (method, path) => {
    const t = sandbox();
    const res = await call(t.app, method, `http://${REBIND}${path}`, {
      headers: { host: REBIND, origin: `http://${REBIND}` },
    });
    expectError(res, errors.hostNotAllowed(REBIND));
  });

  it.each([
    ['localhost:4010', {}],
    ['127.0.0.1:4010', {}],
    ['[::1]:4010', {}],
    ['app.localhost', {}],
    ['sandbox.internal:8080', { allowedHosts: ['sandbox.internal'] }],
    ['a.dev.example', { allowedHosts: ['.dev.example'] }],
    ['public.example', { publicUrl: 'https://public.example' }],
    ['anything.example', { allowedHosts: '*' as const }],
  ])('takes Host %s', async (host, options) => {
    const t = sandbox(options);
    const res = await call(t.app, 'GET', `http://${host}/openapi.json`, { headers: { host } });
    expect(res.status).toBe(200);
  });

  it('a server on all addresses takes the machine’s addresses, and names given with allowedHosts', async () => {
    const sb = await startSandbox({
      seed: 12345,
      port: 0,
      host: '0.0.0.0',
      adminToken: 'policy-admin',
      allowedHosts: ['sandbox.test'],
    });
    running.push(sb);
    // node:http, since fetch sets the Host itself.
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: sb.port, path: '/openapi.json', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    expect(await get(`127.0.0.1:${sb.port}`)).toBe(200);
    expect(await get('sandbox.test')).toBe(200);
    expect(await get('rebind.evil.example')).toBe(403);
  });
});

describe('surfaces', () => {
  it.each([
    ['/consumers', 'api'],
    ['/token', 'api'],
    ['/openapi.json', 'api'],
    ['/__sandbox/reset', 'control'],
    ['/console', 'pages'],
    ['/console/reset', 'pages'],
    ['/docs/prefill.json', 'pages'],
    ['/guides', 'pages'],
    ['/guides/readiness', 'pages'],
    ['/', 'pages'],
    ['/link/abc', 'pages'],
    ['/oauth/authorize', 'pages'],
    ['/oauth/token', 'oauth-api'],
    ['/oauth/register', 'oauth-api'],
    ['/.well-known/oauth-authorization-server', 'oauth-api'],
    ['/mcp', 'mcp'],
  ])('%s is on the %s surface', (path, surface) => {
    expect(surfaceOf(path)).toBe(surface);
  });
});
