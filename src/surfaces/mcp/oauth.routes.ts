import type { IncomingMessage } from 'node:http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, errors, messages } from '../../lib/errors.js';
import { paginate } from '../../lib/pagination.js';
import {
  allKnownScopes,
  checkKeyCredentials,
  checkMcpConsumer,
  grantableScopes,
  grantScopes,
  principalOfKey,
} from '../../modules/auth/index.js';
import { searchConsumers } from '../../modules/consumers/index.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { publicOrigin } from '../../platform/urls.js';
import type { ApiKeyRecord } from '../../store/world.js';
import {
  AUTHORIZATION_PARAMETERS,
  type AuthorizationRequest,
  type Grant,
  OAuthError,
  type OAuthState,
  oauthMessages,
  type PendingAuthorization,
  type RegisteredClient,
  type Registrant,
} from './oauth.domain.js';
import { consentPage, errorPage, signInPage } from './oauth.pages.js';

/**
 * The OAuth 2.0 endpoints an MCP client discovers from a 401 of /mcp: the protected resource's
 * metadata (RFC 9728), the authorization server's (RFC 8414), registration (RFC 7591), the
 * authorization page and the token endpoint. Plain hono routes: they are not operations of the
 * service and stay out of its OpenAPI document.
 */

export const MCP_PATH = '/mcp';
export const OAUTH_PREFIX = '/oauth/';
export const PROTECTED_RESOURCE_METADATA = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';

/** Consumers per page of the consent page. */
export const CONSENT_PAGE_SIZE = 20;
/** Largest body of an OAuth endpoint: a registration with a long scope list fits many times. */
const OAUTH_BODY_LIMIT = 64 * 1024;

const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** The url the MCP server is known by (the `resource` of its tokens). */
export const mcpResource = (origin: string) => `${origin}${MCP_PATH}`;
export const resourceMetadataUrl = (origin: string) => `${origin}${PROTECTED_RESOURCE_METADATA}${MCP_PATH}`;

/**
 * The body's parameters: form-encoded or JSON. Read from the raw request (not through hono's body
 * cache), so the request journal keeps no client secret, verifier or refresh token.
 */
async function readParams(c: Context<AppEnv>): Promise<URLSearchParams> {
  const text = await c.req.raw.text();
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new OAuthError('invalid_request', oauthMessages.bodyNotReadable);
    }
    const params = new URLSearchParams();
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [name, value] of Object.entries(parsed)) {
        if (typeof value === 'string') params.append(name, value);
        else if (Array.isArray(value))
          for (const item of value) if (typeof item === 'string') params.append(name, item);
      }
    }
    return params;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') return new URLSearchParams(text);
  throw new OAuthError('invalid_request', oauthMessages.bodyNotReadable);
}

const single = (params: URLSearchParams): Record<string, string | undefined> => {
  const out: Record<string, string | undefined> = {};
  for (const [name] of params) out[name] ??= params.get(name) ?? undefined;
  return out;
};

/** The parameters of the authorization request given more than once. */
const repeatedParameters = (params: URLSearchParams): Set<string> =>
  new Set(AUTHORIZATION_PARAMETERS.filter((name) => params.getAll(name).length > 1));

/**
 * Where a registration comes from: the peer's address when served by the node server, 'local' for a
 * request made in-process (`app.request`). Forwarding headers are not trusted: anyone can write them.
 */
function remoteAddress(c: Context<AppEnv>): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}

/** JSON written as text, not with c.json: the journal records c.json answers, and these hold tokens. */
const oauthJson = (
  c: Context<AppEnv>,
  body: unknown,
  status: 200 | 201 | 400 | 401 | 413 | 429 = 200,
  headers: Record<string, string> = {},
) => c.body(JSON.stringify(body), status, { 'content-type': 'application/json', ...noStore, ...headers });

const oauthFailure = (c: Context<AppEnv>, error: unknown) => {
  if (!(error instanceof OAuthError)) throw error;
  const headers: Record<string, string> = {};
  if (error.retryAfter !== null) headers['retry-after'] = String(error.retryAfter);
  if (error.code === 'invalid_token') headers['www-authenticate'] = 'Bearer error="invalid_token"';
  return oauthJson(c, error.toBody(), error.status, headers);
};

/** The redirect back to the client, with the code or the error (and the state, and the issuer). */
function redirectBack(
  c: Context<AppEnv>,
  redirectUri: string,
  state: string | null,
  params: Record<string, string>,
) {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== null) url.searchParams.set('state', state);
  url.searchParams.set('iss', publicOrigin(c.get('config'), c.req.url));
  return c.redirect(url.toString(), 302);
}

/** The key of a sign-in, still there and not deleted. */
function keyOfSignIn(services: Services, keyClientId: string): ApiKeyRecord {
  const key = services.store.world.keys[keyClientId];
  if (!key || key.deleted_on !== null) throw new OAuthError('access_denied', messages.invalidCredentials);
  return key;
}

function renderConsent(
  c: Context<AppEnv>,
  services: Services,
  state: OAuthState,
  pending: PendingAuthorization,
  form: {
    search: string;
    page: number;
    consumer: string | null;
    ticked: ReadonlySet<string>;
    error: string | null;
  },
) {
  const key = keyOfSignIn(services, pending.keyClientId);
  const world = services.store.world;
  const matching = searchConsumers(world, principalOfKey(key), { search: form.search || undefined });
  const pages = Math.max(1, Math.ceil(matching.length / CONSENT_PAGE_SIZE));
  const pageNumber = Math.min(Math.max(1, form.page), pages);
  const { items } = paginate(matching, pageNumber, CONSENT_PAGE_SIZE);
  const client = state.client(pending.request.client_id);
  if (!client) throw new OAuthError('invalid_client', oauthMessages.clientUnknown);
  return c.html(
    consentPage({
      client,
      redirectUri: pending.request.redirect_uri,
      pendingId: pending.id,
      search: form.search,
      page: pageNumber,
      pages,
      total: matching.length,
      consumers: items,
      selectedConsumer: form.consumer,
      scopes: grantableScopes(world, key),
      ticked: form.ticked,
      error: form.error,
    }),
    form.error ? 400 : 200,
    noStore,
  );
}

/** The token endpoint's answer: an MCP token of the grant's key, consumer and scopes, checked again. */
async function issueTokens(services: Services, state: OAuthState, grant: Grant) {
  const world = services.store.world;
  const key = world.keys[grant.keyClientId];
  if (!key || key.deleted_on !== null) {
    throw new OAuthError('invalid_grant', oauthMessages.grantRevoked(messages.invalidCredentials));
  }
  let scopes: string[];
  try {
    checkMcpConsumer(world, key, grant.consumerid);
    scopes = grantScopes(world, key, grant.scopes);
  } catch (error) {
    if (error instanceof ApiError)
      throw new OAuthError('invalid_grant', oauthMessages.grantRevoked(error.message));
    throw error;
  }
  const token = await services.tokens.issue(key, { consumerid: grant.consumerid, scopes });
  const refresh = state.issued(grant, token.access_token);
  return {
    access_token: token.access_token,
    token_type: 'Bearer',
    expires_in: token.expires_in,
    refresh_token: refresh,
    scope: scopes.join(' '),
  };
}

/**
 * Who registers: an account, when the request carries one of its tokens (RFC 7591's initial access
 * token: an API or MCP token of the service), else the address it comes from.
 */
async function registrantOf(c: Context<AppEnv>, services: Services): Promise<Registrant> {
  const header = c.req.header('authorization');
  if (header === undefined) return { address: remoteAddress(c) };
  try {
    const pending = services.tokens.authenticate(header);
    const principal = pending instanceof Promise ? await pending : pending;
    return { accountId: principal.accountid };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new OAuthError('invalid_token', error.detail || error.message);
    }
    throw error;
  }
}

export function registerOAuth(app: OpenAPIHono<AppEnv>, services: Services, state: OAuthState): void {
  const origin = (c: Context<AppEnv>) => publicOrigin(services.config, c.req.url);
  const limit = bodyLimit({
    maxSize: OAUTH_BODY_LIMIT,
    onError: (c) => c.json(errors.payloadTooLarge(OAUTH_BODY_LIMIT).toBody(), 413),
  });

  registerOAuthMetadata(app, origin);

  // RFC 7591.
  app.post('/oauth/register', limit, async (c) => {
    try {
      const by = await registrantOf(c, services);
      let metadata: unknown;
      try {
        metadata = JSON.parse(await c.req.raw.text());
      } catch {
        throw new OAuthError('invalid_client_metadata', oauthMessages.bodyNotReadable);
      }
      return oauthJson(c, state.register(metadata, by), 201);
    } catch (error) {
      return oauthFailure(c, error);
    }
  });

  /**
   * The client, redirect and parameters of an authorization request. Every error is a page, never a
   * redirect: those about the client and redirect as RFC 6749 section 4.1.2.1 says, and the others
   * too, since registration is open and no account is known yet to vouch for the client's redirect
   * uri (OAuthState.redirectsErrorsFor).
   */
  const checkedRequest = (
    c: Context<AppEnv>,
    all: URLSearchParams,
  ): { answer: Response } | { answer: null; client: RegisteredClient; request: AuthorizationRequest } => {
    const params = single(all);
    const repeated = repeatedParameters(all);
    try {
      const found = state.clientAndRedirect(params, repeated);
      const resource = mcpResource(origin(c));
      const request = state.authorizationRequest(params, found.redirect_uri, resource, repeated);
      return { answer: null, client: found.client, request };
    } catch (error) {
      if (error instanceof OAuthError) return { answer: c.html(errorPage(error.message), 400, noStore) };
      throw error;
    }
  };

  app.get('/oauth/authorize', (c) => {
    const checked = checkedRequest(c, new URL(c.req.url).searchParams);
    if (checked.answer) return checked.answer;
    return c.html(signInPage(checked.client, checked.request), 200, noStore);
  });

  app.post('/oauth/authorize', limit, async (c) => {
    let form: URLSearchParams;
    try {
      form = await readParams(c);
    } catch (error) {
      if (error instanceof OAuthError) return c.html(errorPage(error.message), 400, noStore);
      throw error;
    }
    const fields = single(form);
    // Step 1: the sign-in, which carries the authorization request.
    if (!fields.pending) {
      const checked = checkedRequest(c, form);
      if (checked.answer) return checked.answer;
      let key: ApiKeyRecord;
      try {
        key = checkKeyCredentials(services.store.world, {
          accountId: fields.account_id ?? '',
          clientId: fields.api_client_id ?? '',
          clientSecret: fields.api_client_secret ?? '',
        });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return c.html(signInPage(checked.client, checked.request, error.message), 401, noStore);
      }
      const pending = state.startSignIn(checked.request, key.clientid);
      const allowed = new Set(grantableScopes(services.store.world, key));
      const ticked = new Set(checked.request.scope.filter((scope) => allowed.has(scope)));
      return renderConsent(c, services, state, pending, {
        search: '',
        page: 1,
        consumer: null,
        ticked,
        error: null,
      });
    }
    return answerConsent(c, services, state, form, fields);
  });

  app.post('/oauth/token', limit, async (c) => {
    try {
      const params = single(await readParams(c));
      let grant: Grant;
      if (params.grant_type === 'authorization_code') grant = state.redeemCode(params);
      else if (params.grant_type === 'refresh_token') grant = state.redeemRefresh(params);
      else throw new OAuthError('unsupported_grant_type', oauthMessages.grantTypeUnsupported);
      return oauthJson(c, await issueTokens(services, state, grant));
    } catch (error) {
      return oauthFailure(c, error);
    }
  });
}

/** The metadata of the protected resource (RFC 9728) and of the authorization server (RFC 8414). */
function registerOAuthMetadata(app: OpenAPIHono<AppEnv>, origin: (c: Context<AppEnv>) => string): void {
  // RFC 9728: the resource's metadata, at the root and suffixed with the resource's path.
  const resourceMetadata = (c: Context<AppEnv>) =>
    c.json({
      resource: mcpResource(origin(c)),
      authorization_servers: [origin(c)],
      scopes_supported: allKnownScopes(),
      bearer_methods_supported: ['header'],
      resource_name: 'unified-api-sandbox MCP server',
      resource_documentation: `${origin(c)}/docs`,
    });
  app.get(PROTECTED_RESOURCE_METADATA, resourceMetadata);
  app.get(`${PROTECTED_RESOURCE_METADATA}${MCP_PATH}`, resourceMetadata);

  // RFC 8414.
  app.get(AUTHORIZATION_SERVER_METADATA, (c) =>
    c.json({
      issuer: origin(c),
      authorization_endpoint: `${origin(c)}/oauth/authorize`,
      token_endpoint: `${origin(c)}/oauth/token`,
      registration_endpoint: `${origin(c)}/oauth/register`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: allKnownScopes(),
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${origin(c)}/docs`,
    }),
  );
}

/** Step 2 of POST /oauth/authorize: the consumer and the scopes of a signed-in user, or a denial. */
function answerConsent(
  c: Context<AppEnv>,
  services: Services,
  state: OAuthState,
  form: URLSearchParams,
  fields: Record<string, string | undefined>,
): Response | Promise<Response> {
  // Step 2: the consumer and the scopes.
  let pending: PendingAuthorization;
  try {
    pending = state.signIn(fields.pending);
  } catch (error) {
    if (error instanceof OAuthError) return c.html(errorPage(error.message), 400, noStore);
    throw error;
  }
  const { request } = pending;
  const ticked = new Set(form.getAll('scope'));
  const consumer = fields.consumer_id ?? null;
  const search = (fields.search ?? '').slice(0, 200);
  const goto = Number(fields.goto);
  if (fields.action === 'deny') {
    state.endSignIn(pending);
    const account = services.store.world.keys[pending.keyClientId]?.accountid;
    // Told to the client only when the user's account registered it; else the user reads it here.
    if (account === undefined || !state.redirectsErrorsFor(request.client_id, account)) {
      return c.html(errorPage(oauthMessages.denied), 200, noStore);
    }
    return redirectBack(c, request.redirect_uri, request.state, {
      error: 'access_denied',
      error_description: oauthMessages.denied,
    });
  }
  if (fields.action !== 'approve') {
    const page = Number.isInteger(goto) && goto > 0 ? goto : 1;
    return renderConsent(c, services, state, pending, { search, page, consumer, ticked, error: null });
  }
  const again = (error: string) =>
    renderConsent(c, services, state, pending, { search, page: 1, consumer, ticked, error });
  if (!consumer) return again(oauthMessages.noConsumer);
  if (ticked.size === 0) return again(oauthMessages.noScope);
  let key: ApiKeyRecord;
  try {
    key = keyOfSignIn(services, pending.keyClientId);
  } catch (error) {
    if (error instanceof OAuthError) return c.html(errorPage(error.message), 400, noStore);
    throw error;
  }
  const allowed = new Set(grantableScopes(services.store.world, key));
  const refused = [...ticked].find((scope) => !allowed.has(scope));
  if (refused) return again(oauthMessages.scopeNotAllowed(refused));
  let consumerid: string;
  try {
    consumerid = checkMcpConsumer(services.store.world, key, consumer).consumerid;
  } catch (error) {
    if (error instanceof ApiError) return again(error.message);
    throw error;
  }
  const code = state.issueCode(pending, consumerid, [...ticked], key.accountid);
  return redirectBack(c, request.redirect_uri, request.state, { code });
}
