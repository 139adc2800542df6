import { estimatedSize } from './bounds.js';
import type { SharedDatasets } from './shared-datasets.js';

/** A dataset's id in the cache: its collection and key. */
export const idOf = (collection: string, key: string): string => `${collection}\u0000${key}`;

/** The collection and key of a dataset's id. */
export const partsOf = (id: string): [collection: string, key: string] =>
  id.split('\u0000') as [string, string];

/**
 * The generated datasets a store holds in memory, bounded by bytes (as JSON): least recently used
 * first, with their bytes. It drops a dataset from the world through `drop`; the store says when
 * (never while a write holds the world). It also notes the arguments of the datasets in memory that
 * no write changed (a first write records them), and the living datasets clients reached (what
 * background work builds again once a move of the clock dropped them).
 */
export class DatasetCache {
  readonly #limit: number;
  readonly #shared: SharedDatasets | null;
  readonly #drop: (collection: string, key: string) => void;
  #bytes = new Map<string, number>();
  #total = 0;
  /** The arguments of the datasets in memory that no write changed (by id). */
  args = new Map<string, unknown>();
  /** The living datasets reached since the last takeDropped, least recently first, with their args. */
  readonly reached = new Map<string, unknown>();

  constructor(limit: number, shared: SharedDatasets | null, drop: (collection: string, key: string) => void) {
    this.#limit = limit;
    this.#shared = shared;
    this.#drop = drop;
  }

  /** Bytes of the datasets in memory. */
  get total(): number {
    return this.#total;
  }

  has(id: string): boolean {
    return this.#bytes.has(id);
  }

  /** Counts a dataset in memory (again, if it was: its bytes may have changed), as the most recent. */
  add(id: string, value: unknown): void {
    const shared = value !== null && typeof value === 'object' ? this.#shared?.bytesOf(value) : undefined;
    const bytes = shared ?? estimatedSize(value);
    this.#total += bytes - (this.#bytes.get(id) ?? 0);
    this.#bytes.delete(id);
    this.#bytes.set(id, bytes);
  }

  /** Makes a dataset in memory the most recently used. */
  touch(id: string): void {
    const bytes = this.#bytes.get(id);
    if (bytes === undefined) return;
    this.#bytes.delete(id);
    this.#bytes.set(id, bytes);
  }

  /** Stops counting a dataset (its arguments go with it); the world no longer holds it. */
  remove(id: string): void {
    this.args.delete(id);
    const bytes = this.#bytes.get(id);
    if (bytes === undefined) return;
    this.#bytes.delete(id);
    this.#total -= bytes;
  }

  /** Drops the least recently used datasets past the cache's bytes, `keep` aside. */
  evict(keep?: string): void {
    if (this.#total <= this.#limit) return;
    for (const id of [...this.#bytes.keys()]) {
      if (this.#total <= this.#limit) break;
      if (id === keep) continue;
      this.#drop(...partsOf(id));
      this.remove(id);
    }
  }

  /** Drops every dataset of the collections given (the living ones, built for another minute). */
  dropAll(collections: ReadonlySet<string>): void {
    for (const id of [...this.#bytes.keys()]) {
      const [collection, key] = partsOf(id);
      if (!collections.has(collection)) continue;
      this.#drop(collection, key);
      this.remove(id);
    }
  }

  /** Forgets every dataset in memory and its arguments (the world they were in is gone). */
  clear(): void {
    this.args = new Map();
    this.#bytes = new Map();
    this.#total = 0;
  }

  /** Notes a living dataset a client reached, as the most recent. */
  reach(id: string, args: unknown): void {
    this.reached.delete(id);
    this.reached.set(id, args);
  }

  /**
   * The living datasets reached since the last call that are no longer in memory, at most `limit`,
   * the most recently reached first, as [collection, key, args]; forgets the others.
   */
  takeDropped(limit: number): [collection: string, key: string, args: unknown][] {
    const taken: [string, string, unknown][] = [];
    for (const [id, args] of [...this.reached].reverse()) {
      if (taken.length >= limit) break;
      if (this.#bytes.has(id)) continue;
      taken.push([...partsOf(id), args]);
    }
    this.reached.clear();
    return taken;
  }

  /** What the cache holds: datasets and bytes (as JSON), and its bound. */
  usage(): { datasets: number; bytes: number; limit: number } {
    return { datasets: this.#bytes.size, bytes: this.#total, limit: this.#limit };
  }
}
