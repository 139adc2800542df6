import type { PaceOf } from '../lib/pace.js';
import type { WorldQuota } from './bounds.js';
import type { Store } from './store.js';
import type { UnitOfWork } from './unit-of-work.js';
import type { World } from './world.js';

/** What a committed write touched, for whoever reacts to writes (background work). */
export type CommitListener = (collections: ReadonlySet<string>) => void;

/** A piece of work that writes: it is handed the store to write through. */
export type Write<T> = (store: WorldStore) => Promise<T> | T;

/**
 * What code reads and writes the world through: the store itself, or, inside a write, the store as
 * that write sees it (whose `world` is the write's tracking view).
 */
export interface WorldStore {
  /** The world; inside a write, its tracking view. */
  readonly world: World;
  readonly file: string | null;
  /** The world's bound on bytes, which what the app keeps for it outside it counts toward too. */
  readonly quota: WorldQuota;
  /** Runs a write; inside a write under way, `work` joins it. See Store.transact. */
  transact<T>(work: Write<T>, keep?: (result: T) => boolean): Promise<T>;
  /**
   * Inside a write: it is the sandbox's own bookkeeping of a list it bounds itself (a webhook
   * delivery's outcome and log): counted in the world's bytes, never refused for passing them, since
   * a refusal would leave the outcome unrecorded and the work to be done again. Outside one: nothing.
   */
  bookkeeping(): void;
  /**
   * Runs a write of its own, apart from any write under way: outside a write it waits for its turn;
   * inside one it runs right after that write ends (kept or refused), before the next write starts.
   * Never await it inside a write: the write it follows would wait for it.
   */
  transactApart<T>(work: Write<T>): Promise<T>;
  /**
   * The dataset at `collection[key]`: the one in memory, else built (at once) by the collection's
   * builder from `args` (or, for a dataset writes changed, from the arguments kept with its changes).
   * See Store.materialize.
   */
  materialize<R extends object>(collection: string, key: string, args: unknown): R;
  /**
   * The dataset at `collection[key]` for a read in passing: the one in memory when there is one, else
   * one built for this read alone, which is not kept. See Store.peek.
   */
  peek<R extends object>(collection: string, key: string, args: unknown): R;
  /**
   * Builds the dataset at `collection[key]` in slices, the event loop given back between them, and
   * keeps it in memory, so that `materialize` then finds it at once; undefined when it is there
   * already. Reads of the same dataset meanwhile share the build. See Store.prepare.
   */
  prepare(collection: string, key: string, args: unknown): Promise<void> | undefined;
  /**
   * Builds in slices what a `peek` of `collection[key]` would build at once, for that peek alone;
   * undefined when the peek finds it anyway. See Store.preparePeek.
   */
  preparePeek(collection: string, key: string, args: unknown): Promise<void> | undefined;
  /**
   * Drops the generated datasets whose key starts with `prefix` (a consumer's, when it is deleted),
   * whether or not they are in memory. Inside a write, with that write.
   */
  forgetGenerated(prefix: string): void;
  /** The keys of a generated collection's datasets that writes changed, in order. */
  generatedKeys(collection: string): string[];
  /**
   * A number that changes whenever a write changes the dataset at `collection[key]` (never the same
   * for two states in a process), or undefined when no write changed it: what background work keys
   * its notes on, to leave alone what did not change.
   */
  generatedRevision(collection: string, key: string): number | undefined;
  /** The arguments kept with a dataset writes changed (undefined for one no write changed). */
  generatedArgs(collection: string, key: string): unknown;
  /** The dataset writes changed at `collection[key]` (built again if it left the cache), or undefined. */
  open<R extends object>(collection: string, key: string): R | undefined;
  /** What the cache of generated datasets holds: datasets and bytes (as JSON), and its bound. */
  cacheUsage(): { datasets: number; bytes: number; limit: number };
  /**
   * The living datasets reached since the last call that a move of the clock dropped (at most
   * `limit`, the most recently reached first), as [collection, key, args]: what background work
   * builds again with `prepare`, so that the next read finds them built. Each is handed once.
   */
  takeDroppedLiving(limit: number): [collection: string, key: string, args: unknown][];
  /** Replaces the whole world. */
  replace(world: World, from?: Store): Promise<void>;
  /** The sandbox clock's day (YYYY-MM-DD). */
  today(): string;
  /**
   * The instant generated datasets are built for: the clock's time floored to the whole minute (ISO).
   * A living dataset holds what happened up to it; the store builds it again when the minute changes.
   */
  builtAt(): string;
  /**
   * The world's origin (ISO): the instant its clock started. Every generated dataset's history ends
   * on its day, and its living days run from there to the clock.
   */
  origin(): string;
  /** The factor of each day's generated business under the world's pace (see lib/pace.ts). */
  pace(): PaceOf;
}

/** The store itself, as the writes it runs see it: what a write scope hands on to it. */
export interface RootStore extends WorldStore {
  /** One write within the current turn (see Store.runWrite). */
  runWrite<T>(work: Write<T>): Promise<T>;
}

/** The store as one write sees it: reads and writes go through the write's tracking view. */
export class WriteScope implements WorldStore {
  readonly #root: RootStore;
  readonly #unit: UnitOfWork<World>;
  /** Writes of their own asked for during this one: they run once it ends, still in its turn. */
  readonly afterwards: (() => Promise<void>)[] = [];
  /** Prefixes of generated datasets the write drops (see forgetGenerated). */
  readonly forgotten: string[] = [];
  /** Whether the write is the sandbox's own bookkeeping (see WorldStore.bookkeeping). */
  ownBookkeeping = false;

  constructor(root: RootStore, unit: UnitOfWork<World>) {
    this.#root = root;
    this.#unit = unit;
  }

  /** Whether the write is under way on the store's world (not ended, nor replaced by a reset). */
  get #live(): boolean {
    return this.#unit.active && this.#unit.base === this.#root.world;
  }

  get world(): World {
    return this.#live ? this.#unit.view : this.#root.world;
  }

  get file(): string | null {
    return this.#root.file;
  }

  get quota(): WorldQuota {
    return this.#root.quota;
  }

  bookkeeping(): void {
    if (this.#unit.active) this.ownBookkeeping = true;
  }

  transact<T>(work: Write<T>, keep?: (result: T) => boolean): Promise<T> {
    if (this.#live) return Promise.resolve(work(this));
    return this.#root.transact(work, keep);
  }

  transactApart<T>(work: Write<T>): Promise<T> {
    if (!this.#unit.active) return this.#root.transact(work);
    return new Promise<T>((resolve, reject) => {
      this.afterwards.push(() => this.#root.runWrite(work).then(resolve, reject));
    });
  }

  materialize<R extends object>(collection: string, key: string, args: unknown): R {
    this.#root.materialize(collection, key, args);
    return (this.world as unknown as Record<string, Record<string, R>>)[collection]?.[key] as R;
  }

  peek<R extends object>(collection: string, key: string, args: unknown): R {
    return this.#root.peek(collection, key, args);
  }

  prepare(collection: string, key: string, args: unknown): Promise<void> | undefined {
    return this.#root.prepare(collection, key, args);
  }

  preparePeek(collection: string, key: string, args: unknown): Promise<void> | undefined {
    return this.#root.preparePeek(collection, key, args);
  }

  forgetGenerated(prefix: string): void {
    if (this.#live) this.forgotten.push(prefix);
    else this.#root.forgetGenerated(prefix);
  }

  generatedKeys(collection: string): string[] {
    return this.#root.generatedKeys(collection);
  }

  generatedArgs(collection: string, key: string): unknown {
    return this.#root.generatedArgs(collection, key);
  }

  generatedRevision(collection: string, key: string): number | undefined {
    return this.#root.generatedRevision(collection, key);
  }

  cacheUsage(): { datasets: number; bytes: number; limit: number } {
    return this.#root.cacheUsage();
  }

  takeDroppedLiving(limit: number): [collection: string, key: string, args: unknown][] {
    return this.#root.takeDroppedLiving(limit);
  }

  open<R extends object>(collection: string, key: string): R | undefined {
    if (this.#root.open(collection, key) === undefined) return undefined;
    return (this.world as unknown as Record<string, Record<string, R>>)[collection]?.[key];
  }

  replace(world: World, from?: Store): Promise<void> {
    return this.#root.replace(world, from);
  }

  today(): string {
    return this.#root.today();
  }

  builtAt(): string {
    return this.#root.builtAt();
  }

  origin(): string {
    return this.#root.origin();
  }

  pace(): PaceOf {
    return this.#root.pace();
  }
}
