import type { PaceOf } from '../lib/pace.js';
import type { Sliced } from '../lib/slices.js';
import type { Registry, WorldStore } from '../store/store.js';
import { type ConnectionRecord, datasetKey, type World } from '../store/world.js';
import { LEGACY_UNTIL } from './seeding/dataset-seeder.js';

/** What a connection's dataset is built from, besides the seed and the world's origin. */
export interface ConnectionDatasetArgs {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /**
   * The day its history ends (YYYY-MM-DD) when it is not the day of the world's origin: a dataset
   * of a world file written before worlds had an origin, whose history ended on the day it was
   * first used (or, earlier still, on LEGACY_UNTIL), keeps that day.
   */
  until?: string;
}

// The day of the default manual clock, what datasets were seeded up to before `until` existed.
export { LEGACY_UNTIL };

/**
 * How a dataset is reached: `open` for the API's reads and writes (the dataset is kept in the cache),
 * `peek` for reading in passing over many connections (an aggregation): the cached dataset when
 * there is one, else one built for this read alone, kept nowhere.
 */
export type DatasetUse = 'open' | 'peek';

/** A generated dataset as a store knows it: where it is kept, and what it is built from. */
export interface DatasetRef {
  collection: string;
  key: string;
  args: unknown;
}

/**
 * Builds a connection's dataset (a VerticalModule's `build`): its history up to the morning of its
 * `until` (the day of the world's origin by default), and, for a vertical whose business goes on,
 * the days after it up to `at`, yielding between them so that a long span builds in slices.
 */
export type DatasetBuilder<D> = (
  seed: number,
  args: ConnectionDatasetArgs,
  at: string,
  pace: PaceOf,
  origin: string,
) => Sliced<D>;

/** The dataset of a connection in a vertical's collection. */
export function connectionDatasetRef(
  collection: string,
  connection: Pick<ConnectionRecord, 'consumerid' | 'connectionid' | 'integrationid'>,
): DatasetRef {
  const args: ConnectionDatasetArgs = {
    consumerid: connection.consumerid,
    connectionid: connection.connectionid,
    integrationid: connection.integrationid,
  };
  return { collection, key: datasetKey(args.consumerid, args.connectionid), args };
}

/**
 * The dataset of a connection in a vertical's collection: a pure function of the seed, the world's
 * origin, the connection and (living) the clock's minute and the world's pace, built by the
 * vertical module's `build` when it is not in memory. A read records nothing of it.
 */
export function connectionDataset<D extends object>(
  store: WorldStore,
  collection: string,
  connection: Pick<ConnectionRecord, 'consumerid' | 'connectionid' | 'integrationid'>,
  how: DatasetUse = 'open',
): D {
  const { key, args } = connectionDatasetRef(collection, connection);
  return how === 'peek' ? store.peek<D>(collection, key, args) : store.materialize<D>(collection, key, args);
}

/**
 * A connection's dataset built in slices before a read in passing (`peek`) reads it, for that read
 * alone (store.preparePeek): undefined when the read finds it anyway.
 */
export function prepareConnectionDataset(
  store: WorldStore,
  collection: string,
  connection: Pick<ConnectionRecord, 'consumerid' | 'connectionid' | 'integrationid'>,
): Promise<void> | undefined {
  const { key, args } = connectionDatasetRef(collection, connection);
  return store.preparePeek(collection, key, args);
}

/**
 * The origin of a world file written before worlds had one (the store's `upgrade`): the earliest
 * day a dataset it kept was first used (at 09:00 UTC, where a first use's history ended), else the
 * manual clock it kept, else the default start. Every dataset it kept keeps the day its history
 * ended (`until`, written in for those kept before `until` existed); one no write changed whose
 * history ends on the origin's day is what the origin builds anyway, and is dropped.
 */
export function upgradeToOrigin(world: World, registry: Registry): boolean {
  const untilOf = (args: unknown) => (args as { until?: unknown } | null)?.until;
  let earliest: string | undefined;
  for (const entries of registry.values()) {
    for (const entry of entries.values()) {
      if (entry.args === null || typeof entry.args !== 'object') continue;
      if (typeof untilOf(entry.args) !== 'string') entry.args = { ...entry.args, until: LEGACY_UNTIL };
      const until = untilOf(entry.args) as string;
      if (earliest === undefined || until < earliest) earliest = until;
    }
  }
  const kept = world.sandbox_state?.clock;
  const origin =
    earliest !== undefined
      ? `${earliest}T09:00:00.000Z`
      : kept?.mode === 'manual' && kept.now !== undefined
        ? new Date(kept.now).toISOString()
        : `${LEGACY_UNTIL}T09:00:00.000Z`;
  world.meta.origin = origin;
  for (const entries of registry.values()) {
    for (const [key, entry] of entries) {
      if (untilOf(entry.args) !== origin.slice(0, 10)) continue;
      if (entry.ops.size === 0) entries.delete(key);
      else {
        const { until: _until, ...args } = entry.args as ConnectionDatasetArgs;
        entry.args = args;
      }
    }
  }
  return true;
}
