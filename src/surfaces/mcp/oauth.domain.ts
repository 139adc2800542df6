import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { BoundedMap } from '../../lib/bounded-map.js';
import type { Clock } from '../../lib/clock.js';
import { messages } from '../../lib/errors.js';
import type { WorldQuota } from '../../store/store.js';
import { OAuthError, oauthMessages } from './oauth.errors.js';

export { OAuthError, type OAuthErrorCode, oauthMessages } from './oauth.errors.js';

/**
 * The OAuth 2.0 authorization server of the MCP server, as a real MCP client walks it: dynamic
 * client registration (RFC 7591), the authorization code grant with PKCE S256 (RFC 7636), refresh
 * tokens. What it holds (registered clients, sign-ins under way, codes, refresh tokens) is state of
 * the app, in memory and bounded, never part of the world (the clients count toward its bytes, 413
 * past them): a restart forgets it, and a client registers again (as MCP clients do when their
 * client id is refused).
 *
 * Registered clients are kept in pools, each bounded on its own: the anonymous registrations of one
 * address, and the clients of one account (registered with its token, or signed in through). A pool
 * makes room among its own clients only, and never by forgetting a client in use (used recently, or
 * holding live codes or tokens): anonymous churn cannot push out a client someone signed in with.
 *
 * Errors are the OAuth protocol's own (oauth.errors.ts; {error, error_description}, RFC 6749 section
 * 5.2): MCP clients
 * read those fields, not the service's envelope.
 */

export interface RegisteredClient {
  client_id: string;
  client_name: string | null;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  client_id_issued_at: number;
  scope?: string;
}

/** What the client asked for at the authorization endpoint, checked. */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  scope: string[];
  resource: string | null;
}

/** A sign-in under way: the user proved an API key, and is picking a consumer and scopes. */
export interface PendingAuthorization {
  id: string;
  request: AuthorizationRequest;
  /** The API key the user signed in with (its clientid). */
  keyClientId: string;
  expiresAt: number;
}

/** What a code or a refresh token grants: an MCP token of this key, consumer and scopes. */
export interface Grant {
  client_id: string;
  keyClientId: string;
  consumerid: string;
  scopes: string[];
}

interface AuthorizationCode extends Grant {
  redirect_uri: string;
  code_challenge: string;
  expiresAt: number;
}

interface RefreshGrant extends Grant {
  expiresAt: number;
}

/** Lifetimes, in sandbox seconds. */
export const SIGN_IN_LIFETIME_SECONDS = 10 * 60;
export const CODE_LIFETIME_SECONDS = 5 * 60;
export const REFRESH_LIFETIME_SECONDS = 24 * 60 * 60;

/** Anonymous registrations one address holds: past it, its least recently used client not in use goes. */
export const MAX_ANONYMOUS_CLIENTS_PER_ADDRESS = 100;
/** Anonymous registrations of every address together: past it, the long idle ones are forgotten, if any. */
export const MAX_ANONYMOUS_CLIENTS = 10_000;
/** Clients one account holds: past it, its least recently used client not in use goes. */
export const MAX_CLIENTS_PER_ACCOUNT = 1000;
/** A client used this recently (an authorization request, a sign-in, a token exchange) is in use. */
export const RECENT_USE_SECONDS = SIGN_IN_LIFETIME_SECONDS;
/** An anonymous registration unused this long may be forgotten once the anonymous registrations are full. */
export const ANONYMOUS_IDLE_SECONDS = 24 * 60 * 60;

/** Who registers a client: an address (an anonymous registration), or an account (with its token). */
export type Registrant = { address: string } | { accountId: string };

/** A registered client and what its pool needs to know of it. */
interface ClientEntry {
  client: RegisteredClient;
  /** `address:<ip>` for an anonymous registration, `account:<id>` for a client of an account. */
  pool: string;
  /** The account whose token registered it (null: anonymous); a sign-in through it changes nothing. */
  registeredBy: string | null;
  /** When it was registered or last used (sandbox ms). */
  touchedAt: number;
  /** When it was last used (sandbox ms; 0: never). */
  usedAt: number;
  /** Until when codes and tokens issued to it live (sandbox ms). */
  liveUntil: number;
}

/** What a registered client's entries cost in memory beyond its metadata as JSON. */
export const CLIENT_OVERHEAD_BYTES = 1024;
/** What a registered client counts in the world's bytes. */
const clientBytes = (client: RegisteredClient) => CLIENT_OVERHEAD_BYTES + JSON.stringify(client).length;

const ANONYMOUS = 'address:';
const addressPool = (address: string) => `${ANONYMOUS}${address}`;
const accountPool = (accountId: string) => `account:${accountId}`;
const isAnonymous = (pool: string) => pool.startsWith(ANONYMOUS);

/** The parameters of an authorization request: each may be given once (RFC 6749 section 3.1). */
export const AUTHORIZATION_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'resource',
] as const;

/** How many of each the app keeps: past it, the oldest goes. */
const MAX_PENDING = 1000;
const MAX_CODES = 1000;
const MAX_REFRESH = 10_000;
const MAX_ISSUED = 10_000;

const MAX_REDIRECT_URIS = 10;
const MAX_FIELD_LENGTH = 2048;

const secret = () => randomBytes(32).toString('base64url');

/** Schemes a redirect may never use: they run or read something in the user's agent. */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect uri a client may register and be sent to: https, http on a loopback host only (RFC 8252,
 * and the MCP authorization rules), or a private-use scheme of a native app (`cursor://...`);
 * absolute, without a fragment or user information, and written as the parser reads it (`https:/x`
 * or `https:x` would be read as another host by some agents).
 */
export function isAllowedRedirectUri(value: string): boolean {
  if (value.length === 0 || value.length > MAX_FIELD_LENGTH || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash !== '' || value.includes('#')) return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    if (!value.startsWith(`${url.protocol}//`)) return false;
    return url.protocol === 'https:' ? url.hostname.length > 0 : LOOPBACK_HOSTS.has(url.hostname);
  }
  return !UNSAFE_SCHEMES.has(url.protocol) && /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol);
}

const stringList = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((item) => typeof item === 'string' && item.length <= MAX_FIELD_LENGTH)
    ? (value as string[])
    : null;

/** PKCE S256: base64url(sha256(verifier)) (RFC 7636 section 4.6). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** RFC 7636: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const PKCE_TEXT = /^[A-Za-z0-9\-._~]{43,128}$/;

export class OAuthState {
  readonly #clients = new Map<string, ClientEntry>();
  /** Each pool's clients, least recently used first. */
  readonly #pools = new Map<string, Map<string, ClientEntry>>();
  #anonymousCount = 0;
  readonly #pending = new BoundedMap<string, PendingAuthorization>(MAX_PENDING);
  readonly #codes = new BoundedMap<string, AuthorizationCode>(MAX_CODES);
  readonly #refresh = new BoundedMap<string, RefreshGrant>(MAX_REFRESH);
  /** The OAuth client each access token of the token endpoint was issued to (for the session list). */
  readonly #issued = new BoundedMap<string, { client_id: string; client_name: string | null }>(MAX_ISSUED);

  /** What the registered clients weigh (clientBytes), counted in the world's bytes given a `quota`. */
  #clientBytes = 0;

  constructor(
    readonly clock: Clock,
    readonly quota: WorldQuota | null = null,
  ) {
    quota?.holdOutside(() => this.#clientBytes);
  }

  #now(): number {
    return this.clock.now().getTime();
  }

  /** The registered client of this id. */
  client(clientId: string | undefined): RegisteredClient | undefined {
    return clientId === undefined ? undefined : this.#clients.get(clientId)?.client;
  }

  /**
   * Whether an error may go back to the client's redirect uri for a user of this account: only when
   * that account registered the client. Registration is open, so a redirect uri alone vouches for
   * nothing: anyone may register `https://evil.example/` and send a link to the authorization page.
   */
  redirectsErrorsFor(clientId: string, accountId: string): boolean {
    return this.#clients.get(clientId)?.registeredBy === accountId;
  }

  /** Until when nothing may take the client's place: recent use, live codes and tokens. */
  #inUseUntil(entry: ClientEntry): number {
    return Math.max(entry.usedAt === 0 ? 0 : entry.usedAt + RECENT_USE_SECONDS * 1000, entry.liveUntil);
  }

  #put(entry: ClientEntry): void {
    let members = this.#pools.get(entry.pool);
    if (!members) {
      members = new Map();
      this.#pools.set(entry.pool, members);
    }
    members.set(entry.client.client_id, entry);
    this.#clients.set(entry.client.client_id, entry);
    this.#clientBytes += clientBytes(entry.client);
    if (isAnonymous(entry.pool)) this.#anonymousCount += 1;
  }

  #forget(entry: ClientEntry): void {
    const members = this.#pools.get(entry.pool);
    members?.delete(entry.client.client_id);
    if (members?.size === 0) this.#pools.delete(entry.pool);
    this.#clients.delete(entry.client.client_id);
    this.#clientBytes -= clientBytes(entry.client);
    if (isAnonymous(entry.pool)) this.#anonymousCount -= 1;
  }

  /** A use of the client: it is in use for a while, and the most recently used of its pool. */
  #use(clientId: string, liveUntil = 0): void {
    const entry = this.#clients.get(clientId);
    if (!entry) return;
    const now = this.#now();
    entry.usedAt = now;
    entry.touchedAt = now;
    entry.liveUntil = Math.max(entry.liveUntil, liveUntil);
    const members = this.#pools.get(entry.pool);
    members?.delete(clientId);
    members?.set(clientId, entry);
  }

  /**
   * Room for one more client in the pool, taken from the pool itself: its least recently used client
   * that is not in use goes. With none, a registration is refused (`force`: a client that signed in
   * joins its account even so, in place of the account's least recently used).
   */
  #makeRoom(pool: string, force: boolean): void {
    const anonymous = isAnonymous(pool);
    const limit = anonymous ? MAX_ANONYMOUS_CLIENTS_PER_ADDRESS : MAX_CLIENTS_PER_ACCOUNT;
    const now = this.#now();
    if (anonymous && this.#anonymousCount >= MAX_ANONYMOUS_CLIENTS) this.#forgetIdleAnonymous(now);
    const size = () => this.#pools.get(pool)?.size ?? 0;
    const full = () => size() >= limit || (anonymous && this.#anonymousCount >= MAX_ANONYMOUS_CLIENTS);
    if (!full()) return;
    const entries = [...(this.#pools.get(pool)?.values() ?? [])];
    const spare = entries.find((entry) => this.#inUseUntil(entry) <= now) ?? (force ? entries[0] : undefined);
    if (spare) this.#forget(spare);
    if (!full()) return;
    if (size() < limit) {
      throw new OAuthError(
        'temporarily_unavailable',
        oauthMessages.anonymousRegistrationsFull(MAX_ANONYMOUS_CLIENTS),
        429,
        RECENT_USE_SECONDS,
      );
    }
    const freed = Math.min(...entries.map((entry) => this.#inUseUntil(entry)));
    const message = anonymous
      ? oauthMessages.tooManyRegistrations(limit)
      : oauthMessages.accountClientsFull(limit);
    throw new OAuthError(
      'temporarily_unavailable',
      message,
      429,
      Math.max(1, Math.ceil((freed - now) / 1000)),
    );
  }

  /** Forgets the anonymous registrations not in use and untouched for ANONYMOUS_IDLE_SECONDS. */
  #forgetIdleAnonymous(now: number): void {
    for (const entry of [...this.#clients.values()]) {
      if (!isAnonymous(entry.pool) || this.#inUseUntil(entry) > now) continue;
      if (entry.touchedAt + ANONYMOUS_IDLE_SECONDS * 1000 <= now) this.#forget(entry);
    }
  }

  /** The client joins the account's pool (an account signed in through it), if not there yet. */
  #joinAccount(clientId: string, accountId: string): void {
    const entry = this.#clients.get(clientId);
    const pool = accountPool(accountId);
    if (!entry || entry.pool === pool) return;
    this.#forget(entry);
    this.#makeRoom(pool, true);
    this.#put({ ...entry, pool });
  }

  /**
   * RFC 7591: registers a public client (PKCE, no secret) with the redirect uris it gives, in the
   * registrant's pool (refused with `temporarily_unavailable` when every client there is in use).
   */
  register(metadata: unknown, registrant: Registrant): RegisteredClient {
    const input = (metadata ?? {}) as Record<string, unknown>;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      throw new OAuthError('invalid_client_metadata', oauthMessages.bodyNotReadable);
    }
    const uris = stringList(input.redirect_uris);
    if (!uris || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
      throw new OAuthError('invalid_redirect_uri', oauthMessages.redirectUrisMissing);
    }
    for (const uri of uris) {
      if (!isAllowedRedirectUri(uri))
        throw new OAuthError('invalid_redirect_uri', oauthMessages.redirectUriInvalid(uri));
    }
    const name = input.client_name;
    if (name !== undefined && (typeof name !== 'string' || name.length > 200)) {
      throw new OAuthError('invalid_client_metadata', oauthMessages.metadataInvalid('client_name'));
    }
    const grantTypes =
      input.grant_types === undefined ? ['authorization_code'] : stringList(input.grant_types);
    if (!grantTypes?.includes('authorization_code')) {
      throw new OAuthError('invalid_client_metadata', oauthMessages.metadataInvalid('grant_types'));
    }
    const responseTypes = input.response_types === undefined ? ['code'] : stringList(input.response_types);
    if (!responseTypes?.includes('code')) {
      throw new OAuthError('invalid_client_metadata', oauthMessages.metadataInvalid('response_types'));
    }
    const scope = typeof input.scope === 'string' && input.scope.length <= 16_384 ? input.scope : undefined;
    const client: RegisteredClient = {
      client_id: randomUUID(),
      client_name: typeof name === 'string' ? name : null,
      redirect_uris: [...new Set(uris)],
      grant_types: grantTypes.filter((type) => type === 'authorization_code' || type === 'refresh_token'),
      response_types: ['code'],
      // Every client is public: it proves itself with PKCE, whatever method it asked for.
      token_endpoint_auth_method: 'none',
      client_id_issued_at: Math.floor(this.#now() / 1000),
      ...(scope === undefined ? {} : { scope }),
    };
    const pool =
      'accountId' in registrant ? accountPool(registrant.accountId) : addressPool(registrant.address);
    this.#makeRoom(pool, false);
    const full = this.quota?.refusal(clientBytes(client));
    if (full) throw new OAuthError('temporarily_unavailable', messages.worldFull(full.used, full.limit), 413);
    const registeredBy = 'accountId' in registrant ? registrant.accountId : null;
    this.#put({ client, pool, registeredBy, touchedAt: this.#now(), usedAt: 0, liveUntil: 0 });
    return client;
  }

  /**
   * The registered client and redirect uri of a request; the errors that must not redirect (RFC 6749
   * section 4.1.2.1): a client id missing, repeated or unknown, a redirect uri missing, repeated, or
   * not exactly one the client registered (and still allowed). None is assumed, even for a client of
   * one redirect uri. `repeated`: the parameters given more than once.
   */
  clientAndRedirect(
    params: Record<string, string | undefined>,
    repeated: ReadonlySet<string> = new Set(),
  ): {
    client: RegisteredClient;
    redirect_uri: string;
  } {
    if (repeated.has('client_id')) {
      throw new OAuthError('invalid_request', oauthMessages.parameterRepeated('client_id'));
    }
    const client = this.client(params.client_id || undefined);
    if (!client) throw new OAuthError('invalid_client', oauthMessages.clientUnknown);
    if (repeated.has('redirect_uri')) {
      throw new OAuthError('invalid_request', oauthMessages.parameterRepeated('redirect_uri'));
    }
    const redirect_uri = params.redirect_uri;
    if (!redirect_uri) throw new OAuthError('invalid_request', oauthMessages.redirectUriRequired);
    if (!client.redirect_uris.includes(redirect_uri) || !isAllowedRedirectUri(redirect_uri)) {
      throw new OAuthError('invalid_request', oauthMessages.redirectUriUnregistered);
    }
    this.#use(client.client_id);
    return { client, redirect_uri };
  }

  /**
   * The authorization request, checked once the client and redirect are known. Its errors are shown
   * as a page too: before the user signs in no account is known, so none may vouch for the client
   * (see redirectsErrorsFor).
   */
  authorizationRequest(
    params: Record<string, string | undefined>,
    redirect_uri: string,
    resourceUrl: string,
    repeated: ReadonlySet<string> = new Set(),
  ): AuthorizationRequest {
    const twice = AUTHORIZATION_PARAMETERS.find((name) => repeated.has(name));
    if (twice) throw new OAuthError('invalid_request', oauthMessages.parameterRepeated(twice));
    if (params.response_type !== 'code') {
      throw new OAuthError('unsupported_response_type', oauthMessages.responseTypeUnsupported);
    }
    const challenge = params.code_challenge ?? '';
    if (params.code_challenge_method !== 'S256' || !PKCE_TEXT.test(challenge)) {
      throw new OAuthError('invalid_request', oauthMessages.pkceRequired);
    }
    const resource = params.resource || null;
    if (resource !== null && resource.replace(/\/$/, '') !== resourceUrl) {
      throw new OAuthError('invalid_target', oauthMessages.resourceInvalid(resource));
    }
    return {
      client_id: params.client_id as string,
      redirect_uri,
      state: params.state ?? null,
      code_challenge: challenge,
      scope: (params.scope ?? '').split(' ').filter(Boolean).slice(0, 1000),
      resource,
    };
  }

  startSignIn(request: AuthorizationRequest, keyClientId: string): PendingAuthorization {
    const pending: PendingAuthorization = {
      id: secret(),
      request,
      keyClientId,
      expiresAt: this.#now() + SIGN_IN_LIFETIME_SECONDS * 1000,
    };
    this.#use(request.client_id);
    this.#pending.set(pending.id, pending);
    return pending;
  }

  signIn(id: string | undefined): PendingAuthorization {
    const pending = id ? this.#pending.get(id) : undefined;
    if (!pending || pending.expiresAt <= this.#now()) {
      if (id) this.#pending.delete(id);
      throw new OAuthError('access_denied', oauthMessages.signInExpired);
    }
    return pending;
  }

  /**
   * Ends a sign-in with a code for the client (single use, short-lived); the client is now one of the
   * account's, out of the anonymous registrations' reach.
   */
  issueCode(pending: PendingAuthorization, consumerid: string, scopes: string[], accountId: string): string {
    this.#pending.delete(pending.id);
    const expiresAt = this.#now() + CODE_LIFETIME_SECONDS * 1000;
    this.#joinAccount(pending.request.client_id, accountId);
    this.#use(pending.request.client_id, expiresAt);
    const code = secret();
    this.#codes.set(code, {
      client_id: pending.request.client_id,
      keyClientId: pending.keyClientId,
      consumerid,
      scopes,
      redirect_uri: pending.request.redirect_uri,
      code_challenge: pending.request.code_challenge,
      expiresAt,
    });
    return code;
  }

  endSignIn(pending: PendingAuthorization): void {
    this.#pending.delete(pending.id);
  }

  /** The grant of an authorization code, which is spent whatever the outcome. */
  redeemCode(params: Record<string, string | undefined>): Grant {
    for (const field of ['code', 'client_id', 'code_verifier'] as const) {
      if (!params[field]) throw new OAuthError('invalid_request', oauthMessages.fieldMissing(field));
    }
    const code = params.code as string;
    const found = this.#codes.get(code);
    this.#codes.delete(code);
    if (!found || found.expiresAt <= this.#now())
      throw new OAuthError('invalid_grant', oauthMessages.codeInvalid);
    if (!this.#clients.has(found.client_id))
      throw new OAuthError('invalid_client', oauthMessages.clientUnknown);
    if (found.client_id !== params.client_id)
      throw new OAuthError('invalid_grant', oauthMessages.clientMismatch);
    if (params.redirect_uri !== undefined && params.redirect_uri !== found.redirect_uri) {
      throw new OAuthError('invalid_grant', oauthMessages.redirectUriMismatch);
    }
    const verifier = params.code_verifier as string;
    if (!PKCE_TEXT.test(verifier) || !sameText(pkceChallenge(verifier), found.code_challenge)) {
      throw new OAuthError('invalid_grant', oauthMessages.verifierMismatch);
    }
    this.#use(found.client_id);
    const { client_id, keyClientId, consumerid, scopes } = found;
    return { client_id, keyClientId, consumerid, scopes };
  }

  /** The grant of a refresh token, which is spent (rotated) whatever the outcome. */
  redeemRefresh(params: Record<string, string | undefined>): Grant {
    for (const field of ['refresh_token', 'client_id'] as const) {
      if (!params[field]) throw new OAuthError('invalid_request', oauthMessages.fieldMissing(field));
    }
    const token = params.refresh_token as string;
    const found = this.#refresh.get(token);
    this.#refresh.delete(token);
    if (!found || found.expiresAt <= this.#now())
      throw new OAuthError('invalid_grant', oauthMessages.refreshInvalid);
    if (found.client_id !== params.client_id)
      throw new OAuthError('invalid_grant', oauthMessages.clientMismatch);
    this.#use(found.client_id);
    const { client_id, keyClientId, consumerid, scopes } = found;
    return { client_id, keyClientId, consumerid, scopes };
  }

  /** A new refresh token for the grant, and the access token remembered as the client's. */
  issued(grant: Grant, accessToken: string): string {
    const client = this.client(grant.client_id);
    this.#issued.set(accessToken, { client_id: grant.client_id, client_name: client?.client_name ?? null });
    const token = secret();
    const expiresAt = this.#now() + REFRESH_LIFETIME_SECONDS * 1000;
    this.#refresh.set(token, { ...grant, expiresAt });
    this.#use(grant.client_id, expiresAt);
    return token;
  }

  /** The OAuth client an access token was issued to by the token endpoint, if any. */
  clientOfToken(accessToken: string): { client_id: string; client_name: string | null } | null {
    return this.#issued.get(accessToken) ?? null;
  }
}
