import type { PaceOf } from '../lib/pace.js';
import type { WorldStore } from '../store/store.js';
import { datasetKey } from '../store/world.js';

/** What a connection's dataset is built from, besides the seed. */
export interface ConnectionDatasetArgs {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /**
   * The sandbox clock's day when the dataset was first used (YYYY-MM-DD): its history runs from
   * January 2021 up to it. World files written before it existed replay with the default start's day.
   */
  until?: string;
}

// The day of the default manual clock, what datasets were seeded up to before `until` existed.
export { LEGACY_UNTIL } from './seeding/dataset-seeder.js';

/**
 * How a dataset is reached: `open` for the API's reads and writes (the dataset is kept in the cache
 * and its first use recorded), `peek` for reading in passing over many connections (an aggregation):
 * the cached dataset when there is one, else one built for this read alone, kept nowhere.
 */
export type DatasetUse = 'open' | 'peek';

/** How a vertical builds one connection's dataset from the seed (its VerticalModule's `build`). */
/**
 * Builds a connection's dataset: its history up to the day of its first use (`args.until`), and, for
 * a vertical whose business goes on, the days after it up to the clock's `day`.
 */
export type DatasetBuilder<D> = (seed: number, args: ConnectionDatasetArgs, at: string, pace: PaceOf) => D;

/**
 * The dataset of a connection in a vertical's collection, built on first use by `build`, a pure
 * function of the seed and its arguments: the world file's journal records the arguments, and a
 * replay builds the same dataset again with the module's `build`.
 */
export function connectionDataset<D extends object>(
  store: WorldStore,
  collection: string,
  build: DatasetBuilder<D>,
  connection: ConnectionDatasetArgs,
  how: DatasetUse = 'open',
): D {
  const args: ConnectionDatasetArgs = {
    consumerid: connection.consumerid,
    connectionid: connection.connectionid,
    integrationid: connection.integrationid,
    until: store.today(),
  };
  const seed = store.world.meta.seed;
  const key = datasetKey(args.consumerid, args.connectionid);
  const made = (pinned: ConnectionDatasetArgs) => build(seed, pinned, store.builtAt(), store.pace());
  return how === 'peek'
    ? store.peek(collection, key, args, made)
    : store.materialize(collection, key, args, made);
}
