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

const keyOf = (seed: number, role: string, salt?: string): KeyCredentials => ({
  clientId: token(22, 'client', seed, role, ...(salt ? [salt] : [])),
  clientSecret: token(43, 'secret', seed, role, ...(salt ? [salt] : [])),
});

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The credentials of a world of `seed`. A world created over HTTP (POST /__sandbox/worlds) has keys of
 * its own: `salt`, drawn at random when it is created and kept in its meta, enters every key, so its
 * keys select it and no one derives them from the seed. The ids (account, environments, consumers)
 * are the seed's, as its data is.
 */
export function seedCredentials(seed: number, salt?: string): SeedCredentials {
  const key = (role: string) => keyOf(seed, role, salt);
  return {
    accountId: uuidFrom('account', seed, 'main'),
    sandboxEnvId: uuidFrom('environment', seed, 'main', 'sandbox'),
    productionEnvId: uuidFrom('environment', seed, 'main', 'production'),
    sandbox: key('sandbox'),
    production: key('production'),
    restricted: { ...key('restricted'), consumerId: uuidFrom('consumer', seed, 'restricted') },
    revoked: key('revoked'),
    otherAccount: {
      ...key('other-account'),
      accountId: uuidFrom('account', seed, 'other'),
      sandboxEnvId: uuidFrom('environment', seed, 'other', 'sandbox'),
    },
  };
}

/** The credentials of a world as it holds them: its seed's, with its keys' salt when it has one. */
export const credentialsOf = (meta: { seed: number; keys_salt?: string }): SeedCredentials =>
  seedCredentials(meta.seed, meta.keys_salt);

/** The secrets of a world's API keys, as the scrubber of what is recorded looks for them (platform/scrub.ts). */
export function keySecretsOf(meta: { seed: number; keys_salt?: string }): string[] {
  const credentials = credentialsOf(meta);
  return [
    credentials.sandbox,
    credentials.production,
    credentials.restricted,
    credentials.revoked,
    credentials.otherAccount,
  ].map((key) => key.clientSecret);
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
