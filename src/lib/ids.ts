import { createHmac, hash } from 'node:crypto';

/**
 * Deterministic identifiers: the n-th id minted for a seed is always the same uuid, so the same seed
 * and the same requests give the same ids. The counter lives in the stored world, so a world reopened
 * from its file goes on where it stopped instead of minting ids it already used.
 */
export function uuidFrom(...parts: (string | number)[]): string {
  // The one-shot digest: a generated dataset mints thousands of ids, at half the cost of a Hash object.
  return uuidOf(hash('sha256', parts.join(':'), 'hex'));
}

/** A digest shaped as a version 4, variant 1 uuid, so that strict uuid validators accept it. */
function uuidOf(hex: string): string {
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

export interface IdSource {
  next(kind: string): string;
}

/**
 * Kinds whose id alone grants access: a connection link's page needs no token and completes the
 * connection, so anyone who can compute a link id (the seed is public, the counter is small) could
 * take over another account's connection.
 */
const CAPABILITY_KINDS: ReadonlySet<string> = new Set(['link']);

/**
 * Mints ids from the seed and a counter held by `sequence`. Ids of a capability kind are the
 * deterministic id keyed with `secret` (an HMAC), a secret only this process holds: they still use
 * one step of the counter, so every other id stays the same for the same seed and requests.
 */
export function seededIds(seed: number, sequence: { value: number }, secret: Uint8Array): IdSource {
  return {
    next(kind) {
      sequence.value += 1;
      const id = uuidFrom('id', seed, kind, sequence.value);
      return CAPABILITY_KINDS.has(kind) ? uuidOf(createHmac('sha256', secret).update(id).digest('hex')) : id;
    },
  };
}
