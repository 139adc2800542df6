import { isDeepStrictEqual } from 'node:util';
import { uuidFrom } from '../lib/ids.js';
import { type Faker, seededFaker } from '../platform/seeding/fakers.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';
import { putConnection, putConsumer, startIndexes } from '../store/indexes.js';
import { type Materializers, Store } from '../store/store.js';
import {
  type ApiKeyRecord,
  type ConnectionRecord,
  type ConsumerRecord,
  emptyWorld,
  type World,
  type WorldSize,
} from '../store/world.js';
import { VERTICALS } from '../verticals.js';

export { emptyWorld };

import { seedDatastores } from '../modules/datastores/index.js';
import { seedAutomation } from '../modules/syncs/index.js';
import {
  type ApiName,
  type Catalogue,
  loadCatalogue,
  placeholderPostConnection,
} from '../platform/catalogue.js';
import { type KeyCredentials, seedCredentials, sha256 } from '../platform/credentials.js';
import { upgradeToOrigin } from '../platform/datasets.js';

/**
 * The seeded world: the same seed always builds the same world. Showcase consumers (one per vertical
 * with an active connection, a restricted one, pending and retired connections) have ids derived
 * from the seed and their role; the crowd around them comes from faker with the seed.
 */

export const ALL_MCP_SCOPES = ['*'];

/** The world's clock starts from here: seeded records are dated before it. */
const SEED_EPOCH = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * The showcase consumer of each vertical of src/verticals.ts, as its descriptor names it, in the
 * order of their One API codes (the order they are seeded in: the first three have production
 * twins, the first two twins in the other account).
 */
export const VERTICAL_SHOWCASE: readonly {
  key: string;
  envName: string;
  api: ApiName;
  integrationid: number;
}[] = [...VERTICALS]
  .sort((a, b) => a.code - b.code)
  .map(({ key, envName, api, showcase }) => ({ key, envName, api, integrationid: showcase }));

/** The custom connector of the seeded custom consumer: the catalogue's only Custom integration. */
export const CUSTOM_SHOWCASE_INTEGRATION = 90901;

export const LARGE_WORLD_CONSUMERS = 100_000;

class WorldBuilder {
  readonly world: World;
  readonly faker: Faker;
  readonly catalogue: Catalogue;
  readonly seed: number;
  #dayOffset = 0;

  constructor(seed: number, size: WorldSize, collections: readonly string[]) {
    this.seed = seed;
    this.world = emptyWorld(seed, size, collections);
    // Index as records are added, rather than scanning 100,000 of them at the first lookup.
    startIndexes(this.world);
    this.faker = seededFaker('en', seed);
    this.catalogue = loadCatalogue();
  }

  /** Dates walk forward from a year before the epoch, so seeded records have an order. */
  date(): string {
    this.#dayOffset += 1;
    const minutes = this.faker.number.int({ min: 0, max: 24 * 60 - 1 });
    return new Date(
      SEED_EPOCH - 365 * 86_400_000 + (this.#dayOffset % 360) * 86_400_000 + minutes * 60_000,
    ).toISOString();
  }

  account(accountid: string, name: string) {
    this.world.accounts[accountid] = { accountid, name };
  }

  environment(envid: string, accountid: string, kind: 'sandbox' | 'production') {
    this.world.environments[envid] = {
      envid,
      accountid,
      kind,
      name: kind === 'sandbox' ? 'Sandbox' : 'Production',
      mcp_scopes: [...ALL_MCP_SCOPES],
    };
  }

  key(
    credentials: KeyCredentials,
    accountid: string,
    envid: string,
    name: string,
    extra: Partial<ApiKeyRecord> = {},
  ) {
    this.world.keys[credentials.clientId] = {
      clientid: credentials.clientId,
      accountid,
      envid,
      name,
      secret_sha256: sha256(credentials.clientSecret),
      consumers: null,
      mcp_scopes: ALL_MCP_SCOPES,
      created_on: this.date(),
      deleted_on: null,
      ...extra,
    };
  }

  consumer(consumerid: string, accountid: string, envid: string, name?: string): ConsumerRecord {
    const company = name ?? this.faker.company.name();
    const slug = company
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const record: ConsumerRecord = {
      consumerid,
      accountid,
      envid,
      name: company,
      email: this.faker.datatype.boolean(0.8) ? `finance@${slug || 'example'}.example` : null,
      internal_reference: this.faker.datatype.boolean(0.7)
        ? `CUST-${this.faker.number.int({ min: 1000, max: 99999 })}`
        : null,
      redirect_url: this.faker.datatype.boolean(0.5) ? `https://app.vendor.example/return/${slug}` : null,
      created_on: this.date(),
    };
    putConsumer(this.world, record);
    return record;
  }

  connection(
    consumerid: string,
    integrationid: number,
    status: 'active' | 'inactive',
    connectionid = uuidFrom('connection', this.seed, consumerid, integrationid),
  ): ConnectionRecord {
    const integration = this.catalogue.get(integrationid);
    if (!integration) throw new Error(`seed: unknown integration ${integrationid}`);
    const created = this.date();
    const record: ConnectionRecord = {
      connectionid,
      consumerid,
      integrationid,
      name: integration.name,
      status,
      credentials:
        status === 'active'
          ? Object.fromEntries(
              integration.credentials
                .filter((c) => !c.optional && c.visibility !== 'connector')
                .map((c) => [c.name, `sandbox-${c.name}`]),
            )
          : {},
      post_connections:
        status === 'active'
          ? Object.fromEntries(
              integration.post_connections
                .filter((p) => !p.optional)
                .map((p) => [p.id, placeholderPostConnection(p)]),
            )
          : {},
      datetimes: {},
      data: null,
      created_on: created,
      updated_on: created,
    };
    putConnection(this.world, record);
    return record;
  }

  /** A consumer of the crowd, with zero, one or two connections. */
  crowdConsumer(accountid: string, envid: string, activeIntegrations: number[]) {
    // Ids of the crowd come from the seeded faker: hashing 200,000 ids costs a third of a second of
    // the large world's start.
    const consumer = this.consumer(this.faker.string.uuid(), accountid, envid);
    const count = this.faker.helpers.weightedArrayElement([
      { weight: 2, value: 0 },
      { weight: 6, value: 1 },
      { weight: 2, value: 2 },
    ]);
    const picked = this.faker.helpers.arrayElements(activeIntegrations, count);
    for (const integrationid of picked) {
      this.connection(
        consumer.consumerid,
        integrationid,
        this.faker.datatype.boolean(0.85) ? 'active' : 'inactive',
        this.faker.string.uuid(),
      );
    }
  }
}

/**
 * The seeded world of `seed` and `size`: a new world of its own, which the caller may change at
 * will. The default world is built once per seed and process and kept (SNAPSHOTS); every call answers
 * a copy of it (~0.2 ms, against ~3 ms warm and ~20 ms cold to build it), so that creating
 * an app or resetting one costs almost nothing. The large world is built each time: its clone costs
 * more than half of building it (~1.5 s against ~2.9 s) and a kept copy ~140 MiB.
 */
export function seedWorld(
  seed: number,
  size: WorldSize = 'default',
  verticals: readonly AnyVerticalModule[] = VERTICALS,
  keysSalt?: string,
): World {
  const collections = verticals.map((module) => module.collection);
  let world: World;
  if (size !== 'default') world = buildWorld(seed, size, collections);
  else {
    const key = `${seed}:${collections.join(',')}`;
    let snapshot = SNAPSHOTS.get(key);
    if (!snapshot) {
      snapshot = snapshotOf(buildWorld(seed, size, collections));
      // Bounded: worlds created over HTTP may each name a seed of their own.
      if (SNAPSHOTS.size >= MAX_SNAPSHOTS) SNAPSHOTS.delete(SNAPSHOTS.keys().next().value as string);
      SNAPSHOTS.set(key, snapshot);
    }
    world = typeof snapshot === 'string' ? (JSON.parse(snapshot) as World) : structuredClone(snapshot);
  }
  return keysSalt ? withOwnKeys(world, keysSalt) : world;
}

/**
 * The seeded world with API keys of its own (a world created over HTTP): each seeded key is moved to
 * the client id of the salted credentials, with the hash of its salted secret; nothing else changes.
 */
function withOwnKeys(world: World, salt: string): World {
  const seeded = seedCredentials(world.meta.seed);
  const own = seedCredentials(world.meta.seed, salt);
  const roles = ['sandbox', 'production', 'restricted', 'revoked', 'otherAccount'] as const;
  const keys: World['keys'] = {};
  for (const [clientid, record] of Object.entries(world.keys)) {
    const role = roles.find((name) => seeded[name].clientId === clientid);
    if (!role) {
      keys[clientid] = record;
      continue;
    }
    const { clientId, clientSecret } = own[role];
    keys[clientId] = { ...record, clientid: clientId, secret_sha256: sha256(clientSecret) };
  }
  world.keys = keys;
  world.meta.keys_salt = salt;
  return world;
}

/**
 * Default worlds by seed, never handed out, only copied: as JSON text, which parses in half the time
 * a structured clone takes (~0.2 ms), or frozen, for a world JSON would not give back as it is.
 */
const SNAPSHOTS = new Map<string, string | World>();
const MAX_SNAPSHOTS = 16;

/** How many default worlds the process keeps to copy (at most MAX_SNAPSHOTS). */
export const keptSnapshots = (): number => SNAPSHOTS.size;

function snapshotOf(built: World): string | World {
  const text = JSON.stringify(built);
  if (isDeepStrictEqual(JSON.parse(text), built)) return text;
  // Frozen as a clone: the built world may hold values it shares with the modules that seeded it.
  return deepFreeze(structuredClone(built));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function buildWorld(seed: number, size: WorldSize, collections: readonly string[]): World {
  const b = new WorldBuilder(seed, size, collections);
  const creds = seedCredentials(seed);
  const { accountId, sandboxEnvId, productionEnvId } = creds;

  b.account(accountId, 'Sandbox Software Vendor');
  b.environment(sandboxEnvId, accountId, 'sandbox');
  b.environment(productionEnvId, accountId, 'production');

  // Showcase consumers: one per vertical with an active connection of that vertical.
  for (const showcase of VERTICAL_SHOWCASE) {
    const id = uuidFrom('consumer', seed, 'vertical', showcase.envName);
    b.consumer(id, accountId, sandboxEnvId);
    b.connection(id, showcase.integrationid, 'active');
  }
  const multiFolder = b.consumer(uuidFrom('consumer', seed, 'multi-folder'), accountId, sandboxEnvId);
  b.connection(multiFolder.consumerid, 90101, 'active');
  const pending = b.consumer(uuidFrom('consumer', seed, 'pending'), accountId, sandboxEnvId);
  b.connection(pending.consumerid, 9012, 'inactive');
  const retired = b.consumer(uuidFrom('consumer', seed, 'retired'), accountId, sandboxEnvId);
  b.connection(retired.consumerid, 90103, 'active');
  const restricted = b.consumer(creds.restricted.consumerId, accountId, sandboxEnvId);
  b.connection(restricted.consumerid, 1000, 'active');
  const syncConsumer = b.consumer(uuidFrom('consumer', seed, 'sync'), accountId, sandboxEnvId);
  b.connection(syncConsumer.consumerid, 1000, 'active');
  b.connection(syncConsumer.consumerid, 7010, 'active');

  const active = b.catalogue.integrations
    .filter((i) => i.status === 'active' && i.api !== 'Custom')
    .map((i) => i.integrationid);
  const crowd = size === 'large' ? LARGE_WORLD_CONSUMERS : 24;
  for (let i = 0; i < crowd; i++) b.crowdConsumer(accountId, sandboxEnvId, active);

  // Production data, kept apart from the sandbox's.
  for (const showcase of VERTICAL_SHOWCASE.slice(0, 3)) {
    const id = uuidFrom('consumer', seed, 'production', showcase.envName);
    b.consumer(id, accountId, productionEnvId);
    b.connection(id, showcase.integrationid, 'active');
  }
  for (let i = 0; i < 4; i++) b.crowdConsumer(accountId, productionEnvId, active);

  b.key(creds.sandbox, accountId, sandboxEnvId, 'Sandbox key');
  b.key(creds.production, accountId, productionEnvId, 'Production key');
  b.key(creds.restricted, accountId, sandboxEnvId, 'Key restricted to one consumer', {
    consumers: [creds.restricted.consumerId],
    mcp_scopes: ['consumers.read', 'connections.read', 'accounting.read'],
  });
  b.key(creds.revoked, accountId, sandboxEnvId, 'Deleted key', { deleted_on: b.date() });

  // A second vendor account with its own sandbox world.
  const other = creds.otherAccount;
  b.account(other.accountId, 'Another Software Vendor');
  b.environment(other.sandboxEnvId, other.accountId, 'sandbox');
  b.key(other, other.accountId, other.sandboxEnvId, 'Sandbox key');
  for (const showcase of VERTICAL_SHOWCASE.slice(0, 2)) {
    const id = uuidFrom('consumer', seed, 'other', showcase.envName);
    b.consumer(id, other.accountId, other.sandboxEnvId);
    b.connection(id, showcase.integrationid, 'active');
  }
  // The coverage limits of the catalogue, on the sandbox's own demonstrators: the default consumers
  // support every operation of their vertical.
  const limited = b.consumer(uuidFrom('consumer', seed, 'coverage-limits'), accountId, sandboxEnvId);
  for (const integrationid of [90102, 90201, 90401])
    b.connection(limited.consumerid, integrationid, 'active');
  // A consumer of the account's own custom connector (the Custom One API), whose custom routes
  // (/consumers/{consumer_id}/custom/sandbox-custom/...) start with no records. Seeded last, so that
  // the consumers before it keep the names and dates they had.
  const custom = b.consumer(uuidFrom('consumer', seed, 'custom'), accountId, sandboxEnvId);
  b.connection(custom.consumerid, CUSTOM_SHOWCASE_INTEGRATION, 'active');
  seedAutomation(b.world, seed, seedDirectory(seed));
  // After the automation: seeded rows are linked to seeded executions.
  seedDatastores(b.world, seed, seedDirectory(seed));
  return b.world;
}

/** Well-known ids of the seeded world (see seedDirectory). */
export type SeedDirectory = ReturnType<typeof seedDirectory>;

/** Well-known ids of the seeded world, for the `env` command and for tests. */
export function seedDirectory(seed: number) {
  const creds = seedCredentials(seed);
  return {
    ...creds,
    verticalConsumers: Object.fromEntries(
      VERTICAL_SHOWCASE.map((s) => [s.envName, uuidFrom('consumer', seed, 'vertical', s.envName)]),
    ) as Record<string, string>,
    multiFolderConsumerId: uuidFrom('consumer', seed, 'multi-folder'),
    coverageLimitsConsumerId: uuidFrom('consumer', seed, 'coverage-limits'),
    pendingConsumerId: uuidFrom('consumer', seed, 'pending'),
    retiredConsumerId: uuidFrom('consumer', seed, 'retired'),
    syncConsumerId: uuidFrom('consumer', seed, 'sync'),
    customConsumerId: uuidFrom('consumer', seed, 'custom'),
    productionConsumerId: uuidFrom('consumer', seed, 'production', 'ACCOUNTING'),
    otherAccountConsumerId: uuidFrom('consumer', seed, 'other', 'ACCOUNTING'),
    syncId: uuidFrom('sync', seed, 'main'),
  };
}

/**
 * The consumers the seeded world holds besides the well-known ones (`env` prints those, the tests
 * and the docs name them): the crowd, dated before the seed's epoch, where the seeded life of
 * connections happens. A consumer a client or a fixture created is dated by the clock, never before.
 */
export function crowdConsumerIds(world: World, seed: number): string[] {
  const known = new Set<string>([
    ...VERTICAL_SHOWCASE.flatMap((s) =>
      ['vertical', 'production', 'other'].map((group) => uuidFrom('consumer', seed, group, s.envName)),
    ),
    ...['multi-folder', 'pending', 'retired', 'sync', 'coverage-limits', 'custom', 'restricted'].map((name) =>
      uuidFrom('consumer', seed, name),
    ),
  ]);
  const epoch = new Date(SEED_EPOCH).toISOString();
  return Object.values(world.consumers)
    .filter((consumer) => !known.has(consumer.consumerid) && consumer.created_on < epoch)
    .map((consumer) => consumer.consumerid);
}

/** The builders of the verticals' generated collections, for a world file's replay (Store.file). */
export const verticalMaterializers = (verticals: readonly AnyVerticalModule[] = VERTICALS): Materializers =>
  Object.fromEntries(verticals.map((module) => [module.collection, module.build]));

/** The collections of the verticals whose business goes on with the clock (Store's `living`). */
export const livingCollections = (verticals: readonly AnyVerticalModule[] = VERTICALS): string[] =>
  verticals.filter((module) => module.lives).map((module) => module.collection);

/**
 * Opens a world file holding the seeded world of `seed` (created when missing), with the verticals'
 * builders: what serve, env and the tests open a file with.
 */
export function openWorldFile(
  file: string,
  makeWorld: () => World,
  options: {
    readOnly?: boolean;
    compactAfterBytes?: number;
    verticals?: readonly AnyVerticalModule[];
    cacheBytes?: number;
    maxWorldBytes?: number;
  } = {},
): Promise<Store> {
  const { verticals, ...rest } = options;
  return Store.file(file, makeWorld, {
    ...rest,
    materializers: verticalMaterializers(verticals),
    living: livingCollections(verticals),
    upgrade: upgradeToOrigin,
  });
}
