import { giveTurn } from '../lib/slices.js';
import { estimatedSize } from './bounds.js';
import type { BuildClock } from './build-clock.js';
import { BuildsInFlight, type Built, builtAtOnce, builtInSlices } from './dataset-builds.js';
import { DatasetCache, idOf } from './dataset-cache.js';
import type { Materialized, Materializers, Registry } from './file-adapter.js';
import {
  addOverlayOp,
  applyOverlay,
  diffOverlay,
  entriesOf,
  type GeneratedEntry,
  newEntry,
  opsOf,
} from './generated.js';
import { type SharedDatasets, sharedDatasets } from './shared-datasets.js';
import { DEFAULT_CACHE_BYTES, type StoreOptions } from './store-options.js';
import type { PathOp } from './unit-of-work.js';
import type { World } from './world.js';
import type { OverlayChanges } from './write-change.js';

type Bags = Record<string, Record<string, unknown>>;

/**
 * A store's generated datasets (the collections handed a builder): derived, not stored. A dataset is
 * a function of the seed, its arguments, the world's origin and (living) the minute and pace it is
 * built for (see build-clock.ts). What is kept, for each dataset a write changed, is its arguments
 * and those changes (the registry, see generated.ts), nothing for one only read; the datasets
 * themselves are held in a cache bounded by bytes (dataset-cache.ts), which drops the least recently
 * used between writes. A dataset that left the cache is built again, identically, when next reached.
 */
export class GeneratedDatasets {
  readonly #world: () => World;
  /** Whether a write holds the world: its datasets then stay as it found them until it ends. */
  readonly #held: () => boolean;
  readonly #clock: BuildClock;
  /** The datasets in memory. */
  readonly cache: DatasetCache;
  /** How to build each generated dataset writes changed, and what they changed in it. */
  #registry: Registry;
  /** The last revision given to a generated dataset (see revision). */
  #revision = 0;
  /** The generated collections, and how to build their datasets. */
  readonly #builders = new Map<string, (args: unknown) => Built>();
  #seedBuilders: Materializers;
  /** The generated collections that follow the clock's day. */
  #living: ReadonlySet<string>;
  /** The builds under way in slices (see prepare). */
  readonly #inFlight = new BuildsInFlight();
  /**
   * The dataset last built in slices for a read in passing (preparePeek), by the key of its inputs,
   * for the peek that follows it: one at a time, so a read over many connections holds one more.
   */
  #passing: { key: string; value: object } | undefined;
  /** The datasets shared with the process's other stores, if any. */
  readonly #shared: SharedDatasets | null;

  constructor(
    world: () => World,
    held: () => boolean,
    clock: BuildClock,
    registry: Registry,
    options: StoreOptions,
  ) {
    this.#world = world;
    this.#held = held;
    this.#clock = clock;
    this.#registry = registry;
    this.#seedBuilders = options.materializers ?? {};
    this.#living = new Set(options.living ?? []);
    this.#shared = options.shared === undefined ? sharedDatasets : options.shared;
    this.cache = new DatasetCache(
      options.cacheBytes ?? DEFAULT_CACHE_BYTES,
      this.#shared,
      (collection, key) => {
        const records = (this.#world() as unknown as Bags)[collection];
        if (records) delete records[key];
      },
    );
    for (const name of Object.keys(this.#seedBuilders)) this.#generatedCollection(name);
  }

  /** What writes changed in the generated datasets: what a snapshot and the journal write. */
  get registry(): Registry {
    return this.#registry;
  }

  /** See Store.useBuilders. */
  useBuilders(materializers: Materializers, living: readonly string[]): void {
    if (Object.keys(this.#seedBuilders).length > 0) return;
    this.#seedBuilders = materializers;
    this.#living = new Set(living);
    for (const name of Object.keys(materializers)) {
      this.#builders.delete(name);
      this.#generatedCollection(name);
    }
  }

  /** Whether `collection` is generated (its records are datasets, kept as their changes). */
  isGenerated(collection: string): boolean {
    return this.#builders.has(collection);
  }

  /** What is kept of the dataset at `collection[key]` that writes changed, if any. */
  entry(collection: string, key: string): GeneratedEntry | undefined {
    return this.#registry.get(collection)?.get(key);
  }

  /**
   * Marks a collection as generated. Datasets it already holds without an entry (a world handed over
   * with its data) are kept whole: their content is what the world says they are.
   */
  #generatedCollection(collection: string): void {
    if (this.#builders.has(collection)) return;
    const seeded = this.#seedBuilders[collection];
    const clock = this.#clock;
    this.#builders.set(
      collection,
      seeded
        ? (args) =>
            seeded(this.#world().meta.seed, args as never, clock.buildAt(), clock.pace(), clock.origin())
        : () => ({}),
    );
    const records = (this.#world() as unknown as Bags)[collection];
    if (!records) return;
    const entries = entriesOf(this.#registry, collection);
    for (const [key, value] of Object.entries(records)) {
      const id = idOf(collection, key);
      if (!entries.has(key)) {
        const entry = newEntry(null);
        addOverlayOp(entry, { p: [], j: JSON.stringify(value) });
        entries.set(key, entry);
      }
      if (!this.cache.has(id)) this.cache.add(id, value);
    }
  }

  #records<R>(collection: string): Record<string, R> {
    const records = (this.#world() as unknown as Record<string, Record<string, R>>)[collection];
    if (!records) throw new Error(`unknown collection ${collection}`);
    return records;
  }

  /** See Store.materialize. */
  materialize<R extends object>(collection: string, key: string, args: unknown): R {
    const records = this.#records<R>(collection);
    this.#generatedCollection(collection);
    this.followDay();
    const id = idOf(collection, key);
    if (this.#living.has(collection)) this.cache.reach(id, args);
    const found = records[key];
    if (found) {
      this.cache.touch(id);
      return found;
    }
    const entry = this.entry(collection, key);
    const value = (entry ? this.#rebuild(collection, entry) : this.#generate(collection, args, true)) as R;
    this.#keep(collection, key, entry ? undefined : args, value);
    return value;
  }

  /** Keeps a dataset in memory (`args`: those of a dataset no write changed). */
  #keep(collection: string, key: string, args: unknown, value: object): void {
    const id = idOf(collection, key);
    this.#records<object>(collection)[key] = value;
    if (args !== undefined) this.cache.args.set(id, args);
    this.cache.add(id, value);
    this.evict(id);
  }

  /** See Store.peek. */
  peek<R extends object>(collection: string, key: string, args: unknown): R {
    this.#generatedCollection(collection);
    this.followDay();
    const found = (this.#world() as unknown as Record<string, Record<string, R>>)[collection]?.[key];
    if (found) return found;
    const entry = this.entry(collection, key);
    return (entry ? this.#rebuild(collection, entry) : this.#generate(collection, args, false)) as R;
  }

  /** See Store.prepare. */
  prepare(collection: string, key: string, args: unknown): Promise<void> | undefined {
    this.#generatedCollection(collection);
    this.followDay();
    if (this.#records(collection)[key] !== undefined) return undefined;
    const entry = this.entry(collection, key);
    if (entry?.args === null) return undefined;
    if (this.#shared?.get(this.#inputsOf(collection, entry ? entry.args : args).key)) return undefined;
    return this.#inFlight.share(idOf(collection, key), () => this.#buildInSlices(collection, key, args));
  }

  /** See Store.preparePeek. */
  preparePeek(collection: string, key: string, args: unknown): Promise<void> | undefined {
    this.#generatedCollection(collection);
    this.followDay();
    if (this.#records(collection)[key] !== undefined) return undefined;
    const entry = this.entry(collection, key);
    const use = entry ? entry.args : args;
    if (use === null) return undefined;
    const inputs = this.#inputsOf(collection, use);
    if (this.#shared?.get(inputs.key) || this.#passing?.key === inputs.key) return undefined;
    return builtInSlices(this.#builderOf(collection)(use)).then((value) => {
      this.#passing = { key: inputs.key, value };
    });
  }

  async #buildInSlices(collection: string, key: string, args: unknown): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const world = this.#world();
      if (this.#records(collection)[key] !== undefined) return;
      const entry = this.entry(collection, key);
      const use = entry ? entry.args : args;
      const inputs = this.#inputsOf(collection, use);
      const base = this.#shared?.get(inputs.key) ?? (await builtInSlices(this.#builderOf(collection)(use)));
      // Measured and shared in a piece, kept in the next (each walks a large dataset).
      if (this.#inputsOf(collection, use).key === inputs.key) this.#share(collection, inputs, base);
      await giveTurn();
      this.followDay();
      if (world !== this.#world() || this.#records(collection)[key] !== undefined) return;
      const now = this.entry(collection, key);
      if (this.#inputsOf(collection, use).key !== inputs.key || (now && now.args !== use)) continue;
      const value = now && now.ops.size > 0 ? (applyOverlay(base, opsOf(now)) ?? base) : base;
      this.#keep(collection, key, now ? undefined : args, value);
      return;
    }
  }

  /** See Store.open. */
  open<R extends object>(collection: string, key: string): R | undefined {
    const entry = this.entry(collection, key);
    if (!entry || !this.#builders.has(collection)) return undefined;
    // Background work opens datasets too: only a client's reach counts for takeDroppedLiving.
    const id = idOf(collection, key);
    const reached = this.cache.reached.has(id);
    const value = this.materialize<R>(collection, key, entry.args);
    if (!reached) this.cache.reached.delete(id);
    return value;
  }

  /** The keys of a collection's datasets that writes changed, in order. */
  keys(collection: string): string[] {
    return [...(this.#registry.get(collection)?.keys() ?? [])];
  }

  /** The arguments kept with a dataset writes changed. */
  args(collection: string, key: string): unknown {
    return this.entry(collection, key)?.args ?? undefined;
  }

  /** See WorldStore.generatedRevision. */
  revision(collection: string, key: string): number | undefined {
    const entry = this.entry(collection, key);
    if (!entry) return undefined;
    entry.rev ??= ++this.#revision;
    return entry.rev;
  }

  #builderOf(collection: string): (args: unknown) => Built {
    this.#generatedCollection(collection);
    return this.#builders.get(collection) as (args: unknown) => Built;
  }

  #rebuild(collection: string, entry: GeneratedEntry): object {
    const build = () => builtAtOnce(this.#builderOf(collection)(entry.args));
    if (entry.args === null) return applyOverlay(undefined, opsOf(entry)) ?? build();
    // The changes go to copies of the objects they change: the generated base may be shared.
    const base = this.#generate(collection, entry.args, true);
    return entry.ops.size === 0 ? base : (applyOverlay(base, opsOf(entry)) ?? build());
  }

  /**
   * The dataset the collection's builder makes of `args`, shared with the process's other stores:
   * the one they built for the same inputs, else built now, at once (and shared when `share`).
   * Frozen once shared: writes change a copy.
   */
  #generate(collection: string, args: unknown, share: boolean): object {
    const inputs = this.#inputsOf(collection, args);
    const found =
      this.#shared?.get(inputs.key) ?? (this.#passing?.key === inputs.key ? this.#passing.value : null);
    if (found) return found;
    const value = builtAtOnce(this.#builderOf(collection)(args));
    if (share) this.#share(collection, inputs, value);
    return value;
  }

  /** Hands a dataset built from the seed to the process's other stores. */
  #share(collection: string, inputs: { key: string; family: string }, value: object): void {
    if (!this.#shared || !this.#seedBuilders[collection] || this.#shared.get(inputs.key)) return;
    this.#shared.put(inputs.key, value, estimatedSize(value), inputs.family);
  }

  /**
   * What a dataset of `collection` built with `args` is a function of, as one key: the collection,
   * the seed, the world's origin and the arguments (its family), and for a living collection the
   * instant it is built for and the world's pace.
   */
  #inputsOf(collection: string, args: unknown): { key: string; family: string } {
    const { seed } = this.#world().meta;
    const family = `${collection}\u0000${seed}\u0000${this.#clock.origin()}\u0000${JSON.stringify(args)}`;
    if (!this.#living.has(collection)) return { key: family, family };
    return { key: `${family}\u0000${this.#clock.buildAt()}\u0000${this.#clock.paceKey()}`, family };
  }

  /**
   * Drops the datasets of the living collections built for another minute than the clock's (they are
   * built again, for now, when next used); never while a write holds the world, whose datasets
   * stay as it found them until it ends.
   */
  followDay(): void {
    if (this.#held() || this.#living.size === 0) return;
    if (this.#clock.moved()) this.cache.dropAll(this.#living);
  }

  /**
   * Drops the least recently used datasets past the cache's bytes, `keep` aside; never while a write
   * holds the world (it may hold one of them), but as soon as it ends.
   */
  evict(keep?: string): void {
    if (this.#held()) return;
    this.cache.evict(keep);
  }

  /** See WorldStore.takeDroppedLiving. */
  takeDroppedLiving(limit: number): [collection: string, key: string, args: unknown][] {
    this.followDay();
    return this.cache.takeDropped(limit);
  }

  /** Adds to a write's ops the removal of each dataset writes changed whose key starts with a prefix. */
  forget(prefixes: readonly string[], ops: PathOp[]): void {
    for (const prefix of prefixes) {
      for (const [collection, entries] of this.#registry) {
        for (const key of entries.keys()) {
          if (
            key.startsWith(prefix) &&
            !ops.some((op) => op.p.length === 2 && op.p[0] === collection && op.p[1] === key)
          )
            ops.push({ p: [collection, key] });
        }
      }
    }
  }

  /**
   * The datasets a write changes for the first time, with the arguments they were built with: the
   * journal line says how to build them before the changes it holds.
   */
  firstChanged(overlays: Map<string, OverlayChanges>): Materialized[] {
    const made: Materialized[] = [];
    for (const [id, { collection, key, gone }] of overlays) {
      if (gone || this.#registry.get(collection)?.has(key)) continue;
      made.push({ c: collection, k: key, a: this.cache.args.get(id) ?? null });
    }
    return made;
  }

  /** Keeps a committed write's changes of datasets (see write-change.ts). */
  commit(overlays: Map<string, OverlayChanges>): void {
    for (const [id, { collection, key, ops, gone }] of overlays) {
      const entries = entriesOf(this.#registry, collection);
      if (gone) {
        entries.delete(key);
        this.cache.remove(id);
        continue;
      }
      let entry = entries.get(key);
      if (!entry) {
        entry = newEntry(this.cache.args.get(id) ?? null);
        this.cache.args.delete(id);
        entries.set(key, entry);
      }
      for (const op of ops) addOverlayOp(entry, op);
      entry.rev = ++this.#revision;
      const value = (this.#world() as unknown as Bags)[collection]?.[key];
      if (value !== undefined && !this.cache.has(id)) this.cache.add(id, value);
    }
  }

  /**
   * Takes the datasets of the world the store now holds (see Store.replace): with the arguments
   * `from` built them with, kept as their changes over what those build (nothing, for one it did not
   * change); else whole. Returns the bytes of those changes.
   */
  replace(from?: GeneratedDatasets): number {
    const world = this.#world();
    this.#registry = new Map();
    this.cache.clear();
    let used = 0;
    for (const collection of this.#builders.keys()) {
      const records = (world as unknown as Bags)[collection] ?? {};
      const entries = entriesOf(this.#registry, collection);
      for (const [key, value] of Object.entries(records)) {
        const id = idOf(collection, key);
        const kept = from ? from.#registry.get(collection)?.get(key) : undefined;
        const args = kept ? kept.args : ((from ? from.cache.args.get(id) : undefined) ?? null);
        const ops =
          args === null
            ? [{ p: [], j: JSON.stringify(value) }]
            : diffOverlay(builtAtOnce(this.#builderOf(collection)(args)), value);
        this.cache.add(id, value);
        if (ops.length === 0 && args !== null) {
          this.cache.args.set(id, args);
          continue;
        }
        const entry = newEntry(args);
        for (const op of ops) addOverlayOp(entry, op);
        entries.set(key, entry);
        used += entry.bytes;
      }
    }
    return used;
  }
}
