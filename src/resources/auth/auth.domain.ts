import { timingSafeEqual } from 'node:crypto';
import { errors } from '../../lib/errors.js';
import type { Principal } from '../../lib/tokens.js';
import { readFixture } from '../../seed/catalogue.js';
import { sha256 } from '../../seed/credentials.js';
import type { ApiKeyRecord, World } from '../../store/world.js';
import { requireConsumer } from '../consumers/consumers.domain.js';

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
  const key = Object.hasOwn(world.keys, input.clientId) ? world.keys[input.clientId] : undefined;
  const valid =
    key !== undefined &&
    key.deleted_on === null &&
    key.accountid === input.accountId.toLowerCase() &&
    (input.envId === undefined || input.envId === null || input.envId.toLowerCase() === key.envid) &&
    sameHex(sha256(input.clientSecret), key.secret_sha256);
  if (!valid) throw errors.invalidCredentials();
  return key;
}

let knownScopes: ReadonlySet<string> | undefined;
export function isKnownScope(scope: string): boolean {
  knownScopes ??= new Set(readFixture<{ scopes: string[] }>('mcp-scopes.json').scopes);
  return knownScopes.has(scope);
}

/**
 * The scopes of a new MCP token: those asked for, each of them granted to the key (a key granted
 * '*' may hand out any scope of the service); without a request, everything the key was granted.
 */
export function grantScopes(key: ApiKeyRecord, requested: string[] | null | undefined): string[] {
  if (requested === undefined || requested === null) return [...key.mcp_scopes];
  const unknown = requested.filter((scope) => !isKnownScope(scope));
  if (unknown.length) throw errors.mcpScopesUnknown(unknown);
  const granted = new Set(key.mcp_scopes);
  const refused = granted.has('*') ? [] : requested.filter((scope) => !granted.has(scope));
  if (refused.length) throw errors.mcpScopesNotGranted(refused);
  return [...new Set(requested)];
}

/** The consumer must be one the key itself reaches. */
export function checkMcpConsumer(world: World, key: ApiKeyRecord, consumerId: string) {
  const principal: Principal = {
    kind: 'api',
    clientid: key.clientid,
    accountid: key.accountid,
    envid: key.envid,
    consumers: key.consumers ? new Set(key.consumers) : null,
    mcp: null,
  };
  return requireConsumer(world, principal, consumerId);
}
