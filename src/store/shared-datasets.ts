/**
 * Generated datasets shared by every store of the process.
 *
 * A generated dataset is a pure function of its collection, the seed, its arguments and, for a living
 * collection, the minute it is built for and the world's pace. Two worlds of the same seed (a test
 * suite that makes a new app per test, the worlds created over HTTP) therefore build the same
 * datasets again and again: the first build is kept here, deeply frozen, and every store that asks
 * for the same inputs holds that very object. Nothing can change it: a write copies each frozen
 * object it reaches (see UnitOfWork), and a dataset with changes of clients is built the same way
 * over it (see applyOverlay): the objects on the paths changed are the store's own, the rest shared.
 *
 * Bounded by bytes (as JSON, estimated), least recently used first out.
 */
export class SharedDatasets {
  readonly #entries = new Map<string, { value: object; bytes: number; family: string }>();
  /** The key kept of each family (a living dataset's inputs but the minute). */
  readonly #latest = new Map<string, string>();
  /** The bytes of each dataset kept, by the dataset (its stores need them too). */
  readonly #bytes = new WeakMap<object, number>();
  #total = 0;

  constructor(readonly limit: number) {}

  /** The dataset built for `key`, if one is kept; it counts as used. */
  get(key: string): object | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps `value` (frozen from now on) for `key`, in place of the one kept for its `family` (a living
   * dataset built for another minute, which the clock has left); a dataset larger than the bound is
   * not kept.
   */
  put(key: string, value: object, bytes: number, family: string = key): void {
    if (bytes > this.limit) return;
    deepFreeze(value);
    const before = this.#latest.get(family);
    if (before !== undefined) this.#drop(before);
    this.#drop(key);
    this.#entries.set(key, { value, bytes, family });
    this.#bytes.set(value, bytes);
    this.#latest.set(family, key);
    this.#total += bytes;
    for (const other of this.#entries.keys()) {
      if (this.#total <= this.limit) break;
      this.#drop(other);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    if (this.#latest.get(entry.family) === key) this.#latest.delete(entry.family);
    this.#total -= entry.bytes;
  }

  /** The bytes (as JSON, estimated) of a dataset it was handed, if it was. */
  bytesOf(value: object): number | undefined {
    return this.#bytes.get(value);
  }

  /** Datasets and bytes held. */
  usage(): { datasets: number; bytes: number; limit: number } {
    return { datasets: this.#entries.size, bytes: this.#total, limit: this.limit };
  }

  clear(): void {
    this.#entries.clear();
    this.#latest.clear();
    this.#total = 0;
  }
}

/** Bytes (as JSON, estimated) of generated datasets the process shares between its worlds. */
export const SHARED_DATASET_BYTES = 16 * 1024 * 1024;

/** The datasets every store of the process shares (unless it is made with `shared: null`). */
export const sharedDatasets = new SharedDatasets(SHARED_DATASET_BYTES);

/**
 * Freezes `value` and every object below it. An object found frozen already is taken as frozen below
 * too: it was part of a dataset shared before (two datasets may hold one object), walked then.
 */
export function deepFreeze(value: object): void {
  const pending: object[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) {
      if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
}

/**
 * A copy of one frozen object of a shared dataset that its holder may change: its own keys, in their
 * order, over the same (still frozen) values. A change deep in a dataset copies the objects on its
 * path only, each when it is reached: the rest stays shared.
 */
export function unfrozen<T extends object>(value: T): T {
  if (Array.isArray(value)) return value.slice() as T;
  // Spread defines each key as data, `__proto__` included; a record of the world is a plain object.
  return { ...value };
}
