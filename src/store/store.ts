import { existsSync } from 'node:fs';
import { DEFAULT_MANUAL_START } from '../lib/clock.js';
import { type Materialized, type Materializers, StoreFileError, WorldFile } from './file-adapter.js';
import { UnitOfWork } from './unit-of-work.js';
import { emptyWorld, type World } from './world.js';

export type { Materializers };
export { StoreFileError };

/** Why a write was not kept: its change could not be serialized for the journal. */
export class UnstorableChangeError extends Error {
  constructor(cause: unknown) {
    super(`The change cannot be stored: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'UnstorableChangeError';
  }
}

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
  /** Runs a write; inside a write under way, `work` joins it. See Store.transact. */
  transact<T>(work: Write<T>, keep?: (result: T) => boolean): Promise<T>;
  /**
   * Runs a write of its own, apart from any write under way: outside a write it waits for its turn;
   * inside one it runs right after that write ends (kept or refused), before the next write starts.
   * Never await it inside a write: the write it follows would wait for it.
   */
  transactApart<T>(work: Write<T>): Promise<T>;
  /** The dataset at `collection[key]`, built on first use. See Store.materialize. */
  materialize<R extends object>(collection: string, key: string, args: unknown, build: () => R): R;
  /** Replaces the whole world. */
  replace(world: World): Promise<void>;
  /** The sandbox clock's day (YYYY-MM-DD): datasets built now hold records up to it. */
  today(): string;
}

/** The store as one write sees it: reads and writes go through the write's tracking view. */
class WriteScope implements WorldStore {
  readonly #root: Store;
  readonly #unit: UnitOfWork<World>;
  /** Writes of their own asked for during this one: they run once it ends, still in its turn. */
  readonly afterwards: (() => Promise<void>)[] = [];

  constructor(root: Store, unit: UnitOfWork<World>) {
    this.#root = root;
    this.#unit = unit;
  }

  get world(): World {
    const unit = this.#unit;
    return unit.active && unit.base === this.#root.world ? unit.view : this.#root.world;
  }

  get file(): string | null {
    return this.#root.file;
  }

  transact<T>(work: Write<T>, keep?: (result: T) => boolean): Promise<T> {
    if (this.#unit.active && this.#unit.base === this.#root.world) return Promise.resolve(work(this));
    return this.#root.transact(work, keep);
  }

  transactApart<T>(work: Write<T>): Promise<T> {
    if (!this.#unit.active) return this.#root.transact(work);
    return new Promise<T>((resolve, reject) => {
      this.afterwards.push(() => this.#root.runWrite(work).then(resolve, reject));
    });
  }

  materialize<R extends object>(collection: string, key: string, args: unknown, build: () => R): R {
    this.#root.materialize(collection, key, args, build);
    return (this.world as unknown as Record<string, Record<string, R>>)[collection]?.[key] as R;
  }

  replace(world: World): Promise<void> {
    return this.#root.replace(world);
  }

  today(): string {
    return this.#root.today();
  }
}

/**
 * The only owner of the world, and its write boundary.
 *
 * Reads use `store.world` directly. Every write runs in `transact()`: inside it `store.world` is a
 * tracking view, the write changes what it needs, and when it ends well exactly the values it
 * changed are appended to the journal (with a file) before `transact()` resolves; when it throws,
 * or its result is refused, every change is undone and nothing is persisted. Datasets built from
 * the seed on first use go through `materialize()`, which journals how to build them instead of
 * their content.
 */
export class Store implements WorldStore {
  #world: World;
  readonly #file: WorldFile<World> | null;
  /** Datasets built since the last line: the next line says how to build them again. */
  #made: Materialized[] = [];
  readonly #listeners: CommitListener[] = [];
  readonly file: string | null;
  /** Whether a write holds the world, and the writes waiting for their turn, in order. */
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  /** The sandbox clock, once an app owns the store; until then its default start. */
  #now: () => Date = () => DEFAULT_MANUAL_START;

  private constructor(world: World, file: WorldFile<World> | null) {
    this.#world = world;
    this.#file = file;
    this.file = file?.file ?? null;
  }

  /** The world, untracked: a write reads and writes through the store it is handed. */
  get world(): World {
    return this.#world;
  }

  /** Lets datasets built on first use follow the sandbox clock (see `today`). */
  useClock(now: () => Date): void {
    this.#now = now;
  }

  today(): string {
    return this.#now().toISOString().slice(0, 10);
  }

  static memory(world: World): Store {
    return new Store(world, null);
  }

  /**
   * Opens a world file (and replays its journal) and locks it for this process. A missing file is
   * created from `makeWorld()`; an unreadable or corrupt one, or one another live server holds, is
   * refused with a StoreFileError and left as it is. `readOnly` opens without writing or locking
   * anything (the env command). `materializers` are the builders of the generated collections (the
   * verticals', handed by whoever opens the file: the store knows no vertical); their names are the
   * collections a file written by an older version may lack.
   */
  static async file(
    file: string,
    makeWorld: () => World,
    options: { readOnly?: boolean; materializers: Materializers; compactAfterBytes?: number },
  ): Promise<Store> {
    const adapter = new WorldFile<World>(file, options.materializers, options.compactAfterBytes);
    if (!options.readOnly) adapter.lock();
    try {
      let world = await adapter.read();
      if (world === null) {
        if (existsSync(file))
          throw new StoreFileError(`${file} is empty or unreadable; it was left untouched`);
        world = makeWorld();
        if (!options.readOnly) adapter.writeNow(world);
      } else {
        assertWorld(world, file, Object.keys(options.materializers));
        // Fold the journal into the snapshot, so the file stands alone again.
        if (!options.readOnly && adapter.hasJournal()) adapter.writeNow(world);
      }
      return new Store(world, options.readOnly ? null : adapter);
    } catch (error) {
      adapter.unlock();
      throw error;
    }
  }

  /** Called after every committed write with the collections it changed. */
  onCommit(listener: CommitListener): void {
    this.#listeners.push(listener);
  }

  /**
   * Runs a write: `work` is handed the store as the write sees it, and changes the world through
   * it. `keep` decides from the result whether the write stands (a request answered with an error
   * does not).
   *
   * One writer at a time: a write holds the world from its first line to its commit (or rollback),
   * its awaits included, and the next waits for its turn. So a refused write restores exactly what
   * it found (no other write built on its changes meanwhile), and a write never sees another's half.
   * When no write is under way, `work` starts at once, synchronously.
   */
  transact<T>(work: Write<T>, keep: (result: T) => boolean = () => true): Promise<T> {
    if (!this.#busy) {
      this.#busy = true;
      return this.#turn(work, keep);
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => this.#turn(work, keep));
  }

  /**
   * Runs a write of its own, apart from the write under way (if any): it stands or falls alone, and
   * is journaled before it resolves.
   */
  transactApart<T>(work: Write<T>): Promise<T> {
    return this.transact(work);
  }

  /** The writer's turn: the write, then the writes it asked to follow it, then the next in line. */
  async #turn<T>(work: Write<T>, keep: (result: T) => boolean): Promise<T> {
    try {
      return await this.runWrite(work, keep);
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#busy = false;
    }
  }

  /** One write within the current turn (never call it outside one: see transact). */
  async runWrite<T>(work: Write<T>, keep: (result: T) => boolean = () => true): Promise<T> {
    const unit = new UnitOfWork(this.#world);
    const scope = new WriteScope(this, unit);
    try {
      let result: T;
      try {
        result = await work(scope);
      } catch (error) {
        unit.rollback();
        throw error;
      }
      if (!keep(result)) {
        unit.rollback();
        return result;
      }
      await this.#persist(unit);
      return result;
    } finally {
      for (const after of scope.afterwards) await after();
    }
  }

  async #persist(unit: UnitOfWork<World>): Promise<void> {
    unit.finish();
    // A reset replaced the world while this write ran: what it changed is gone with the old world.
    if (unit.base !== this.#world || !unit.changed) return;
    const ops = unit.ops();
    if (this.#file) {
      const made = this.#made;
      let line: string;
      try {
        line = this.#file.line(this.#world.meta, ops, made);
      } catch (error) {
        unit.rollback();
        throw new UnstorableChangeError(error);
      }
      this.#made = [];
      await this.#file.append(line);
      this.#file.compactIfLarge(() => this.#world);
    }
    if (this.#listeners.length > 0) {
      const collections = new Set(ops.map((op) => op.p[0] as string));
      for (const listener of this.#listeners) listener(collections);
    }
  }

  /**
   * The record at `collection[key]`, built by `build()` and stored the first time it is asked for.
   * Building is deterministic from the seed and `args`, so the journal records only (collection,
   * key, args) and a replay builds it again. It is not part of any write: a write that fails keeps
   * it, and the next line journaled says how to build it.
   */
  materialize<R extends object>(collection: string, key: string, args: unknown, build: () => R): R {
    const records = (this.#world as unknown as Record<string, Record<string, R>>)[collection];
    if (!records) throw new Error(`unknown collection ${collection}`);
    const found = records[key];
    if (found) return found;
    const built = build();
    records[key] = built;
    if (this.#file) this.#made.push({ c: collection, k: key, a: args });
    return built;
  }

  /** Replaces the whole world (the reset control endpoint) and saves it as a snapshot. */
  async replace(world: World): Promise<void> {
    this.#world = world;
    this.#made = [];
    if (this.#file) await this.#file.snapshot(world);
  }

  /** Waits until every write is on disk and no compaction runs. */
  async flush(): Promise<void> {
    await this.#file?.settled();
  }

  /** Flushes, closes the journal and unlocks the file. */
  async close(): Promise<void> {
    await this.#file?.close();
  }
}

/**
 * A world file is accepted when it has the sandbox's meta block and every collection it holds is an
 * object. Collections added by a newer version start empty in an older file.
 */
function assertWorld(value: unknown, file: string, collections: readonly string[]): asserts value is World {
  const record = value as Record<string, unknown> | null;
  const meta = record?.meta as World['meta'] | undefined;
  const ok =
    record !== null &&
    typeof record === 'object' &&
    !Array.isArray(record) &&
    meta?.schema === 1 &&
    typeof meta.seed === 'number' &&
    typeof meta.sequence === 'number' &&
    Object.entries(record).every(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (!ok) throw new StoreFileError(`${file} does not hold a sandbox world; it was left untouched`);
  const empty = emptyWorld(meta.seed, meta.size ?? 'default', collections) as unknown as Record<
    string,
    unknown
  >;
  for (const [key, initial] of Object.entries(empty)) {
    if (!(key in record)) record[key] = initial;
  }
}
