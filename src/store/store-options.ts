import type { Materializers, Registry } from './file-adapter.js';
import type { SharedDatasets } from './shared-datasets.js';
import type { World } from './world.js';

/** Bytes (as JSON) of generated datasets a store keeps in memory by default. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** How a store keeps generated data and bounds what clients write. */
export interface StoreOptions {
  /** Builders of the generated collections (the verticals'), by collection. */
  materializers?: Materializers;
  /** Bytes (as JSON) of generated datasets kept in memory; past it the least recently used go. */
  cacheBytes?: number;
  /** Bytes clients may write into the world; a write past it is refused (WorldFullError). */
  maxWorldBytes?: number;
  /**
   * The generated collections whose datasets depend on the clock's day (their business goes on as
   * days pass): when the day changes, those in memory are dropped, and built again when next used.
   */
  living?: readonly string[];
  /**
   * Where datasets built from the seed are shared with the process's other stores (see
   * shared-datasets.ts): the process's by default; null builds every dataset for this store alone.
   */
  shared?: SharedDatasets | null;
  /**
   * For a world file written before worlds had an origin: gives it one (its datasets keep their
   * arguments) from what it holds; true when it did. The file is then written again, upgraded.
   */
  upgrade?: (world: World, registry: Registry) => boolean;
}
