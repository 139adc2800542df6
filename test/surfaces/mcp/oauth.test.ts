import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { errors, messages } from '../../../src/lib/errors.js';
import { allKnownScopes, grantableScopes } from '../../../src/modules/auth/auth.domain.js';
import { oauthMessages } from '../../../src/surfaces/mcp/oauth.domain.js';
import { html } from '../../../src/surfaces/mcp/oauth.pages.js';
import { call, SEED, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { connect, documentedTools, mcpToken, servedPerTest } from './helpers.js';
import { checkboxes, hiddenFields, post, REDIRECT, radios, rawClient, signIn } from './oauth-helpers.js';

const served = servedPerTest();

/** An MCP client's OAuth state, in memory: what a desktop client keeps between runs. */
class MemoryProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl() {
    return REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state() {
    return 'state-42';
  }

  clientInformation() {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

/** Signs in and approves a consumer and scopes; the code of the redirect. */
async function approve(s: TestSandbox & { url: string }, authorize: URL, consumer: string, scopes: string[]) {
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  const consent = await post(s.url, [...hiddenFields(await page.text()), ...signIn(s)]);
  expect(consent.status).toBe(200);
  const pending = hiddenFields(consent.html);
  const done = await post(s.url, [
    ...pending,
    ['consumer_id', consumer],
    ...scopes.map((scope): [string, string] => ['scope', scope]),
    ['action', 'approve'],
  ]);
  expect(done.status, done.html).toBe(302);
  return new URL(done.location as string);
}

async function exchange(url: string, fields: Record<string, string>) {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field in tests
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe('MCP OAuth: the flow of a real MCP client', () => {
  it('discovers, registers, signs in, picks a consumer and scopes, and connects with the SDK client', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.INVOICING as string;
    const provider = new MemoryProvider();
    const first = new Client({ name: 'agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider });
    // The 401 of /mcp starts the discovery, the registration and the redirect to the user.
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.information?.client_id).toEqual(expect.any(String));
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${s.url}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${s.url}/mcp`);

    // The user: the sign-in page, an API key, a search among the consumers, two scopes.
    const signInPage = await fetch(authorizationUrl);
    expect(signInPage.status).toBe(200);
    const signInHtml = await signInPage.text();
    expect(signInHtml).toContain('Test agent');
    expect(signInHtml).not.toMatch(/<script|<link|https?:\/\/(?!127\.0\.0\.1)/);
    const consent = await post(s.url, [...hiddenFields(signInHtml), ...signIn(s)]);
    expect(consent.status).toBe(200);
    const pending = hiddenFields(consent.html);
    expect(pending.map(([name]) => name)).toEqual(['pending']);
    const name = s.app.services.store.world.consumers[consumer]?.name as string;
    const found = await post(s.url, [...pending, ['search', name], ['action', 'search']]);
    expect(radios(found.html)).toContain(consumer);
    const scopes = ['consumers.read', 'invoicing.read'];
    const approved = await post(s.url, [
      ...pending,
      ['consumer_id', consumer],
      ...scopes.map((scope): [string, string] => ['scope', scope]),
      ['action', 'approve'],
    ]);
    expect(approved.status).toBe(302);
    const back = new URL(approved.location as string);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-42');
    expect(back.searchParams.get('iss')).toBe(s.url);

    // Back in the client: the code for tokens (PKCE), then a session with the ticked scopes' tools.
    await transport.finishAuth(back.searchParams.get('code') as string);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 1800, scope: scopes.join(' ') });
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider }),
    );
    const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(listed).toEqual(await documentedTools(s.app, scopes));
    const read = await client.callTool({ name: 'consumers_get_consumer', arguments: {} });
    expect(read.structuredContent).toMatchObject({ consumerid: consumer });
    expect(s.app.services.mcp?.sessions()).toMatchObject([
      {
        consumer_id: consumer,
        client_id: s.ids.sandbox.clientId,
        oauth_client_id: provider.information?.client_id,
        oauth_client_name: 'Test agent',
        scopes,
        calls: 1,
      },
    ]);
    await client.close();
  });

  it('publishes the protected resource and authorization server metadata', async () => {
    const s = await served();
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        resource: `${s.url}/mcp`,
        authorization_servers: [s.url],
        scopes_supported: [...allKnownScopes()],
      });
    }
    const metadata = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: s.url,
      authorization_endpoint: `${s.url}/oauth/authorize`,
      token_endpoint: `${s.url}/oauth/token`,
      registration_endpoint: `${s.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    // Not operations of the service: the OpenAPI document does not hold them.
    const document = JSON.stringify((await call(s.app, 'GET', '/openapi.json')).body.paths);
    expect(document).toContain('"/mcp-token"');
    expect(document).not.toMatch(/"\/(mcp"|oauth\/|\.well-known)/);
  });
});

describe('MCP OAuth: the rules', () => {
  it('registers only safe redirect uris', async () => {
    const s = await served();
    const register = (body: unknown) =>
      fetch(`${s.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const uri of [
      'http://agent.example/callback',
      'javascript:alert(1)',
      'https://agent.example/cb#fragment',
      'not a url',
    ]) {
      const res = await register({ redirect_uris: [uri] });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'invalid_redirect_uri',
        error_description: oauthMessages.redirectUriInvalid(uri),
      });
    }
    expect((await register({ client_name: 'x' })).status).toBe(400);
    for (const uri of [
      'https://agent.example/cb',
      'http://localhost:8080/cb',
      'cursor://anysphere.cursor-mcp/oauth',
    ]) {
      const res = await register({ redirect_uris: [uri] });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    }
  });

  it('shows an error page for an unknown client or redirect uri, never a redirect', async () => {
    const s = await served();
    const { authorize } = await rawClient(s.url);
    const variant = (changes: Record<string, string | null>) => {
      const url = new URL(authorize);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) url.searchParams.delete(name);
        else url.searchParams.set(name, value);
      }
      return fetch(url, { redirect: 'manual' });
    };
    const unknownClient = await variant({ client_id: 'nobody' });
    expect(unknownClient.status).toBe(400);
    expect(await unknownClient.text()).toContain(oauthMessages.clientUnknown);
    const otherRedirect = await variant({ redirect_uri: 'https://attacker.example/cb' });
    expect(otherRedirect.status).toBe(400);
    expect(otherRedirect.headers.get('location')).toBeNull();
    // The other errors of the request are pages too (oauth-redirects.test.ts).
    const noPkce = await variant({ code_challenge: null });
    expect(noPkce.status).toBe(400);
    expect(noPkce.headers.get('location')).toBeNull();
  });

  it('signs in with an API key only, pages through the consumers, and refuses incomplete choices', async () => {
    const s = await served();
    const { authorize } = await rawClient(s.url, { scope: 'consumers.read accounting.read no.such.scope' });
    const request = hiddenFields(await (await fetch(authorize)).text());
    const wrong = await post(s.url, [...request, ...signIn(s, { ...s.ids.sandbox, clientSecret: 'wrong' })]);
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain(messages.invalidCredentials);
    const deleted = await post(s.url, [...request, ...signIn(s, s.ids.revoked)]);
    expect(deleted.status).toBe(401);

    const consent = await post(s.url, [...request, ...signIn(s)]);
    const pending = hiddenFields(consent.html);
    // The requested scopes the key may hand out come ticked; every grantable scope is offered.
    const boxes = checkboxes(consent.html);
    expect(boxes.map((box) => box.scope)).toEqual([...allKnownScopes()]);
    expect(boxes.filter((box) => box.checked).map((box) => box.scope)).toEqual([
      'accounting.read',
      'consumers.read',
    ]);
    // Every consumer the key sees, twenty a page.
    const visible = (await call(s.app, 'GET', '/consumers', { token: await sandboxToken(s) })).body as {
      consumerid: string;
    }[];
    expect(visible.length).toBeGreaterThan(20);
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(visible.length / 20); page += 1) {
      const shown = await post(s.url, [...pending, ['goto', String(page)]]);
      expect(radios(shown.html).length).toBeLessThanOrEqual(20);
      pages.push(...radios(shown.html));
    }
    expect(pages).toEqual(visible.map((consumer) => consumer.consumerid));

    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const noConsumer = await post(s.url, [...pending, ['scope', 'consumers.read'], ['action', 'approve']]);
    expect(noConsumer.status).toBe(400);
    expect(noConsumer.html).toContain(oauthMessages.noConsumer);
    const noScope = await post(s.url, [...pending, ['consumer_id', consumer], ['action', 'approve']]);
    expect(noScope.html).toContain(oauthMessages.noScope);
    const otherAccount = await post(s.url, [
      ...pending,
      ['consumer_id', s.ids.otherAccountConsumerId],
      ['scope', 'consumers.read'],
      ['action', 'approve'],
    ]);
    expect(otherAccount.status).toBe(400);
    expect(otherAccount.html).toContain(messages.consumerNotFound);
    // Denied: said on a page, the client being no client the account registered (oauth-redirects.test.ts).
    const denied = await post(s.url, [...pending, ['action', 'deny']]);
    expect(denied.status).toBe(200);
    expect(denied.html).toContain(oauthMessages.denied);
    // The sign-in is over once denied.
    const after = await post(s.url, [
      ...pending,
      ['consumer_id', consumer],
      ['scope', 'consumers.read'],
      ['action', 'approve'],
    ]);
    expect(after.status).toBe(400);
    expect(after.html).toContain(oauthMessages.signInExpired);
  });

  it('offers a restricted key its consumers and scopes only', async () => {
    const s = await served();
    const { authorize } = await rawClient(s.url);
    const request = hiddenFields(await (await fetch(authorize)).text());
    const consent = await post(s.url, [...request, ...signIn(s, s.ids.restricted)]);
    expect(radios(consent.html)).toEqual([s.ids.restricted.consumerId]);
    expect(checkboxes(consent.html).map((box) => box.scope)).toEqual([
      'accounting.read',
      'connections.read',
      'consumers.read',
    ]);
    const beyond = await post(s.url, [
      ...hiddenFields(consent.html),
      ['consumer_id', s.ids.restricted.consumerId],
      ['scope', 'accounting'],
      ['action', 'approve'],
    ]);
    expect(beyond.status).toBe(400);
    expect(beyond.html).toContain(html(oauthMessages.scopeNotAllowed('accounting')));
  });

  it('exchanges a code once, with its verifier and redirect uri, within its lifetime; refreshes by rotation', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { clientId, verifier, authorize } = await rawClient(s.url);
    const grant = async () =>
      (await approve(s, authorize, consumer, ['consumers.read'])).searchParams.get('code') as string;
    const fields = (code: string) => ({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });

    const wrongVerifier = await exchange(s.url, { ...fields(await grant()), code_verifier: 'x'.repeat(43) });
    expect(wrongVerifier.body).toEqual({
      error: 'invalid_grant',
      error_description: oauthMessages.verifierMismatch,
    });
    const wrongRedirect = await exchange(s.url, {
      ...fields(await grant()),
      redirect_uri: 'http://localhost/other',
    });
    expect(wrongRedirect.body.error_description).toBe(oauthMessages.redirectUriMismatch);

    const code = await grant();
    const tokens = await exchange(s.url, fields(code));
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 1800, scope: 'consumers.read' });
    const reused = await exchange(s.url, fields(code));
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');

    // A code lives five minutes of the sandbox clock.
    const late = await grant();
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 301 } });
    expect((await exchange(s.url, fields(late))).body.error_description).toBe(oauthMessages.codeInvalid);

    // The access token is an MCP token of the consumer and scopes.
    const { client } = await connect(s.url, tokens.body.access_token);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      await documentedTools(s.app, ['consumers.read']),
    );
    await client.close();

    const refreshed = await exchange(s.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    const again = await exchange(s.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: clientId,
    });
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: oauthMessages.refreshInvalid });
    expect((await exchange(s.url, { grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
  });
});

describe('MCP scopes allowed per environment', () => {
  it('are part of the fixtures: the consent page, POST /mcp-token and the tools follow them', async () => {
    const allowed = ['consumers.read', 'accounting.read'];
    const s = await served({
      app: createApp({ seed: SEED, fixtures: { mcp_scopes: allowed } }),
      ids: sandbox().ids,
    });
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { authorize } = await rawClient(s.url);
    const consent = await post(s.url, [...hiddenFields(await (await fetch(authorize)).text()), ...signIn(s)]);
    expect(checkboxes(consent.html).map((box) => box.scope)).toEqual(['accounting.read', 'consumers.read']);

    const api = await sandboxToken(s);
    const beyond = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: { accountId: s.ids.accountId, ...s.ids.sandbox, consumerId: consumer, scopes: ['accounting'] },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toBe(errors.mcpScopesNotGranted(['accounting']).message);
    // Without scopes: what the environment allows (the key holds '*').
    const { client } = await connect(s.url, await mcpToken(s, consumer));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
      await documentedTools(s.app, allowed),
    );
    await client.close();
  });

  it('refuses an unknown scope in a fixture, and default to every scope in a world without the field', () => {
    expect(() =>
      createApp({ seed: SEED, fixtures: { mcp_scopes: ['consumers.read', 'everything'] } }),
    ).toThrow(/mcp_scopes\[1\]/);
    const app = createApp({ seed: SEED });
    const world = app.services.store.world;
    const key = world.keys[sandbox().ids.sandbox.clientId];
    if (!key) throw new Error('no seeded key');
    expect(world.environments[key.envid]?.mcp_scopes).toEqual(['*']);
    // A world written before the field existed.
    delete world.environments[key.envid]?.mcp_scopes;
    expect(grantableScopes(world, key)).toEqual([...allKnownScopes()]);
  });
});
