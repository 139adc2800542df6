import { createSecretKey, type KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { type Clock, unixSeconds } from '../lib/clock.js';
import { errors } from '../lib/errors.js';
import { own } from '../lib/own.js';
import type { Store } from '../store/store.js';
import type { ApiKeyRecord } from '../store/world.js';

/** Tokens live 30 minutes, as the service's do. */
export const TOKEN_LIFETIME_SECONDS = 30 * 60;

export interface Token {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_on: number;
}

/** Who is calling, as read from a verified token. */
export interface Principal {
  kind: 'api' | 'mcp';
  clientid: string;
  accountid: string;
  envid: string;
  /** Consumers the key is restricted to; null when it reaches the whole environment. */
  consumers: ReadonlySet<string> | null;
  /** For MCP tokens: the consumer the token is bound to and the scopes it carries. */
  mcp: { consumerid: string; scopes: readonly string[] } | null;
}

/** What a token says of itself, read without checking its signature. */
export interface UnverifiedClaims {
  sub: string;
  iat: number | undefined;
  exp: number | undefined;
  typ: unknown;
}

/**
 * The claims of a JWT, read without checking it: for what only routes or reports on a token (the
 * world it belongs to, the readiness report), never to let a request in. Null when it is not one.
 */
export function unverifiedClaims(token: string): UnverifiedClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || (parts[1]?.length ?? 0) > 4096) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    > | null;
    if (typeof claims?.sub !== 'string') return null;
    const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
    return { sub: claims.sub, iat: number(claims.iat), exp: number(claims.exp), typ: claims.typ };
  } catch {
    return null;
  }
}

interface Claims {
  sub: string;
  acc: string;
  env: string;
  typ: 'api' | 'mcp';
  cid?: string;
  scp?: string[];
  exp: number;
}

const MAX_CACHED_TOKENS = 10_000;

interface Verified {
  claims: Claims;
  principal: Principal;
}

/**
 * Mints and verifies the sandbox's JWTs (HS256). A token's signature is verified once and the
 * result cached, since the same token comes back on every request of a client; what can change
 * between two requests (the clock, a deleted key) is checked every time.
 */
export class TokenService {
  /** The signing key, made once: handing jose raw bytes makes it import a key on every call. */
  readonly #secret: KeyObject;
  readonly #clock: Clock;
  readonly #store: () => Store;
  readonly #verified = new Map<string, Verified>();

  constructor(secret: Uint8Array, clock: Clock, store: () => Store) {
    this.#secret = createSecretKey(secret);
    this.#clock = clock;
    this.#store = store;
  }

  async issue(key: ApiKeyRecord, mcp?: { consumerid: string; scopes: string[] }): Promise<Token> {
    const now = unixSeconds(this.#clock.now());
    const exp = now + TOKEN_LIFETIME_SECONDS;
    const claims: Record<string, unknown> = { acc: key.accountid, env: key.envid, typ: mcp ? 'mcp' : 'api' };
    if (mcp) {
      claims.cid = mcp.consumerid;
      claims.scp = mcp.scopes;
    }
    const access_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(key.clientid)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.#secret);
    return { access_token, token_type: 'bearer', expires_in: TOKEN_LIFETIME_SECONDS, expires_on: exp };
  }

  /**
   * Reads the Authorization header; throws the 401 ApiError for anything but a valid token. A token
   * seen before is answered without waiting (no signature check, no promise).
   */
  authenticate(authorization: string | undefined): Principal | Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) throw errors.missingToken();
    const token = match[1];
    const known = this.#verified.get(token);
    if (known) return this.#admit(known);
    return this.#verify(token).then((entry) => this.#admit(entry));
  }

  /** What may have changed since the token was verified: the clock, and the key's existence. */
  #admit({ claims, principal }: Verified): Principal {
    if (claims.exp <= unixSeconds(this.#clock.now())) throw errors.invalidToken('The token has expired');
    const key = own(this.#store().world.keys, claims.sub);
    if (!key || key.deleted_on !== null || key.accountid !== claims.acc || key.envid !== claims.env) {
      throw errors.invalidToken('The API key of this token no longer exists');
    }
    return principal;
  }

  async #verify(token: string): Promise<Verified> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.#secret, {
        algorithms: ['HS256'],
        currentDate: this.#clock.now(),
        requiredClaims: ['sub', 'exp', 'acc', 'env', 'typ'],
      }));
    } catch (error) {
      const detail =
        error instanceof joseErrors.JWTExpired ? 'The token has expired' : 'The token is not valid';
      throw errors.invalidToken(detail);
    }
    const claims = payload as unknown as Claims;
    if (typeof claims.sub !== 'string' || (claims.typ !== 'api' && claims.typ !== 'mcp')) {
      throw errors.invalidToken('The token is not valid');
    }
    const key = own(this.#store().world.keys, claims.sub);
    const principal: Principal = {
      kind: claims.typ,
      clientid: claims.sub,
      accountid: claims.acc,
      envid: claims.env,
      consumers: key?.consumers ? new Set(key.consumers) : null,
      mcp: claims.typ === 'mcp' && claims.cid ? { consumerid: claims.cid, scopes: claims.scp ?? [] } : null,
    };
    const entry = { claims, principal };
    if (this.#verified.size >= MAX_CACHED_TOKENS) this.#verified.clear();
    this.#verified.set(token, entry);
    return entry;
  }
}
