import { createHash } from 'node:crypto';
import { uuidFrom } from '../lib/ids.js';

/**
 * The seeded account's identifiers and API keys, derived from the seed alone: `env --seed 7` prints
 * the same values as the world `serve --seed 7` holds, without opening it. The world stores only
 * the sha256 of each secret.
 */
export interface KeyCredentials {
  clientId: string;
  clientSecret: string;
}

export interface SeedCredentials {
  accountId: string;
  sandboxEnvId: string;
  productionEnvId: string;
  sandbox: KeyCredentials;
  production: KeyCredentials;
  /** A sandbox key restricted to one consumer. */
  restricted: KeyCredentials & { consumerId: string };
  /** A sandbox key that was deleted: the token exchange refuses it. */
  revoked: KeyCredentials;
  /** A second vendor account, so that isolation between accounts can be tested. */
  otherAccount: KeyCredentials & { accountId: string; sandboxEnvId: string };
}

const token = (length: number, ...parts: (string | number)[]) =>
  createHash('sha256').update(parts.join(':')).digest('base64url').slice(0, length);

const key = (seed: number, role: string): KeyCredentials => ({
  clientId: token(22, 'client', seed, role),
  clientSecret: token(43, 'secret', seed, role),
});

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function seedCredentials(seed: number): SeedCredentials {
  return {
    accountId: uuidFrom('account', seed, 'main'),
    sandboxEnvId: uuidFrom('environment', seed, 'main', 'sandbox'),
    productionEnvId: uuidFrom('environment', seed, 'main', 'production'),
    sandbox: key(seed, 'sandbox'),
    production: key(seed, 'production'),
    restricted: { ...key(seed, 'restricted'), consumerId: uuidFrom('consumer', seed, 'restricted') },
    revoked: key(seed, 'revoked'),
    otherAccount: {
      ...key(seed, 'other-account'),
      accountId: uuidFrom('account', seed, 'other'),
      sandboxEnvId: uuidFrom('environment', seed, 'other', 'sandbox'),
    },
  };
}

/** The JWT signing secret of a seeded world: tokens of one seed are forged for any other. */
export const jwtSecret = (seed: number | string) => createHash('sha256').update(`jwt:${seed}`).digest();

/**
 * The seeded world's well-known ids the platform groups' seeders place their records on (the
 * control's seedDirectory gives them all; see control/seeded-world.ts).
 */
export interface SeededIds extends SeedCredentials {
  /** The consumer of each vertical's showcase, by its env name (ACCOUNTING, POS...). */
  verticalConsumers: Record<string, string>;
  syncConsumerId: string;
  otherAccountConsumerId: string;
  syncId: string;
}
