import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { isAuthenticationPath, type RequestEntry } from '../../src/control/requests/index.js';
import { sessionValue } from '../../src/surfaces/console/console-auth.js';
import { call, listenOn, SEED, sandbox } from '../helpers.js';

/**
 * The request journal never keeps a credential: not the bodies of the authentication routes (POST
 * /token, POST /mcp-token, the OAuth flow under /oauth/), asked or answered, valid or refused, however
 * the path is spelt; not the Authorization, Cookie or Proxy-Authorization headers of any request.
 * Every secret sent or received below is looked for in everything the journal shows.
 */

const ADMIN = 'journal-secrets-admin-token';
const REDIRECT = 'http://127.0.0.1:33418/callback';

type Page = { items: RequestEntry[]; total: number };

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const fromHtml = (text: string) =>
  text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] as string);

/** The hidden fields of an OAuth page's form, as a browser posts them back. */
function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
    fromHtml(m[1] as string),
    fromHtml(m[2] as string),
  ]);
}

describe('the request journal keeps no credential', () => {
  it.each([
    ['/token', true],
    ['/token/', true],
    ['/TOKEN', true],
    ['//token', true],
    ['/%74oken', true],
    ['/%2Ftoken', true],
    ['/token/anything', true],
    ['/mcp-token', true],
    ['/MCP-Token/', true],
    ['/oauth/token', true],
    ['/oauth/authorize', true],
    ['/OAuth//Register', true],
    ['/oauth', true],
    ['/.well-known/oauth-authorization-server', false],
    ['/tokens', false],
    ['/consumers/token', false],
    ['/mcp', false],
    ['/', false],
  ])('%s is an authentication path: %s', (path, expected) => {
    expect(isAuthenticationPath(path)).toBe(expected);
  });

  it('of any authentication route, valid or refused, in process and over a socket', async () => {
    const app = createApp({ seed: SEED, adminToken: ADMIN });
    const { ids } = sandbox();
    const served = await listenOn(app);
    const secrets = new Map<string, string>();
    /** Notes a secret (with where it came from) and gives it back. */
    const secret = (what: string, value: unknown): string => {
      expect(typeof value, what).toBe('string');
      expect((value as string).length, what).toBeGreaterThanOrEqual(8);
      secrets.set(value as string, what);
      return value as string;
    };
    try {
      const account = ids.accountId;
      const clientId = ids.sandbox.clientId;
      secret('the client secret', ids.sandbox.clientSecret);
      const creds = (clientSecret: string) => ({ accountId: account, clientId, clientSecret });
      /** A request over the socket. */
      const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
        fetch(`${served.origin}${path}`, { method, headers, body, redirect: 'manual' });
      const json = { 'content-type': 'application/json' };
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const text = { 'content-type': 'text/plain' };

      // POST /token: the valid exchange, in process and over the socket.
      const valid = await call(app, 'POST', '/token', { body: creds(ids.sandbox.clientSecret) });
      expect(valid.status).toBe(200);
      const apiToken = secret('an API token', valid.body.access_token);
      const overSocket = await send('POST', '/token', JSON.stringify(creds(ids.sandbox.clientSecret)), json);
      expect(overSocket.status).toBe(200);
      secret(
        'an API token over the socket',
        ((await overSocket.json()) as { access_token: string }).access_token,
      );

      // POST /token refused: every kind of input, in process and over the socket.
      const refusals: [string, string, string, Record<string, string>, number][] = [
        ['a wrong secret', '/token', JSON.stringify(creds(secret('w', 'wrong-secret-json-401'))), json, 401],
        ['a text body', '/token', JSON.stringify(creds(secret('t', 'wrong-secret-text-415'))), text, 415],
        [
          'a form',
          '/token',
          new URLSearchParams(creds(secret('f', 'wrong-secret-form-415'))).toString(),
          form,
          415,
        ],
        ['bad JSON', '/token', `{"clientSecret":"${secret('b', 'wrong-secret-badjson-422')}",`, json, 422],
        ['a JSON array', '/token', JSON.stringify([creds(secret('a', 'wrong-secret-array-422'))]), json, 422],
        [
          'a trailing slash',
          '/token/',
          JSON.stringify(creds(secret('s', 'wrong-secret-slash-404'))),
          json,
          404,
        ],
        ['another case', '/TOKEN', JSON.stringify(creds(secret('c', 'wrong-secret-case-404'))), json, 404],
        [
          'a double slash',
          '//token',
          JSON.stringify(creds(secret('d', 'wrong-secret-double-404'))),
          json,
          404,
        ],
        ['an escape', '/%74oken/', JSON.stringify(creds(secret('e', 'wrong-secret-escape-404'))), json, 404],
      ];
      for (const [what, path, body, headers, status] of refusals) {
        const inProcess = await call(app, 'POST', path, { rawBody: body, headers });
        expect(inProcess.status, what).toBe(status);
        const socket = await send('POST', path, body, headers);
        expect(socket.status, `${what} over the socket`).toBe(status);
        await socket.arrayBuffer();
      }
      // A fault answers before the route reads the body: the journal reads it itself.
      const fault = await call(app, 'POST', '/__sandbox/faults', {
        token: ADMIN,
        body: { match: { path: '/token' }, effect: { status: 503 }, times: 2 },
      });
      expect(fault.status).toBe(200);
      const faulted = creds(secret('a faulted exchange', 'wrong-secret-fault-503'));
      expect((await call(app, 'POST', '/token', { body: faulted })).status).toBe(503);
      expect((await send('POST', '/token', JSON.stringify(faulted), json)).status).toBe(503);

      // POST /mcp-token, valid and refused.
      const consumer = ids.verticalConsumers.ACCOUNTING as string;
      const mcpBody = (clientSecret: string) => ({ ...creds(clientSecret), consumerId: consumer });
      const mcp = await call(app, 'POST', '/mcp-token', {
        token: apiToken,
        body: mcpBody(ids.sandbox.clientSecret),
      });
      expect(mcp.status).toBe(200);
      secret('an MCP token', mcp.body.access_token);
      const mcpSocket = await send('POST', '/mcp-token', JSON.stringify(mcpBody(ids.sandbox.clientSecret)), {
        ...json,
        authorization: `Bearer ${apiToken}`,
      });
      expect(mcpSocket.status).toBe(200);
      secret(
        'an MCP token over the socket',
        ((await mcpSocket.json()) as { access_token: string }).access_token,
      );
      const auth = { authorization: `Bearer ${apiToken}` };
      for (const [what, path, body, headers, status] of [
        [
          'a wrong secret',
          '/mcp-token',
          JSON.stringify(mcpBody(secret('m', 'wrong-mcp-secret-401'))),
          { ...json, ...auth },
          401,
        ],
        [
          'no token',
          '/mcp-token',
          JSON.stringify(mcpBody(secret('n', 'wrong-mcp-secret-notoken'))),
          json,
          401,
        ],
        [
          'a text body',
          '/mcp-token',
          JSON.stringify(mcpBody(secret('mt', 'wrong-mcp-secret-text'))),
          { ...text, ...auth },
          415,
        ],
        [
          'bad JSON',
          '/mcp-token',
          `{"clientSecret":"${secret('mb', 'wrong-mcp-secret-badjson')}"`,
          { ...json, ...auth },
          422,
        ],
        [
          'a trailing slash',
          '/mcp-token/',
          JSON.stringify(mcpBody(secret('ms', 'wrong-mcp-secret-slash'))),
          { ...json, ...auth },
          404,
        ],
      ] as [string, string, string, Record<string, string>, number][]) {
        expect((await call(app, 'POST', path, { rawBody: body, headers })).status, what).toBe(status);
        const socket = await send('POST', path, body, headers);
        expect(socket.status, `${what} over the socket`).toBe(status);
        await socket.arrayBuffer();
      }

      // The OAuth flow, over the socket as a browser and an MCP client run it.
      const registered = await send(
        'POST',
        '/oauth/register',
        JSON.stringify({ client_name: 'Secret keeper', redirect_uris: [REDIRECT] }),
        json,
      );
      expect(registered.status).toBe(201);
      const oauthClient = ((await registered.json()) as { client_id: string }).client_id;
      const verifier = secret('a PKCE verifier', randomBytes(32).toString('base64url'));
      const authorize = new URL(`${served.origin}/oauth/authorize`);
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: oauthClient,
        redirect_uri: REDIRECT,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'state-of-the-client',
        resource: `${served.origin}/mcp`,
      })) {
        authorize.searchParams.set(name, value);
      }
      const signInPage = await fetch(authorize);
      expect(signInPage.status).toBe(200);
      const request = hiddenFields(await signInPage.text());
      const postForm = async (fields: [string, string][]) => {
        const res = await send('POST', '/oauth/authorize', new URLSearchParams(fields).toString(), form);
        return { status: res.status, location: res.headers.get('location'), html: await res.text() };
      };
      const signIn = (clientSecret: string): [string, string][] => [
        ...request,
        ['account_id', account],
        ['api_client_id', clientId],
        ['api_client_secret', clientSecret],
        ['action', 'sign_in'],
      ];
      expect((await postForm(signIn(secret('a wrong sign-in', 'wrong-signin-secret-401')))).status).toBe(401);
      const consent = await postForm(signIn(ids.sandbox.clientSecret));
      expect(consent.status).toBe(200);
      const pending = hiddenFields(consent.html);
      expect(pending.map(([name]) => name)).toEqual(['pending']);
      secret('a pending sign-in', pending[0]?.[1]);
      const searched = await postForm([...pending, ['search', 'a'], ['action', 'search']]);
      expect(searched.status).toBe(200);
      const approved = await postForm([
        ...pending,
        ['consumer_id', consumer],
        ['scope', 'consumers.read'],
        ['action', 'approve'],
      ]);
      expect(approved.status).toBe(302);
      const code = secret(
        'an authorization code',
        new URL(approved.location as string).searchParams.get('code'),
      );
      const exchange = async (body: string, headers: Record<string, string>, path = '/oauth/token') => {
        const res = await send('POST', path, body, headers);
        return {
          status: res.status,
          body: (await res.json().catch(() => null)) as Record<string, string> | null,
        };
      };
      const tokens = await exchange(
        new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          client_id: oauthClient,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        }).toString(),
        form,
      );
      expect(tokens.status).toBe(200);
      secret('an OAuth access token', tokens.body?.access_token);
      const refresh = secret('a refresh token', tokens.body?.refresh_token);
      // A refresh as JSON, over the socket, then in process.
      const refreshed = await exchange(
        JSON.stringify({ grant_type: 'refresh_token', refresh_token: refresh, client_id: oauthClient }),
        json,
      );
      expect(refreshed.status).toBe(200);
      secret('a refreshed access token', refreshed.body?.access_token);
      const rotated = secret('a rotated refresh token', refreshed.body?.refresh_token);
      const inProcess = await call(app, 'POST', '/oauth/token', {
        rawBody: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: rotated,
          client_id: oauthClient,
        }).toString(),
        headers: form,
      });
      expect(inProcess.status).toBe(200);
      secret('an access token refreshed in process', inProcess.body.access_token);
      secret('a refresh token rotated in process', inProcess.body.refresh_token);
      // Refused: a bogus refresh token as text, as bad JSON, at a misspelt path.
      const bogus = secret('a bogus refresh token', 'bogus-refresh-token-0123456789');
      expect((await exchange(`grant_type=refresh_token&refresh_token=${bogus}`, text)).status).toBe(400);
      expect((await exchange(`{"refresh_token":"${bogus}"`, json)).status).toBe(400);
      // An unknown path: a form is refused at the door (415), before any route.
      expect((await exchange(`refresh_token=${refresh}`, form, '/OAuth/Token/')).status).toBe(415);
      expect((await exchange(`refresh_token=${refresh}&grant_type=refresh_token`, form)).status).toBe(400);

      // Credentials in headers of an ordinary request: a cookie of the console, a proxy's.
      const cookie = secret('the console cookie', sessionValue(ADMIN));
      const proxy = secret('a proxy credential', 'Basic cHJveHk6c2VjcmV0LXByb3h5');
      const headers = { cookie: `sandbox_console=${cookie}`, 'proxy-authorization': proxy };
      expect((await call(app, 'GET', '/consumers', { token: apiToken, headers })).status).toBe(200);
      expect((await send('GET', '/consumers', undefined, { ...headers, ...auth })).status).toBe(200);
      // The OAuth metadata is public: it stays recorded, bodies included.
      expect((await send('GET', '/.well-known/oauth-authorization-server')).status).toBe(200);

      // Everything the journal shows: its pages, each entry, the code API, and the console.
      const shown: string[] = [];
      const all = await readJournal(app, served.origin, shown);
      expect(all.length).toBeGreaterThanOrEqual(50);
      for (const entry of all) shown.push(JSON.stringify(await entryById(app, entry.id)));
      shown.push(JSON.stringify(app.services.requests.list()));
      const consolePage = await call(app, 'GET', '/console/requests', { token: ADMIN });
      expect(consolePage.status).toBe(200);
      shown.push(consolePage.text);
      for (let page = 2; page <= Math.ceil(all.length / 50); page++) {
        shown.push((await call(app, 'GET', `/console/requests?page=${page}`, { token: ADMIN })).text);
      }
      shown.push((await call(app, 'GET', '/console/requests/rows?after=0', { token: ADMIN })).text);
      const journal = shown.join('\n');
      for (const [value, what] of secrets) {
        expect(journal.includes(value), `${what} (${value}) is in the journal`).toBe(false);
      }

      // What the entries say instead: no body, flagged; other requests keep theirs.
      const authEntries = all.filter((entry) => isAuthenticationPath(entry.path));
      expect(authEntries.length).toBeGreaterThan(40);
      for (const entry of authEntries) {
        expect(entry, entry.path).toMatchObject({
          request: { body: null, truncated: false },
          response: { body: null, truncated: false },
          redacted: true,
        });
      }
      const paths = new Set(authEntries.map((entry) => entry.path));
      for (const path of [
        '/token',
        '/token/',
        '/TOKEN',
        '//token',
        '/mcp-token',
        '/oauth/token',
        '/oauth/authorize',
      ]) {
        expect(paths, path).toContain(path);
      }
      const [consumers] = all.filter((entry) => entry.path === '/consumers');
      expect(consumers).toMatchObject({ redacted: false, request: { headers: { authorization: clientId } } });
      expect(consumers?.request.headers).toMatchObject({
        cookie: 'redacted',
        'proxy-authorization': 'redacted',
      });
      expect(Array.isArray(consumers?.response.body)).toBe(true);
      const metadata = all.find((entry) => entry.path === '/.well-known/oauth-authorization-server');
      expect(metadata).toMatchObject({
        redacted: false,
        response: { body: { token_endpoint: expect.any(String) } },
      });
    } finally {
      await served.close();
    }
  }, 60_000);
});

/** Every entry of the journal, page by page, in process and over the socket (their text kept too). */
async function readJournal(app: SandboxApp, origin: string, shown: string[]): Promise<RequestEntry[]> {
  const entries: RequestEntry[] = [];
  for (let page = 1; ; page++) {
    const res = await call<Page>(app, 'GET', `/__sandbox/requests?size=100&page=${page}`, { token: ADMIN });
    expect(res.status).toBe(200);
    shown.push(res.text);
    const socket = await fetch(`${origin}/__sandbox/requests?size=100&page=${page}`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    shown.push(await socket.text());
    entries.push(...res.body.items);
    if (entries.length >= res.body.total || res.body.items.length === 0) return entries;
  }
}

async function entryById(app: SandboxApp, id: string): Promise<RequestEntry> {
  const res = await call<RequestEntry>(app, 'GET', `/__sandbox/requests/${id}`, { token: ADMIN });
  expect(res.status).toBe(200);
  return res.body;
}
