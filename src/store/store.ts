import type { PaceOf } from '../lib/pace.js';
import { DEFAULT_MAX_WORLD_BYTES, RecordTooLargeError, WorldFullError, WorldQuota } from './bounds.js';
import { BuildClock } from './build-clock.js';
import { idOf } from './dataset-cache.js';
import { type Materializers, type Registry, StoreFileError, WorldFile } from './file-adapter.js';
import { GeneratedDatasets } from './generated-datasets.js';
import { RecordSizes } from './record-sizes.js';
import { DEFAULT_CACHE_BYTES, type StoreOptions } from './store-options.js';
import { type PathOp, UnitOfWork } from './unit-of-work.js';
import type { World } from './world.js';
import { readStoreFile, type StoreFileOptions } from './world-file-open.js';
import {
  type CommitListener,
  type RootStore,
  type WorldStore,
  type Write,
  WriteScope,
} from './world-store.js';
import { type Change, changeOf, UnstorableChangeError } from './write-change.js';

export {
  DEFAULT_MAX_WORLD_BYTES,
  estimatedSize,
  FILE_CONTENT_FIELDS,
  MAX_FIELD_CHARS,
  MAX_RECORD_BYTES,
  RecordTooLargeError,
  WorldFullError,
  WorldQuota,
} from './bounds.js';
export { UnstorableChangeError } from './write-change.js';
export type { CommitListener, Materializers, Registry, StoreFileOptions, WorldStore, Write };
export { DEFAULT_CACHE_BYTES, StoreFileError, type StoreOptions };

/** A write committed in memory: its result, and its journal line's way to the disk. */
interface Written<T> {
  result: T;
  durable: Promise<void>;
}

const DONE: Promise<void> = Promise.resolve();

/**
 * The only owner of the world, and its write boundary.
 *
 * Reads use `store.world` directly. Every write runs in `transact()`: inside it `store.world` is a
 * tracking view, the write changes what it needs, and when it ends well exactly the values it
 * changed are appended to the journal (with a file) before `transact()` resolves; when it throws,
 * or its result is refused, every change is undone and nothing is persisted.
 *
 * Generated datasets (the collections handed a builder) are derived, not stored: the store keeps,
 * for each dataset a write changed, its arguments and those changes, and holds the datasets in a
 * cache bounded by bytes (generated-datasets.ts); what they are built for besides the seed (origin,
 * minute, pace) is its clock's (build-clock.ts). A write's change is measured and bounded in
 * write-change.ts, with the sizes of the records writes changed (record-sizes.ts).
 */
export class Store implements RootStore {
  #world: World;
  readonly #file: WorldFile<World> | null;
  readonly #listeners: CommitListener[] = [];
  readonly file: string | null;
  /** Whether a write holds the world, and the writes waiting for their turn, in order. */
  #busy = false;
  readonly #waiting: (() => void)[] = [];
  readonly quota: WorldQuota;
  readonly #clock: BuildClock;
  readonly #datasets: GeneratedDatasets;
  readonly #sizes = new RecordSizes();

  private constructor(
    world: World,
    file: WorldFile<World> | null,
    registry: Registry,
    options: StoreOptions,
  ) {
    this.#world = world;
    this.#file = file;
    this.file = file?.file ?? null;
    this.quota = new WorldQuota(
      options.maxWorldBytes ?? DEFAULT_MAX_WORLD_BYTES,
      () => this.#world.meta.client_bytes ?? 0,
    );
    this.#clock = new BuildClock(() => this.#world);
    this.#datasets = new GeneratedDatasets(
      () => this.#world,
      () => this.#busy,
      this.#clock,
      registry,
      options,
    );
  }

  /** The world, untracked: a write reads and writes through the store it is handed. */
  get world(): World {
    return this.#world;
  }

  /** Outside a write there is nothing to mark (see WorldStore.bookkeeping). */
  bookkeeping(): void {}

  /**
   * Hands a store made without builders (by hand: Store.memory(world)) those of the app's verticals
   * and the collections that live; a store that has builders keeps its own.
   */
  useBuilders(materializers: Materializers, living: readonly string[]): void {
    this.#datasets.useBuilders(materializers, living);
  }

  /** Lets datasets built on first use follow the sandbox clock (see `today`). */
  useClock(now: () => Date): void {
    this.#clock.use(now);
  }

  today(): string {
    return this.#clock.today();
  }

  builtAt(): string {
    return this.#clock.builtAt();
  }

  origin(): string {
    return this.#clock.origin();
  }

  /**
   * Gives a world that has no origin (one just made) the instant its clock starts at; with a file,
   * a line of its journal keeps it. A world that has an origin keeps it.
   */
  startAt(instant: Date): void {
    if (this.#world.meta.origin !== undefined) return;
    this.#world.meta.origin = instant.toISOString();
    if (!this.#file) return;
    const file = this.#file;
    file.append(file.line(this.#world.meta, [], [])).catch((error: unknown) => {
      console.error('[unified-api-sandbox] the world file could not keep its origin:', error);
    });
  }

  pace(): PaceOf {
    return this.#clock.pace();
  }

  static memory(world: World, options: StoreOptions = {}): Store {
    return new Store(world, null, new Map(), options);
  }

  /**
   * Opens a world file (and replays its journal) and locks it for this process. A missing file is
   * created from `makeWorld()`; an unreadable or corrupt one, or one another live server holds, is
   * refused with a StoreFileError and left as it is; one of the first format (a single JSON object)
   * is converted once. `readOnly` opens without writing or locking anything (the env command).
   * `materializers` are the builders of the generated collections (the verticals', handed by whoever
   * opens the file: the store knows no vertical); their names are the collections a file written by
   * an older version may lack.
   */
  static async file(file: string, makeWorld: () => World, options: StoreFileOptions): Promise<Store> {
    const adapter = new WorldFile<World>(file, Object.keys(options.materializers), options.compactAfterBytes);
    if (!options.readOnly) adapter.lock();
    try {
      const { world, registry } = await readStoreFile(adapter, makeWorld, options);
      const store = new Store(world, options.readOnly ? null : adapter, registry, options);
      // The journal found is folded into the snapshot in the background, in slices between
      // requests, so that the file stands alone again: the server answers meanwhile (a large
      // world's snapshot takes a second or more to write).
      if (!options.readOnly && adapter.hasJournal()) adapter.compactIfLarge(() => store.#state(), true);
      return store;
    } catch (error) {
      adapter.unlock();
      throw error;
    }
  }

  /**
   * Leaves the records of a collection out of the bounds on a field and a record: its module bounds
   * them itself (the custom routes' records, say), and keeps their size, which `size` reads (they
   * still count in the world's bound, without serializing a large record at every write).
   */
  boundedElsewhere<R>(collection: string, size: (record: R) => number): void {
    this.#sizes.boundElsewhere(collection, size);
  }

  /** The world and its generated datasets, as a snapshot writes them. */
  #state(): { world: World; registry: Registry } {
    return { world: this.#world, registry: this.#datasets.registry };
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
      this.#datasets.followDay();
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

  /**
   * The writer's turn: the write, then the writes it asked to follow it, then the next in line. The
   * next writer starts as soon as this one's change is committed in memory and its journal line is
   * queued, not once the line is on disk: lines reach the disk in order, so writes waiting for their
   * fsync share one (group commit), and each write still resolves only once its line is on disk.
   */
  async #turn<T>(work: Write<T>, keep: (result: T) => boolean): Promise<T> {
    let written: Written<T>;
    try {
      written = await this.#write(work, keep);
    } finally {
      // Between two turns no write holds a dataset: the cache is trimmed there, even when writes
      // keep coming (the next starts in a later microtask).
      this.#busy = false;
      this.#datasets.evict();
      this.#datasets.followDay();
      const next = this.#waiting.shift();
      if (next) {
        this.#busy = true;
        next();
      }
    }
    await written.durable;
    return written.result;
  }

  /** One write within the current turn (never call it outside one: see transact); resolves once on disk. */
  async runWrite<T>(work: Write<T>, keep: (result: T) => boolean = () => true): Promise<T> {
    const written = await this.#write(work, keep);
    await written.durable;
    return written.result;
  }

  /** A write committed in memory, with its journal line on its way to the disk (`durable`). */
  async #write<T>(work: Write<T>, keep: (result: T) => boolean): Promise<Written<T>> {
    const before = new Map<string, number>();
    const unit = new UnitOfWork(this.#world, (collection, key) => {
      const id = idOf(collection, key);
      if (this.#datasets.isGenerated(collection) || this.#sizes.has(id) || before.has(id)) return;
      before.set(id, this.#sizes.of(collection, (this.#world as unknown as Bags)[collection]?.[key]));
    });
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
        return { result, durable: DONE };
      }
      const durable = this.#persist(unit, scope, before);
      // Awaited by the turn, after the writes that follow this one: handled meanwhile.
      durable.catch(() => undefined);
      return { result, durable };
    } finally {
      for (const after of scope.afterwards) await after();
    }
  }

  /**
   * Commits a finished write in memory and queues its journal line; throws (having rolled back) when
   * the change cannot be stored. The promise resolves once the line is on disk.
   */
  #persist(unit: UnitOfWork<World>, scope: WriteScope, before: Map<string, number>): Promise<void> {
    unit.finish();
    // A reset replaced the world while this write ran: what it changed is gone with the old world.
    if (unit.base !== this.#world) return DONE;
    const ops = unit.ops();
    this.#datasets.forget(scope.forgotten, ops);
    if (ops.length === 0) return DONE;
    let change: Change;
    try {
      change = changeOf(ops, before, !scope.ownBookkeeping, {
        world: this.#world,
        journaled: this.#file !== null,
        sizes: this.#sizes,
        quota: this.quota,
        isGenerated: (collection) => this.#datasets.isGenerated(collection),
        entry: (collection, key) => this.#datasets.entry(collection, key),
      });
    } catch (error) {
      unit.rollback();
      if (error instanceof WorldFullError || error instanceof RecordTooLargeError) throw error;
      throw new UnstorableChangeError(error);
    }
    const meta = this.#world.meta;
    const previous = meta.client_bytes;
    meta.client_bytes = change.used;
    if (this.#file) {
      let line: string;
      try {
        line = this.#file.line(meta, change.pieces, this.#datasets.firstChanged(change.overlays));
      } catch (error) {
        meta.client_bytes = previous;
        unit.rollback();
        throw new UnstorableChangeError(error);
      }
      this.#commit(change);
      const file = this.#file;
      return file.append(line).then(() => {
        file.compactIfLarge(() => this.#state());
        this.#told(ops);
      });
    }
    this.#commit(change);
    this.#told(ops);
    return DONE;
  }

  /** Makes a change computed by changeOf the store's own. */
  #commit(change: Change): void {
    for (const [id, size] of change.sizes) this.#sizes.set(id, size);
    this.#datasets.commit(change.overlays);
  }

  /** Tells the commit listeners which collections a write changed. */
  #told(ops: readonly PathOp[]): void {
    if (this.#listeners.length === 0) return;
    const collections = new Set(ops.map((op) => op.p[0] as string));
    for (const listener of this.#listeners) listener(collections);
  }

  /**
   * The dataset at `collection[key]`: the one in memory; else, for a dataset writes changed, built
   * again from the arguments kept with its changes and those changes; else built by the
   * collection's builder from `args` (a pure function of the seed, the world's origin, `args` and,
   * living, the minute and pace), at once. Nothing is recorded of a dataset only read: it is kept in
   * memory (the cache) and built again, identically, once it left it. It is not part of any write:
   * a write that fails keeps it.
   */
  materialize<R extends object>(collection: string, key: string, args: unknown): R {
    return this.#datasets.materialize(collection, key, args);
  }

  /** The dataset at `collection[key]` for a read in passing: in memory, built again, or built for it alone. */
  peek<R extends object>(collection: string, key: string, args: unknown): R {
    return this.#datasets.peek(collection, key, args);
  }

  /**
   * Builds the dataset at `collection[key]` in slices (lib/slices.ts) and keeps it in memory, as
   * materialize would at once; undefined when there is nothing to build (in memory, or shared). The
   * reads of it meanwhile share the build; one that ends after the clock moved on (or the world was
   * replaced) is done again for the new minute, twice at most, then left to materialize.
   */
  prepare(collection: string, key: string, args: unknown): Promise<void> | undefined {
    return this.#datasets.prepare(collection, key, args);
  }

  /**
   * Builds the dataset a `peek` of `collection[key]` would build at once, in slices, and holds it for
   * that peek alone (kept nowhere else); undefined when the peek will find it anyway (in memory,
   * shared, written whole). The key of its inputs names the clock's minute and the pace: a peek after
   * they changed builds again, at once, as it always did.
   */
  preparePeek(collection: string, key: string, args: unknown): Promise<void> | undefined {
    return this.#datasets.preparePeek(collection, key, args);
  }

  open<R extends object>(collection: string, key: string): R | undefined {
    return this.#datasets.open(collection, key);
  }

  /**
   * Bytes the world holds beyond its seed: what clients wrote, what the app keeps for it outside it
   * (see WorldQuota), and the generated datasets cached.
   */
  get heldBytes(): number {
    return (this.#world.meta.client_bytes ?? 0) + this.quota.outside + this.#datasets.cache.total;
  }

  generatedKeys(collection: string): string[] {
    return this.#datasets.keys(collection);
  }

  generatedArgs(collection: string, key: string): unknown {
    return this.#datasets.args(collection, key);
  }

  generatedRevision(collection: string, key: string): number | undefined {
    return this.#datasets.revision(collection, key);
  }

  forgetGenerated(prefix: string): void {
    void this.transact((scope) => scope.forgetGenerated(prefix));
  }

  /** What the cache holds: datasets and bytes (as JSON). */
  cacheUsage(): { datasets: number; bytes: number; limit: number } {
    return this.#datasets.cache.usage();
  }

  takeDroppedLiving(limit: number): [collection: string, key: string, args: unknown][] {
    return this.#datasets.takeDroppedLiving(limit);
  }

  /**
   * Replaces the whole world (the reset control endpoint, fixtures loaded with `replace`) and saves it
   * as a snapshot. The datasets `world` holds come with it: with the arguments `from` built them
   * with (a scratch store the world was made in, which changed them directly), kept as their changes
   * over what those build (nothing, for one it did not change); else whole.
   */
  async replace(world: World, from?: Store): Promise<void> {
    this.#world = world;
    this.#sizes.clear();
    let used = this.#datasets.replace(from ? from.#datasets : undefined);
    if (from) {
      for (const [name, records] of Object.entries(world)) {
        if (name === 'meta' || this.#datasets.isGenerated(name)) continue;
        for (const record of Object.values(records as Record<string, unknown>))
          used += this.#sizes.of(name, record);
      }
    }
    world.meta.client_bytes = used;
    if (this.#file) await this.#file.snapshot(world, this.#datasets.registry);
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

type Bags = Record<string, Record<string, unknown>>;
