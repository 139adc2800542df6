import { timingSafeEqual } from 'node:crypto';
import { errors } from '../../lib/errors.js';
import { own } from '../../lib/own.js';
import { requireConsumer } from '../../platform/access.js';
import { readFixture } from '../../platform/catalogue.js';
import { sha256 } from '../../platform/credentials.js';
import type { Principal } from '../../platform/tokens.js';
import type { ApiKeyRecord, World } from '../../store/world.js';

export interface KeyCredentialsInput {
  clientId: string;
  clientSecret: string;
  accountId: string;
  envId?: string | null | undefined;
}

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The key these credentials name, if the combination is right and the key is not deleted. */
export function checkKeyCredentials(world: World, input: KeyCredentialsInput): ApiKeyRecord {
  const key = own(world.keys, input.clientId);
  const valid =
    key !== undefined &&
    key.deleted_on === null &&
    key.accountid === input.accountId.toLowerCase() &&
    (input.envId === undefined || input.envId === null || input.envId.toLowerCase() === key.envid) &&
    sameHex(sha256(input.clientSecret), key.secret_sha256);
  if (!valid) throw errors.invalidCredentials();
  return key;
}

let knownScopes: readonly string[] | undefined;
let knownScopeSet: ReadonlySet<string> | undefined;
/** Every scope an operation of the service declares (fixtures/mcp-scopes.json), in its order. */
export function allKnownScopes(): readonly string[] {
  knownScopes ??= Object.freeze(readFixture<{ scopes: string[] }>('mcp-scopes.json').scopes);
  return knownScopes;
}
export function isKnownScope(scope: string): boolean {
  knownScopeSet ??= new Set(allKnownScopes());
  return knownScopeSet.has(scope);
}

/**
 * The scopes an MCP token minted with this key may carry: those granted to the key ('*': any) that
 * the vendor allows on the key's environment (EnvironmentRecord.mcp_scopes; absent or '*': all).
 * null: no limit beyond the service's scopes.
 */
export function mcpScopeLimit(world: World, key: ApiKeyRecord): ReadonlySet<string> | null {
  const limits = [key.mcp_scopes, environmentScopes(world, key)].filter((scopes) => !scopes.includes('*'));
  if (limits.length === 0) return null;
  return new Set(limits.reduce((kept, scopes) => kept.filter((scope) => scopes.includes(scope))));
}

const environmentScopes = (world: World, key: ApiKeyRecord): readonly string[] =>
  own(world.environments, key.envid)?.mcp_scopes ?? ['*'];

/** The scopes the key may hand out, in the service's order (what the OAuth consent page offers). */
export function grantableScopes(world: World, key: ApiKeyRecord): string[] {
  const limit = mcpScopeLimit(world, key);
  return allKnownScopes().filter((scope) => limit === null || limit.has(scope));
}

/**
 * The scopes of a new MCP token: those asked for, each of them granted to the key (a key granted
 * '*' may hand out any scope of the service) and allowed on its environment; without a request,
 * everything the key was granted (within what the environment allows, when it limits them).
 */
export function grantScopes(
  world: World,
  key: ApiKeyRecord,
  requested: string[] | null | undefined,
): string[] {
  const limit = mcpScopeLimit(world, key);
  if (requested === undefined || requested === null) {
    return environmentScopes(world, key).includes('*') ? [...key.mcp_scopes] : [...(limit ?? [])];
  }
  const unknown = requested.filter((scope) => !isKnownScope(scope));
  if (unknown.length) throw errors.mcpScopesUnknown(unknown);
  const refused = limit === null ? [] : requested.filter((scope) => !limit.has(scope));
  if (refused.length) throw errors.mcpScopesNotGranted(refused);
  return [...new Set(requested)];
}

/** The caller an API key is, as its own API token would make it (what its consumers are, say). */
export const principalOfKey = (key: ApiKeyRecord): Principal => ({
  kind: 'api',
  clientid: key.clientid,
  accountid: key.accountid,
  envid: key.envid,
  consumers: key.consumers ? new Set(key.consumers) : null,
  mcp: null,
});

/** The consumer must be one the key itself reaches. */
export function checkMcpConsumer(world: World, key: ApiKeyRecord, consumerId: string) {
  return requireConsumer(world, principalOfKey(key), consumerId);
}
