import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { CORS_MAX_AGE, type CorsOrigins } from '../../src/lib/cors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { sandboxToken, sandbox as testSandbox } from '../helpers.js';

/** Cross-origin access: preflights, the origins let in, and who decides the default. */

const PAGE = 'http://localhost:5173';
const OTHER = 'https://elsewhere.example';

const preflight = (origin: string, method = 'POST', headers = 'authorization, content-type') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': headers,
  },
});

describe('CORS of an app (every origin by default)', () => {
  it('answers a preflight at once: 204, the methods, the headers asked for, a max age', async () => {
    const { app } = testSandbox();
    const res = await app.request(
      '/consumers/00000000-0000-4000-8000-000000000000/accounting/invoices',
      preflight(PAGE, 'POST', 'Authorization, Content-Type, X-Chift-ConnectionId, X-Chift-Client-RequestId'),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
    );
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual([
      'authorization',
      'content-type',
      'x-chift-connectionid',
      'x-chift-client-requestid',
    ]);
    expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE));
    expect(await res.text()).toBe('');
  });

  it('lets the page read answers, refusals included, and the headers it needs', async () => {
    const s = testSandbox();
    const token = await sandboxToken(s);
    const ok = await s.app.request('/consumers', {
      headers: { origin: PAGE, authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['allow', 'x-chift-client-requestid', 'x-chift-connectionid']),
    );
    const refused = await s.app.request('/consumers', { headers: { origin: PAGE } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const wrongMethod = await s.app.request('/consumers', { method: 'PUT', headers: { origin: PAGE } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets a browser-based MCP client through: its preflight, its session id and the 401 challenge', async () => {
    const { app } = testSandbox();
    const pre = await app.request(
      '/mcp',
      preflight(PAGE, 'POST', 'Authorization, Content-Type, Mcp-Session-Id'),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-session-id');
    const challenge = await app.request('/mcp', {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect(challenge.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version', 'www-authenticate']),
    );
  });

  it('leaves requests without an Origin (SDKs, curl) as they were', async () => {
    const { app } = testSandbox();
    const res = await app.request('/consumers');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    // An OPTIONS that is no preflight is no CORS request either: the path takes other methods.
    const options = await app.request('/consumers', { method: 'OPTIONS', headers: { origin: PAGE } });
    expect(options.status).toBe(405);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('CORS restricted to some origins', () => {
  it('lets the listed origins in, by name, and no other', async () => {
    for (const cors of [[PAGE, 'http://127.0.0.1:3000'], `${PAGE}/, http://127.0.0.1:3000`]) {
      const app = createApp({ seed: 7, cors });
      const listed = await app.request('/token', preflight(PAGE));
      expect(listed.status).toBe(204);
      expect(listed.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(listed.headers.get('vary')).toContain('Origin');
      const read = await app.request('/consumers', { headers: { origin: 'http://127.0.0.1:3000' } });
      expect(read.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
      expect(read.headers.get('vary')).toContain('Origin');

      const other = await app.request('/token', preflight(OTHER));
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const otherRead = await app.request('/consumers', { headers: { origin: OTHER } });
      expect(otherRead.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('"*" among the origins lets every one in; none turns CORS off', async () => {
    const every = createApp({ seed: 7, cors: `${PAGE},*` });
    expect((await every.request('/token', preflight(OTHER))).headers.get('access-control-allow-origin')).toBe(
      '*',
    );
    for (const cors of [null, false, []] as CorsOrigins[]) {
      const app = createApp({ seed: 7, cors });
      const res = await app.request('/token', preflight(PAGE));
      expect(res.status).toBe(405);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('refuses what is not an origin', () => {
    for (const cors of ['localhost:3000', 'http://app.example/path', 'app.example', 'file:///tmp']) {
      expect(() => createApp({ seed: 7, cors })).toThrow(TypeError);
    }
  });
});

describe('CORS of a listening sandbox', () => {
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('lets every origin in on loopback by default', async () => {
    running = await startSandbox({ seed: 7, port: 0 });
    const res = await fetch(`${running.url}/token`, preflight(PAGE));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const token = await fetch(`${running.url}/token`, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: running.credentials.accountId, ...running.credentials.sandbox }),
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('beyond loopback lets no origin in unless told which', async () => {
    const exposed = { seed: 71, port: 0, host: '0.0.0.0', adminToken: 'cors-test-admin' };
    running = await startSandbox(exposed);
    const url = `http://127.0.0.1:${running.port}`;
    const refused = await fetch(`${url}/token`, preflight(PAGE));
    expect(refused.status).toBe(405);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${url}/openapi.json`, { headers: { origin: PAGE } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    await read.arrayBuffer();
    await running.close();

    running = await startSandbox({ ...exposed, cors: [PAGE] });
    const allowed = await fetch(`http://127.0.0.1:${running.port}/token`, preflight(PAGE));
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PAGE);
  });
});
