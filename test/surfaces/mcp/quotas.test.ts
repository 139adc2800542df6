import { createHash, randomBytes } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { messages } from '../../../src/lib/errors.js';
import {
  ANONYMOUS_IDLE_SECONDS,
  MAX_ANONYMOUS_CLIENTS,
  MAX_ANONYMOUS_CLIENTS_PER_ADDRESS,
  OAuthError,
  OAuthState,
  oauthMessages,
  RECENT_USE_SECONDS,
} from '../../../src/surfaces/mcp/oauth.domain.js';
import { html } from '../../../src/surfaces/mcp/oauth.pages.js';
import { MAX_SESSIONS_PER_ACCOUNT, McpSessions, type Session } from '../../../src/surfaces/mcp/sessions.js';
import { call, SEED, type TestSandbox, tokenFor } from '../../helpers.js';
import { connect, initializeBody, mcpHeaders, mcpToken, servedPerTest } from './helpers.js';

/**
 * The bounds of the MCP server and of its OAuth endpoints, and who pays when they are reached: one
 * account's sessions never close another's, anonymous registrations never push out a client in use,
 * and a request the server cannot trust is never redirected.
 */

const served = servedPerTest();

type Served = TestSandbox & { url: string };

const REDIRECT = 'http://127.0.0.1:33418/callback';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field
type Json = any;

/** An MCP token of the second vendor account, for its own consumer. */
async function otherAccountMcpToken(s: TestSandbox): Promise<string> {
  const other = s.ids.otherAccount;
  const res = await call(s.app, 'POST', '/mcp-token', {
    token: await tokenFor(s.app, other),
    body: {
      accountId: other.accountId,
      clientId: other.clientId,
      clientSecret: other.clientSecret,
      consumerId: s.ids.otherAccountConsumerId,
      scopes: ['consumers.read'],
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

const initialize = (url: string, token: string) =>
  fetch(`${url}/mcp`, { method: 'POST', headers: mcpHeaders(token), body: JSON.stringify(initializeBody) });

const countByAccount = (s: TestSandbox) => {
  const counts: Record<string, number> = {};
  for (const session of s.app.services.mcp?.sessions() ?? []) {
    counts[session.account_id] = (counts[session.account_id] ?? 0) + 1;
  }
  return counts;
};

describe('MCP sessions: a quota per account', () => {
  it('lets an account open sessions past its limit without closing another account’s session', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const mine = await connect(s.url, await mcpToken(s, consumer, ['consumers.read']));
    const theirs = await otherAccountMcpToken(s);
    for (let i = 0; i < MAX_SESSIONS_PER_ACCOUNT + 5; i += 1) {
      const res = await initialize(s.url, theirs);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const read = await mine.client.callTool({ name: 'consumers_get_consumer', arguments: {} });
    expect(read.structuredContent).toMatchObject({ consumerid: consumer });
    // The other account's own least recently used sessions went: it keeps its limit, no more.
    expect(countByAccount(s)).toEqual({
      [s.ids.accountId]: 1,
      [s.ids.otherAccount.accountId]: MAX_SESSIONS_PER_ACCOUNT,
    });
    await mine.client.close();
  }, 30_000);

  it('refuses a new session with a clear error when the server is full, closing nobody’s', async () => {
    const s = await served();
    const sessions = s.app.services.mcp as McpSessions;
    sessions.cap = 2;
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const mine = await connect(s.url, await mcpToken(s, consumer, ['consumers.read']));
    const theirs = await otherAccountMcpToken(s);
    expect((await initialize(s.url, theirs)).status).toBe(200);
    const refused = await initialize(s.url, theirs);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toEqual(expect.any(String));
    expect(((await refused.json()) as Json).error).toEqual({
      code: -32000,
      message: messages.mcpSessionsFull(2),
    });
    // Refused for every account alike, and the open sessions go on.
    const token = await mcpToken(s, consumer, ['consumers.read']);
    expect((await initialize(s.url, token)).status).toBe(429);
    expect(countByAccount(s)).toEqual({ [s.ids.accountId]: 1, [s.ids.otherAccount.accountId]: 1 });
    expect((await mine.client.listTools()).tools.length).toBeGreaterThan(0);
    // A session that ends makes room.
    await mine.transport.terminateSession();
    const again = await initialize(s.url, token);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    await mine.client.close();
  });

  it('evicts within the account only, and counts sessions being opened against the cap', () => {
    const clock = createApp({ seed: SEED }).services.clock;
    const world = {} as Session['world'];
    const sessions = new McpSessions(clock, () => world, 2, 3);
    const closed: string[] = [];
    const session = (id: string, account: string): Session => ({
      id,
      identity: id,
      world,
      expiresAt: clock.now().getTime() + 60_000,
      transport: {} as Session['transport'],
      server: { close: async () => void closed.push(id) } as Session['server'],
      info: { account_id: account } as Session['info'],
    });
    for (const [id, account] of [
      ['a1', 'A'],
      ['a2', 'A'],
      ['b1', 'B'],
    ] as const) {
      expect(sessions.reserve(account)).toBe(true);
      sessions.add(session(id, account));
    }
    // Full: another account is refused, and nobody's session is closed for it.
    expect(sessions.reserve('C')).toBe('cap');
    expect(closed).toEqual([]);
    // An account at its own limit makes room among its own sessions.
    expect(sessions.reserve('A')).toBe(true);
    expect(closed).toEqual(['a1']);
    // A session being opened holds its place: a second one would pass the cap.
    expect(sessions.reserve('B')).toBe('cap');
    sessions.add(session('a3', 'A'));
    expect(sessions.size).toBe(3);
    // An initialize that failed gives its place back.
    expect(sessions.reserve('A')).toBe(true);
    expect(closed).toEqual(['a1', 'a2']);
    sessions.release('A');
    expect(sessions.reserve('B')).toBe(true);
    expect(closed).toEqual(['a1', 'a2']);
  });
});

/** PKCE and an authorization url of a registered client. */
function authorizeUrl(url: string, clientId: string, extra: Record<string, string | null> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${url}/oauth/authorize`);
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'xyz',
    resource: `${url}/mcp`,
    ...extra,
  };
  for (const [name, value] of Object.entries(params)) {
    if (value !== null) authorize.searchParams.set(name, value);
  }
  return { authorize, verifier };
}

const UNESCAPE: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (text: string) =>
  text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPE[entity] as string);
const hiddenFields = (html: string): [string, string][] =>
  [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
    unescapeHtml(m[1] as string),
    unescapeHtml(m[2] as string),
  ]);

async function postForm(url: string, path: string, fields: [string, string][]) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

async function register(url: string, body: unknown = { redirect_uris: [REDIRECT] }, token?: string) {
  const res = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Registers a client and walks the whole flow: its access and refresh tokens. */
async function signedInClient(s: Served) {
  const { body } = await register(s.url, { client_name: 'Real agent', redirect_uris: [REDIRECT] });
  const clientId = body.client_id as string;
  const { authorize, verifier } = authorizeUrl(s.url, clientId);
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  const consent = await postForm(s.url, '/oauth/authorize', [
    ...hiddenFields(await page.text()),
    ['account_id', s.ids.accountId],
    ['api_client_id', s.ids.sandbox.clientId],
    ['api_client_secret', s.ids.sandbox.clientSecret],
  ]);
  expect(consent.status).toBe(200);
  const approved = await postForm(s.url, '/oauth/authorize', [
    ...hiddenFields(consent.text),
    ['consumer_id', s.ids.verticalConsumers.ACCOUNTING as string],
    ['scope', 'consumers.read'],
    ['action', 'approve'],
  ]);
  expect(approved.status).toBe(302);
  const code = new URL(approved.location as string).searchParams.get('code') as string;
  const tokens = await postForm(s.url, '/oauth/token', [
    ['grant_type', 'authorization_code'],
    ['code', code],
    ['client_id', clientId],
    ['redirect_uri', REDIRECT],
    ['code_verifier', verifier],
  ]);
  expect(tokens.status).toBe(200);
  return { clientId, tokens: JSON.parse(tokens.text) as Json };
}

/** Anonymous registrations from this process (one address: the loopback's), in parallel batches. */
async function churn(url: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let done = 0; done < count; done += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - done) }, () => register(url).then((res) => res.status)),
    );
    statuses.push(...batch);
  }
  return statuses;
}

/** The authorization page of a client: 200 while it is registered. */
const authorizeStatus = async (url: string, clientId: string) =>
  (await fetch(authorizeUrl(url, clientId).authorize, { redirect: 'manual' })).status;

describe('MCP OAuth: registrations bounded per pool', () => {
  it('keeps a signed-in client through 1,000 anonymous registrations', async () => {
    const s = await served();
    const { clientId, tokens } = await signedInClient(s);
    const statuses = await churn(s.url, 1000);
    expect(statuses.every((status) => status === 201)).toBe(true);
    expect(await authorizeStatus(s.url, clientId)).toBe(200);
    const refreshed = await postForm(s.url, '/oauth/token', [
      ['grant_type', 'refresh_token'],
      ['refresh_token', tokens.refresh_token],
      ['client_id', clientId],
    ]);
    expect(refreshed.status).toBe(200);
    // A new sign-in of the client goes through too (the code exchange checks the client).
    const again = await signedInClient(s);
    expect(again.tokens.access_token).toEqual(expect.any(String));
  }, 30_000);

  it('keeps an anonymous client in use, and clients of another address or of an account', async () => {
    const s = await served();
    // In use: its authorization page was opened, the user is signing in.
    const inUse = (await register(s.url)).body.client_id as string;
    expect(await authorizeStatus(s.url, inUse)).toBe(200);
    // Registered by an account (with an API token): never used, still not anonymous churn's to take.
    const api = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
    const byAccount = await register(s.url, { redirect_uris: [REDIRECT] }, api);
    expect(byAccount.status).toBe(201);
    // From another address (a request that came through no socket: 'local').
    const local = await s.app.request('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    expect(local.status).toBe(201);
    const otherAddress = ((await local.json()) as Json).client_id as string;
    // An unused anonymous client of the churning address: the first to go.
    const unused = (await register(s.url)).body.client_id as string;

    await churn(s.url, 1000);
    expect(await authorizeStatus(s.url, inUse)).toBe(200);
    expect(await authorizeStatus(s.url, byAccount.body.client_id)).toBe(200);
    expect(await authorizeStatus(s.url, otherAddress)).toBe(200);
    expect(await authorizeStatus(s.url, unused)).toBe(400);
  }, 30_000);

  it('refuses an anonymous registration when every client of the address is in use, until one is not', async () => {
    const s = await served();
    const registerLocally = () =>
      s.app.request('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
    for (let i = 0; i < MAX_ANONYMOUS_CLIENTS_PER_ADDRESS; i += 1) {
      const res = await registerLocally();
      expect(res.status).toBe(201);
      const clientId = ((await res.json()) as Json).client_id;
      const { authorize } = authorizeUrl('http://localhost', clientId, { resource: null });
      expect((await s.app.request(authorize.pathname + authorize.search)).status).toBe(200);
    }
    const refused = await registerLocally();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toEqual(expect.any(String));
    expect(await refused.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: oauthMessages.tooManyRegistrations(MAX_ANONYMOUS_CLIENTS_PER_ADDRESS),
    });
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: RECENT_USE_SECONDS + 1 } });
    expect((await registerLocally()).status).toBe(201);
  }, 30_000);

  it('bounds the anonymous registrations of every address together, never taking another address’s', () => {
    const clock = createApp({ seed: SEED }).services.clock;
    const state = new OAuthState(clock);
    const metadata = { redirect_uris: [REDIRECT] };
    const addresses = MAX_ANONYMOUS_CLIENTS / MAX_ANONYMOUS_CLIENTS_PER_ADDRESS;
    const first: string[] = [];
    for (let address = 0; address < addresses; address += 1) {
      for (let i = 0; i < MAX_ANONYMOUS_CLIENTS_PER_ADDRESS; i += 1) {
        const client = state.register(metadata, { address: `10.0.0.${address}` });
        if (i === 0) first.push(client.client_id);
      }
    }
    // A new address finds every anonymous place taken: refused, and nobody's client forgotten.
    const refused = (() => {
      try {
        state.register(metadata, { address: '192.0.2.1' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(OAuthError);
    expect(refused).toMatchObject({
      code: 'temporarily_unavailable',
      status: 429,
      message: oauthMessages.anonymousRegistrationsFull(MAX_ANONYMOUS_CLIENTS),
    });
    expect(first.every((id) => state.client(id) !== undefined)).toBe(true);
    // An address makes room among its own clients; an account's registration is not anonymous.
    expect(state.register(metadata, { address: '10.0.0.0' }).client_id).toEqual(expect.any(String));
    expect(state.client(first[0])).toBeUndefined();
    expect(state.register(metadata, { accountId: 'account' }).client_id).toEqual(expect.any(String));
    // Registrations idle for long are forgotten once the anonymous places are all taken.
    clock.advance(ANONYMOUS_IDLE_SECONDS);
    expect(state.register(metadata, { address: '192.0.2.1' }).client_id).toEqual(expect.any(String));
  });

  it('refuses a registration with a bearer token that is not valid', async () => {
    const s = await served();
    const res = await register(s.url, { redirect_uris: [REDIRECT] }, 'not-a-token');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
  });
});

describe('MCP OAuth: the authorization request, validated before any redirect', () => {
  async function authorize(url: string, search: string) {
    const res = await fetch(`${url}/oauth/authorize?${search}`, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  const query = (params: [string, string][]) => new URLSearchParams(params).toString();

  it('shows an error page, never a redirect, while the client or its redirect uri is not established', async () => {
    const s = await served();
    const clientId = (await register(s.url)).body.client_id as string;
    const { authorize: good } = authorizeUrl(s.url, clientId, { response_type: 'token' });
    const base = [...good.searchParams].filter(([name]) => name !== 'client_id' && name !== 'redirect_uri');
    const cases: [string, [string, string][], string][] = [
      ['no client_id', [...base, ['redirect_uri', REDIRECT]], oauthMessages.clientUnknown],
      [
        'unknown client_id',
        [...base, ['client_id', 'nobody'], ['redirect_uri', REDIRECT]],
        oauthMessages.clientUnknown,
      ],
      // The client registered one redirect uri: still, it is not assumed.
      ['no redirect_uri', [...base, ['client_id', clientId]], oauthMessages.redirectUriRequired],
      [
        'an unregistered redirect_uri',
        [...base, ['client_id', clientId], ['redirect_uri', 'https://attacker.example/cb']],
        oauthMessages.redirectUriUnregistered,
      ],
      [
        'a redirect_uri differing in a trailing slash',
        [...base, ['client_id', clientId], ['redirect_uri', `${REDIRECT}/`]],
        oauthMessages.redirectUriUnregistered,
      ],
      [
        'a redirect_uri on another loopback host',
        [...base, ['client_id', clientId], ['redirect_uri', REDIRECT.replace('127.0.0.1', 'localhost')]],
        oauthMessages.redirectUriUnregistered,
      ],
      [
        'a script redirect_uri',
        [...base, ['client_id', clientId], ['redirect_uri', 'javascript:alert(1)']],
        oauthMessages.redirectUriUnregistered,
      ],
      [
        'two redirect_uri',
        [
          ...base,
          ['client_id', clientId],
          ['redirect_uri', REDIRECT],
          ['redirect_uri', 'https://attacker.example/cb'],
        ],
        oauthMessages.parameterRepeated('redirect_uri'),
      ],
      [
        'two client_id',
        [...base, ['client_id', clientId], ['client_id', 'nobody'], ['redirect_uri', REDIRECT]],
        oauthMessages.parameterRepeated('client_id'),
      ],
    ];
    const failures: string[] = [];
    for (const [name, params, message] of cases) {
      const res = await authorize(s.url, query(params));
      if (res.status !== 400 || res.location !== null || !res.text.includes(message.replace(/'/g, '&#39;'))) {
        failures.push(`${name}: ${res.status} ${res.location ?? ''}`);
      }
    }
    expect(failures).toEqual([]);
    // The sign-in form's post is held to the same rule.
    const posted = await postForm(s.url, '/oauth/authorize', [...base, ['client_id', clientId]]);
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
  });

  it("shows a repeated parameter other than the client's or the redirect's as a page too", async () => {
    const s = await served();
    const clientId = (await register(s.url)).body.client_id as string;
    const { authorize: url } = authorizeUrl(s.url, clientId);
    url.searchParams.append('response_type', 'token');
    const repeated = await authorize(s.url, url.search.slice(1));
    expect(repeated.status).toBe(400);
    expect(repeated.location).toBeNull();
    expect(repeated.text).toContain(html(oauthMessages.parameterRepeated('response_type')));
  });

  it('registers redirect uris of https or of http on a loopback host only, matched exactly', async () => {
    const s = await served();
    for (const uri of [
      'http://agent.example/callback',
      'http://localhost.attacker.example/cb',
      'http://127.0.0.1.attacker.example/cb',
      'http://10.0.0.1/cb',
      'https://user:secret@agent.example/cb',
      'http://user@127.0.0.1/cb',
      'https:/agent.example/cb',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://agent.example/cb#fragment',
    ]) {
      const res = await register(s.url, { redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_redirect_uri',
        error_description: oauthMessages.redirectUriInvalid(uri),
      });
    }
    for (const uri of [
      'https://agent.example/cb',
      'http://localhost:8080/cb',
      'http://127.0.0.1/cb',
      'http://[::1]:9000/cb',
    ]) {
      const res = await register(s.url, { redirect_uris: [uri] });
      expect(res.status, uri).toBe(201);
      expect(res.body.redirect_uris).toEqual([uri]);
    }
  });
});

describe('MCP server: tools/call with arguments that are not an object', () => {
  it('answers -32602 with a clear message to a raw JSON-RPC request, and the session goes on', async () => {
    const s = await served();
    const token = await mcpToken(s, s.ids.verticalConsumers.ACCOUNTING as string, ['consumers.read']);
    const init = await initialize(s.url, token);
    expect(init.status).toBe(200);
    await init.arrayBuffer();
    const headers = {
      ...mcpHeaders(token),
      'mcp-session-id': init.headers.get('mcp-session-id') as string,
      'mcp-protocol-version': initializeBody.params.protocolVersion,
    };
    const send = async (message: unknown) => {
      const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const notified = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(notified.status).toBe(202);
    const cases: [unknown, string][] = [
      ['text', 'a string'],
      [[1, 2], 'an array'],
      [42, 'a number'],
      [null, 'null'],
      [true, 'a boolean'],
    ];
    let id = 10;
    for (const [args, kind] of cases) {
      id += 1;
      const res = await send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'consumers_get_consumer', arguments: args },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: messages.mcpToolArgumentsNotObject(kind) },
      });
    }
    // Without a tool name, or without params: the same error code, never an internal error.
    for (const params of [{ arguments: {} }, undefined]) {
      id += 1;
      const res = await send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        ...(params === undefined ? {} : { params }),
      });
      expect(res.body.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    // In a batch, the malformed call is answered alone and the other one runs.
    const batch = await send([
      {
        jsonrpc: '2.0',
        id: 100,
        method: 'tools/call',
        params: { name: 'consumers_get_consumer', arguments: 'x' },
      },
      {
        jsonrpc: '2.0',
        id: 101,
        method: 'tools/call',
        params: { name: 'consumers_get_consumer', arguments: {} },
      },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.find((answer: Json) => answer.id === 100)?.error?.code).toBe(-32602);
    expect(batch.body.find((answer: Json) => answer.id === 101)?.result?.isError).toBe(false);
    const ok = await send({
      jsonrpc: '2.0',
      id: 200,
      method: 'tools/call',
      params: { name: 'consumers_get_consumer', arguments: {} },
    });
    expect(ok.body.result?.isError).toBe(false);
  });

  it('answers -32602 through the SDK client too', async () => {
    const s = await served();
    const { client } = await connect(
      s.url,
      await mcpToken(s, s.ids.verticalConsumers.ACCOUNTING as string, ['consumers.read']),
    );
    for (const args of ['text', [1], 7]) {
      const failure = await client
        .callTool({ name: 'consumers_get_consumer', arguments: args as unknown as Record<string, unknown> })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(McpError);
      expect((failure as McpError).code).toBe(-32602);
    }
    const read = await client.callTool({ name: 'consumers_get_consumer', arguments: {} });
    expect(read.isError).toBe(false);
    expect(s.app.services.mcp?.sessions()[0]?.calls).toBe(1);
    await client.close();
  });
});
