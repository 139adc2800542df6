import { existsSync } from 'node:fs';
import { DEFAULT_MANUAL_START } from '../lib/clock.js';
import { NORMAL_PACE, type PaceChange, type PaceOf, paceOf } from '../lib/pace.js';
import {
  checkFields,
  DEFAULT_MAX_WORLD_BYTES,
  estimatedSize,
  holdsFileContent,
  MAX_FIELD_CHARS,
  MAX_RECORD_BYTES,
  RecordTooLargeError,
  sizeOf,
  WorldFullError,
  WorldQuota,
} from './bounds.js';
import {
  type Materialized,
  type Materializers,
  type Registry,
  StoreFileError,
  WorldFile,
} from './file-adapter.js';
import {
  addOverlayOp,
  applyOverlay,
  diffOverlay,
  entriesOf,
  type GeneratedEntry,
  newEntry,
  type OverlayOp,
  opsOf,
  overlayDelta,
} from './generated.js';
import { type SharedDatasets, sharedDatasets } from './shared-datasets.js';
import { type PathOp, UnitOfWork } from './unit-of-work.js';
import { emptyWorld, type World } from './world.js';

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
export type { Materializers, Registry };
export { StoreFileError };

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
}

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
  /** The dataset at `collection[key]`, built on first use. See Store.materialize. */
  materialize<A, R extends object>(collection: string, key: string, args: A, build: (args: A) => R): R;
  /**
   * The dataset at `collection[key]` for a read in passing: the one in use when there is one, else
   * one built for this read alone, which is neither cached nor recorded. See Store.peek.
   */
  peek<A, R extends object>(collection: string, key: string, args: A, build: (args: A) => R): R;
  /**
   * Drops the generated datasets whose key starts with `prefix` (a consumer's, when it is deleted),
   * whether or not they are in memory. Inside a write, with that write.
   */
  forgetGenerated(prefix: string): void;
  /** The keys of a generated collection's datasets in use (built once, or changed by writes), in order. */
  generatedKeys(collection: string): string[];
  /**
   * A number that changes whenever a write changes the dataset at `collection[key]` (never the same
   * for two states in a process), or undefined when it is not in use: what background work keys its
   * notes on, to leave alone what did not change.
   */
  generatedRevision(collection: string, key: string): number | undefined;
  /** The arguments a generated dataset was first built with (undefined when none is in use). */
  generatedArgs(collection: string, key: string): unknown;
  /** The dataset in use at `collection[key]` (built again if it left the cache), or undefined. */
  open<R extends object>(collection: string, key: string): R | undefined;
  /** What the cache of generated datasets holds: datasets and bytes (as JSON), and its bound. */
  cacheUsage(): { datasets: number; bytes: number; limit: number };
  /**
   * The living datasets reached since the last call that a move of the clock dropped (at most
   * `limit`, the most recently reached first), as [collection, key]: what background work builds
   * again with `open`, so that the next read finds them built. Each is handed once.
   */
  takeDroppedLiving(limit: number): [collection: string, key: string][];
  /** Replaces the whole world. */
  replace(world: World, from?: Store): Promise<void>;
  /** The sandbox clock's day (YYYY-MM-DD). */
  today(): string;
  /**
   * The instant generated datasets are built for: the clock's time floored to the whole minute (ISO).
   * A living dataset holds what happened up to it; the store builds it again when the minute changes.
   */
  builtAt(): string;
  /** The factor of each day's generated business under the world's pace (see lib/pace.ts). */
  pace(): PaceOf;
}

/** The store as one write sees it: reads and writes go through the write's tracking view. */
class WriteScope implements WorldStore {
  readonly #root: Store;
  readonly #unit: UnitOfWork<World>;
  /** Writes of their own asked for during this one: they run once it ends, still in its turn. */
  readonly afterwards: (() => Promise<void>)[] = [];
  /** Prefixes of generated datasets the write drops (see forgetGenerated). */
  readonly forgotten: string[] = [];
  /** Whether the write is the sandbox's own bookkeeping (see WorldStore.bookkeeping). */
  ownBookkeeping = false;

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

  get quota(): WorldQuota {
    return this.#root.quota;
  }

  bookkeeping(): void {
    if (this.#unit.active) this.ownBookkeeping = true;
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

  materialize<A, R extends object>(collection: string, key: string, args: A, build: (args: A) => R): R {
    this.#root.materialize(collection, key, args, build);
    return (this.world as unknown as Record<string, Record<string, R>>)[collection]?.[key] as R;
  }

  peek<A, R extends object>(collection: string, key: string, args: A, build: (args: A) => R): R {
    return this.#root.peek(collection, key, args, build);
  }

  forgetGenerated(prefix: string): void {
    if (this.#unit.active && this.#unit.base === this.#root.world) this.forgotten.push(prefix);
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

  takeDroppedLiving(limit: number): [collection: string, key: string][] {
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

  pace(): PaceOf {
    return this.#root.pace();
  }
}

/**
 * The only owner of the world, and its write boundary.
 *
 * Reads use `store.world` directly. Every write runs in `transact()`: inside it `store.world` is a
 * tracking view, the write changes what it needs, and when it ends well exactly the values it
 * changed are appended to the journal (with a file) before `transact()` resolves; when it throws,
 * or its result is refused, every change is undone and nothing is persisted.
 *
 * Generated datasets (the collections `materialize()` is used on) are derived, not stored: the store
 * keeps, for each dataset in use, how to build it and the changes writes made to it (see
 * generated.ts), and holds the datasets themselves in a cache bounded by bytes, which drops the least
 * recently used between writes. A dataset that left the cache is built again, identically, when
 * next reached.
 */
/** A write committed in memory: its result, and its journal line's way to the disk. */
interface Written<T> {
  result: T;
  durable: Promise<void>;
}

const DONE: Promise<void> = Promise.resolve();

export class Store implements WorldStore {
  #world: World;
  readonly #file: WorldFile<World> | null;
  /** Datasets first used since the last line: the next line says how to build them. */
  #made: Materialized[] = [];
  readonly #listeners: CommitListener[] = [];
  readonly file: string | null;
  /** Whether a write holds the world, and the writes waiting for their turn, in order. */
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  /** How to build each generated dataset in use, and what writes changed in it. */
  #registry: Registry;
  /** The generated collections, and how to build their datasets. */
  readonly #builders = new Map<string, (args: never) => object>();
  readonly #seedBuilders: Materializers;
  /** The datasets in memory (collection NUL key), least recently used first, with their bytes. */
  #cache = new Map<string, number>();
  #cacheTotal = 0;
  readonly #cacheBytes: number;
  readonly quota: WorldQuota;
  /** Sizes (as JSON) of the records writes changed, as they are now: what the next change adds to. */
  #sizes = new Map<string, number>();
  /** The last revision given to a generated dataset (see generatedRevision). */
  #revision = 0;
  /** The generated collections that follow the clock's day, and the day those in memory were built for. */
  readonly #living: ReadonlySet<string>;
  /** The living datasets reached since the last warmLiving (ids), least recently reached first. */
  readonly #reached = new Set<string>();
  /** The minute (since the epoch) the living datasets in memory were built for. */
  #minute: number | null = null;
  /** The world's changes of pace the datasets in memory were built under, and their factors. */
  #paceChanges: readonly PaceChange[] | undefined;
  #paceOf: PaceOf = NORMAL_PACE;
  #builtChanges: readonly PaceChange[] | undefined;
  #builtUnder: string | null = null;
  /** Collections whose records their module bounds itself, with how it knows their size. */
  readonly #boundedElsewhere = new Map<string, (record: never) => number>();
  /** The datasets shared with the process's other stores, if any. */
  readonly #shared: SharedDatasets | null;
  /** The world's changes of pace as a key of shared datasets, and the changes it was made of. */
  #paceKeyOf: readonly PaceChange[] | undefined;
  #paceKey = '';

  /** The sandbox clock, once an app owns the store; until then its default start. */
  #now: () => Date = () => DEFAULT_MANUAL_START;

  private constructor(
    world: World,
    file: WorldFile<World> | null,
    registry: Registry,
    options: StoreOptions,
  ) {
    this.#world = world;
    this.#file = file;
    this.file = file?.file ?? null;
    this.#registry = registry;
    this.#seedBuilders = options.materializers ?? {};
    this.#cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    this.quota = new WorldQuota(
      options.maxWorldBytes ?? DEFAULT_MAX_WORLD_BYTES,
      () => this.#world.meta.client_bytes ?? 0,
    );
    this.#living = new Set(options.living ?? []);
    this.#shared = options.shared === undefined ? sharedDatasets : options.shared;
    for (const name of Object.keys(this.#seedBuilders)) this.#generatedCollection(name);
  }

  /** The world, untracked: a write reads and writes through the store it is handed. */
  get world(): World {
    return this.#world;
  }

  /** Outside a write there is nothing to mark (see WorldStore.bookkeeping). */
  bookkeeping(): void {}

  /** Lets datasets built on first use follow the sandbox clock (see `today`). */
  useClock(now: () => Date): void {
    this.#now = now;
  }

  today(): string {
    return this.#now().toISOString().slice(0, 10);
  }

  builtAt(): string {
    // The minute the datasets in memory were built for, while a write holds them (see #followDay).
    const minute = this.#minute ?? Math.floor(this.#now().getTime() / 60_000);
    return new Date(minute * 60_000).toISOString();
  }

  pace(): PaceOf {
    const changes = this.#world.sandbox_state?.pace?.changes;
    if (changes !== this.#paceChanges) {
      this.#paceChanges = changes;
      this.#paceOf = paceOf(changes);
    }
    return this.#paceOf;
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
  static async file(
    file: string,
    makeWorld: () => World,
    options: StoreOptions & { readOnly?: boolean; materializers: Materializers; compactAfterBytes?: number },
  ): Promise<Store> {
    const generated = Object.keys(options.materializers);
    const adapter = new WorldFile<World>(file, generated, options.compactAfterBytes);
    if (!options.readOnly) adapter.lock();
    try {
      const read = await adapter.read();
      let world: World;
      let registry: Registry = new Map();
      if (read === null) {
        if (existsSync(file))
          throw new StoreFileError(`${file} is empty or unreadable; it was left untouched`);
        world = makeWorld();
        if (!options.readOnly) adapter.writeNow(world, registry);
      } else {
        world = read.world;
        registry = read.registry;
        assertWorld(world, file, generated);
        // A file of the first format is converted before anything else is written to it.
        if (!options.readOnly && read.migrated) adapter.writeNow(world, registry);
      }
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
    this.#boundedElsewhere.set(collection, size as (record: never) => number);
  }

  /** The size of a record as the world's bound counts it (0 for none). */
  #recordSize(collection: string, record: unknown): number {
    if (record === undefined) return 0;
    const size = this.#boundedElsewhere.get(collection);
    return size ? size(record as never) : sizeOf(record);
  }

  /** The world and its generated datasets, as a snapshot writes them. */
  #state(): { world: World; registry: Registry } {
    return { world: this.#world, registry: this.#registry };
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
      this.#followDay();
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
      this.#evict();
      this.#followDay();
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
      const id = `${collection}\u0000${key}`;
      if (this.#builders.has(collection) || this.#sizes.has(id) || before.has(id)) return;
      before.set(id, this.#recordSize(collection, (this.#world as unknown as Bags)[collection]?.[key]));
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
    const { forgotten } = scope;
    unit.finish();
    // A reset replaced the world while this write ran: what it changed is gone with the old world.
    if (unit.base !== this.#world) return DONE;
    const ops = unit.ops();
    for (const prefix of forgotten) {
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
    if (ops.length === 0) return DONE;
    let change: Change;
    try {
      change = this.#change(ops, before, !scope.ownBookkeeping);
    } catch (error) {
      unit.rollback();
      if (error instanceof WorldFullError || error instanceof RecordTooLargeError) throw error;
      throw new UnstorableChangeError(error);
    }
    const meta = this.#world.meta;
    const previous = meta.client_bytes;
    meta.client_bytes = change.used;
    if (this.#file) {
      const made = this.#made;
      let line: string;
      try {
        line = this.#file.line(meta, change.pieces, made);
      } catch (error) {
        meta.client_bytes = previous;
        unit.rollback();
        throw new UnstorableChangeError(error);
      }
      this.#commit(change);
      this.#made = [];
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

  /** Tells the commit listeners which collections a write changed. */
  #told(ops: readonly PathOp[]): void {
    if (this.#listeners.length === 0) return;
    const collections = new Set(ops.map((op) => op.p[0] as string));
    for (const listener of this.#listeners) listener(collections);
  }

  /**
   * What a write's ops become: the journal's pieces (each value serialized once), the changes of
   * generated datasets, the new sizes of the records changed, and the bytes clients then hold. Throws
   * when a record is too large or the world would hold more than it may (unless `enforced` is false:
   * the sandbox's own bookkeeping); changes nothing itself.
   */
  #change(ops: readonly PathOp[], before: Map<string, number>, enforced: boolean): Change {
    const pieces: string[] = [];
    const overlays = new Map<string, OverlayChanges>();
    const records = new Set<string>();
    for (const op of ops) {
      const [collection, key] = op.p as [string, string | undefined];
      const generated = key !== undefined && this.#builders.has(collection);
      // Serialized once, and only for what needs it: the journal, and a generated dataset's changes
      // (a record's fields are checked on the record below, whose size is measured anyway).
      const json = 'v' in op && (this.#file !== null || generated) ? JSON.stringify(op.v) : undefined;
      if (this.#file) pieces.push(`{"p":${JSON.stringify(op.p)}${json === undefined ? '' : `,"v":${json}`}}`);
      if (key === undefined) continue;
      if (generated) {
        if (json !== undefined && json.length > MAX_FIELD_CHARS && !this.#boundedElsewhere.has(collection))
          checkFields(op.p, op.v);
        const id = `${collection}\u0000${key}`;
        let changes = overlays.get(id);
        if (!changes) {
          changes = { collection, key, ops: [], gone: false };
          overlays.set(id, changes);
        }
        changes.ops.push(json === undefined ? { p: op.p.slice(2) } : { p: op.p.slice(2), j: json });
      } else {
        records.add(`${collection}\u0000${key}`);
      }
    }
    let added = 0;
    const sizes = new Map<string, number>();
    for (const id of records) {
      const [collection, key] = id.split('\u0000') as [string, string];
      const record = (this.#world as unknown as Bags)[collection]?.[key];
      const size = this.#recordSize(collection, record);
      const bounded = !this.#boundedElsewhere.has(collection);
      if (bounded && size > MAX_FIELD_CHARS) checkFields([collection, key], record);
      if (bounded && size > MAX_RECORD_BYTES && !holdsFileContent(record))
        throw new RecordTooLargeError([collection, key], size, MAX_RECORD_BYTES);
      added += size - (this.#sizes.get(id) ?? before.get(id) ?? 0);
      sizes.set(id, size);
    }
    for (const changes of overlays.values()) {
      const current = this.#registry.get(changes.collection)?.get(changes.key);
      if (changes.ops.some((op) => op.p.length === 0 && op.j === undefined)) {
        changes.gone = true;
        added -= current?.bytes ?? 0;
        continue;
      }
      // The paths of one write never lie one below another: each change counts on its own.
      for (const op of changes.ops) added += overlayDelta(current, op);
    }
    const used = Math.max(0, (this.#world.meta.client_bytes ?? 0) + added);
    if (added > 0 && enforced) this.quota.check(used);
    return { pieces, overlays, sizes, used };
  }

  /** Makes a change computed by #change the store's own. */
  #commit(change: Change): void {
    for (const [id, size] of change.sizes) this.#sizes.set(id, size);
    for (const [id, { collection, key, ops, gone }] of change.overlays) {
      const entries = this.#entriesOf(collection);
      if (gone) {
        entries.delete(key);
        this.#uncache(id);
        continue;
      }
      let entry = entries.get(key);
      if (!entry) {
        entry = newEntry(null);
        entries.set(key, entry);
      }
      for (const op of ops) addOverlayOp(entry, op);
      entry.rev = ++this.#revision;
      const value = (this.#world as unknown as Bags)[collection]?.[key];
      if (value !== undefined && !this.#cache.has(id)) this.#cached(id, value);
    }
  }

  #entriesOf(collection: string): Map<string, GeneratedEntry> {
    return entriesOf(this.#registry, collection);
  }

  /**
   * Marks a collection as generated. Datasets it already holds without an entry (a world handed over
   * with its data) are kept whole: their content is what the world says they are.
   */
  #generatedCollection(collection: string, build?: (args: never) => object): void {
    if (this.#builders.has(collection)) return;
    const seeded = this.#seedBuilders[collection];
    const fallback = seeded
      ? (args: never) => seeded(this.#world.meta.seed, args, this.builtAt(), this.pace())
      : () => ({});
    this.#builders.set(collection, build ?? fallback);
    const records = (this.#world as unknown as Bags)[collection];
    if (!records) return;
    const entries = this.#entriesOf(collection);
    for (const [key, value] of Object.entries(records)) {
      const id = `${collection}\u0000${key}`;
      if (!entries.has(key)) {
        const entry = newEntry(null);
        addOverlayOp(entry, { p: [], j: JSON.stringify(value) });
        entries.set(key, entry);
      }
      if (!this.#cache.has(id)) this.#cached(id, value);
    }
  }

  /**
   * The dataset at `collection[key]`, built by `build(args)` the first time it is asked for: a pure
   * function of the seed and `args`, which the world keeps (the next journal line records them).
   * Later it is built again from the arguments of its first use and the changes writes made, when it
   * left the cache. It is not part of any write: a write that fails keeps it.
   */
  materialize<A, R extends object>(collection: string, key: string, args: A, build: (args: A) => R): R {
    const records = (this.#world as unknown as Record<string, Record<string, R>>)[collection];
    if (!records) throw new Error(`unknown collection ${collection}`);
    this.#generatedCollection(collection, build as (args: never) => object);
    this.#followDay();
    const id = `${collection}\u0000${key}`;
    if (this.#living.has(collection)) {
      this.#reached.delete(id);
      this.#reached.add(id);
    }
    const found = records[key];
    if (found) {
      this.#touch(id);
      return found;
    }
    const entries = this.#entriesOf(collection);
    let entry = entries.get(key);
    let value: R;
    if (entry) {
      value = this.#rebuild(collection, entry, build as (args: unknown) => R);
    } else {
      entry = newEntry(args);
      entries.set(key, entry);
      value = this.#generate(collection, args, build, true);
      if (this.#file) this.#made.push({ c: collection, k: key, a: args });
    }
    records[key] = value;
    this.#cached(id, value);
    this.#evict(id);
    return value;
  }

  /** The dataset at `collection[key]` for a read in passing: in use, built again, or built for it alone. */
  peek<A, R extends object>(collection: string, key: string, args: A, build: (args: A) => R): R {
    this.#followDay();
    const records = (this.#world as unknown as Record<string, Record<string, R>>)[collection];
    const found = records?.[key];
    if (found) return found;
    const entry = this.#registry.get(collection)?.get(key);
    return entry
      ? this.#rebuild(collection, entry, build as (args: unknown) => R)
      : this.#generate(collection, args, build, false);
  }

  open<R extends object>(collection: string, key: string): R | undefined {
    const entry = this.#registry.get(collection)?.get(key);
    const build = this.#builders.get(collection);
    if (!entry || !build) return undefined;
    // Background work opens datasets too: only a client's reach counts for takeDroppedLiving.
    const reached = this.#reached.has(`${collection}\u0000${key}`);
    const value = this.materialize(collection, key, entry.args, (args) => build(args as never) as R);
    if (!reached) this.#reached.delete(`${collection}\u0000${key}`);
    return value;
  }

  /**
   * Bytes the world holds beyond its seed: what clients wrote, what the app keeps for it outside it
   * (see WorldQuota), and the generated datasets cached.
   */
  get heldBytes(): number {
    return (this.#world.meta.client_bytes ?? 0) + this.quota.outside + this.#cacheTotal;
  }

  generatedKeys(collection: string): string[] {
    return [...(this.#registry.get(collection)?.keys() ?? [])];
  }

  generatedArgs(collection: string, key: string): unknown {
    return this.#registry.get(collection)?.get(key)?.args ?? undefined;
  }

  generatedRevision(collection: string, key: string): number | undefined {
    const entry = this.#registry.get(collection)?.get(key);
    if (!entry) return undefined;
    entry.rev ??= ++this.#revision;
    return entry.rev;
  }

  forgetGenerated(prefix: string): void {
    void this.transact((scope) => scope.forgetGenerated(prefix));
  }

  #rebuild<R extends object>(collection: string, entry: GeneratedEntry, build: (args: unknown) => R): R {
    if (entry.args === null) return (applyOverlay(undefined, opsOf(entry)) ?? build(entry.args)) as R;
    // The changes go to copies of the objects they change: the generated base may be shared.
    const base = this.#generate(collection, entry.args, build, true);
    return entry.ops.size === 0 ? base : ((applyOverlay(base, opsOf(entry)) ?? build(entry.args)) as R);
  }

  /**
   * The dataset `build(args)` makes, shared with the process's other stores: the one they built for
   * the same inputs, else built now (and shared when `share`). Frozen: writes change a copy.
   */
  #generate<A, R extends object>(collection: string, args: A, build: (args: A) => R, share: boolean): R {
    const shared = this.#shared;
    const key = this.#sharedKey(collection, args);
    if (key === undefined || !shared) return build(args);
    const found = shared.get(key.key);
    if (found) return found as R;
    const value = build(args);
    if (share) shared.put(key.key, value, estimatedSize(value), key.family);
    return value;
  }

  /**
   * What a dataset of `collection` built with `args` is a function of, as one key: the collection,
   * the seed and the arguments (its family), and for a living collection the minute and the world's
   * pace. None for a collection built by a builder the store was not handed (its inputs are unknown).
   */
  #sharedKey(collection: string, args: unknown): { key: string; family: string } | undefined {
    if (!this.#shared || !this.#seedBuilders[collection]) return undefined;
    const family = `${collection}\u0000${this.#world.meta.seed}\u0000${JSON.stringify(args)}`;
    if (!this.#living.has(collection)) return { key: family, family };
    const changes = this.#world.sandbox_state?.pace?.changes;
    if (changes !== this.#paceKeyOf) {
      this.#paceKeyOf = changes;
      this.#paceKey = JSON.stringify(changes ?? []);
    }
    return { key: `${family}\u0000${this.builtAt()}\u0000${this.#paceKey}`, family };
  }

  #cached(id: string, value: unknown): void {
    const shared = value !== null && typeof value === 'object' ? this.#shared?.bytesOf(value) : undefined;
    const bytes = shared ?? estimatedSize(value);
    this.#cacheTotal += bytes - (this.#cache.get(id) ?? 0);
    this.#cache.delete(id);
    this.#cache.set(id, bytes);
  }

  /**
   * Drops the datasets of the living collections built for another minute than the clock's (they are
   * built again, for now, when next used); never while a write holds the world, whose datasets
   * stay as it found them until it ends.
   */
  #followDay(): void {
    if (this.#busy || this.#living.size === 0) return;
    // The minute as a number: every read of a dataset asks, and formatting a date is not free.
    const minute = Math.floor(this.#now().getTime() / 60_000);
    const changes = this.#world.sandbox_state?.pace?.changes;
    if (minute === this.#minute && changes === this.#builtChanges) return;
    this.#builtChanges = changes;
    // A record written again with the same changes builds nothing again.
    const under = JSON.stringify(changes ?? []);
    if (minute === this.#minute && under === this.#builtUnder) return;
    this.#minute = minute;
    this.#builtUnder = under;
    for (const id of [...this.#cache.keys()]) {
      const [collection, key] = id.split('\u0000') as [string, string];
      if (!this.#living.has(collection)) continue;
      const records = (this.#world as unknown as Bags)[collection];
      if (records) delete records[key];
      this.#uncache(id);
    }
  }

  #touch(id: string): void {
    const bytes = this.#cache.get(id);
    if (bytes === undefined) return;
    this.#cache.delete(id);
    this.#cache.set(id, bytes);
  }

  #uncache(id: string): void {
    const bytes = this.#cache.get(id);
    if (bytes === undefined) return;
    this.#cache.delete(id);
    this.#cacheTotal -= bytes;
  }

  /**
   * Drops the least recently used datasets past the cache's bytes, `keep` aside; never while a write
   * holds the world (it may hold one of them), but as soon as it ends.
   */
  #evict(keep?: string): void {
    if (this.#busy || this.#cacheTotal <= this.#cacheBytes) return;
    for (const [id, bytes] of this.#cache) {
      if (this.#cacheTotal <= this.#cacheBytes) break;
      if (id === keep) continue;
      const [collection, key] = id.split('\u0000') as [string, string];
      const records = (this.#world as unknown as Bags)[collection];
      if (records) delete records[key];
      this.#cache.delete(id);
      this.#cacheTotal -= bytes;
    }
  }

  /** What the cache holds: datasets and bytes (as JSON). */
  cacheUsage(): { datasets: number; bytes: number; limit: number } {
    return { datasets: this.#cache.size, bytes: this.#cacheTotal, limit: this.#cacheBytes };
  }

  takeDroppedLiving(limit: number): [collection: string, key: string][] {
    this.#followDay();
    const taken: [string, string][] = [];
    for (const id of [...this.#reached].reverse()) {
      if (taken.length >= limit) break;
      if (this.#cache.has(id)) continue;
      taken.push(id.split('\u0000') as [string, string]);
    }
    this.#reached.clear();
    return taken;
  }

  /**
   * Replaces the whole world (the reset control endpoint, fixtures loaded with `replace`) and saves it
   * as a snapshot. The datasets `world` holds come with it: with the arguments `from` built them
   * with (a scratch store the world was made in), kept as their changes over what those build; else
   * whole.
   */
  async replace(world: World, from?: Store): Promise<void> {
    this.#world = world;
    this.#made = [];
    this.#registry = new Map();
    this.#cache = new Map();
    this.#cacheTotal = 0;
    this.#sizes = new Map();
    let used = 0;
    for (const [collection, build] of this.#builders) {
      const records = (world as unknown as Bags)[collection] ?? {};
      const entries = this.#entriesOf(collection);
      for (const [key, value] of Object.entries(records)) {
        const args = (from ? from.#registry : undefined)?.get(collection)?.get(key)?.args ?? null;
        const ops =
          args === null ? [{ p: [], j: JSON.stringify(value) }] : diffOverlay(build(args as never), value);
        const entry = newEntry(args);
        for (const op of ops) addOverlayOp(entry, op);
        entries.set(key, entry);
        used += entry.bytes;
        this.#cached(`${collection}\u0000${key}`, value);
      }
    }
    if (from) {
      for (const [name, records] of Object.entries(world)) {
        if (name === 'meta' || this.#builders.has(name)) continue;
        for (const record of Object.values(records as Record<string, unknown>))
          used += this.#recordSize(name, record);
      }
    }
    world.meta.client_bytes = used;
    if (this.#file) await this.#file.snapshot(world, this.#registry);
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

/** A write's ops as the store keeps them: see Store.#change. */
interface Change {
  pieces: string[];
  overlays: Map<string, OverlayChanges>;
  sizes: Map<string, number>;
  used: number;
}

/** A write's changes of one generated dataset; `gone` when the write removed the dataset whole. */
interface OverlayChanges {
  collection: string;
  key: string;
  ops: OverlayOp[];
  gone: boolean;
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
