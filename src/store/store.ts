import { existsSync } from 'node:fs';
import { livingSpanEnd } from '../lib/budgets.js';
import { DEFAULT_MANUAL_START } from '../lib/clock.js';
import { NORMAL_PACE, type PaceChange, type PaceOf, paceOf } from '../lib/pace.js';
import { giveTurn } from '../lib/slices.js';
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
import { BuildsInFlight, type Built, builtAtOnce, builtInSlices } from './dataset-builds.js';
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
import { DEFAULT_CACHE_BYTES, type StoreOptions } from './store-options.js';
import { type PathOp, UnitOfWork } from './unit-of-work.js';
import type { World } from './world.js';
import { assertWorld } from './world-check.js';
import {
  type CommitListener,
  type RootStore,
  type WorldStore,
  type Write,
  WriteScope,
} from './world-store.js';

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
export type { CommitListener, Materializers, Registry, WorldStore, Write };
export { DEFAULT_CACHE_BYTES, StoreFileError, type StoreOptions };

/** The origin of a world that has none: the default manual clock's start. */
const DEFAULT_ORIGIN = DEFAULT_MANUAL_START.toISOString();

const idOf = (collection: string, key: string): string => `${collection}\u0000${key}`;

/** Why a write was not kept: its change could not be serialized for the journal. */
export class UnstorableChangeError extends Error {
  constructor(cause: unknown) {
    super(`The change cannot be stored: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'UnstorableChangeError';
  }
}

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
 * Generated datasets (the collections handed a builder) are derived, not stored: a dataset is a
 * function of the seed, its arguments, the world's origin and (living) the minute and pace it is
 * built for. The store keeps, for each dataset a write changed, its arguments and those changes
 * (see generated.ts), nothing for one only read, and holds the datasets themselves in a cache
 * bounded by bytes, which drops the least recently used between writes. A dataset that left the
 * cache is built again, identically, when next reached.
 */
export class Store implements RootStore {
  #world: World;
  readonly #file: WorldFile<World> | null;
  readonly #listeners: CommitListener[] = [];
  readonly file: string | null;
  /** Whether a write holds the world, and the writes waiting for their turn, in order. */
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  /** How to build each generated dataset writes changed, and what they changed in it. */
  #registry: Registry;
  /** The arguments of the datasets in memory that no write changed (by id). */
  #argsOf = new Map<string, unknown>();
  /** The generated collections, and how to build their datasets. */
  readonly #builders = new Map<string, (args: unknown) => Built>();
  #seedBuilders: Materializers;
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
  #living: ReadonlySet<string>;
  /** The living datasets reached since the last takeDroppedLiving, least recently first, with their args. */
  readonly #reached = new Map<string, unknown>();
  /** The builds under way in slices (see prepare). */
  readonly #inFlight = new BuildsInFlight();
  /** The last day of living business datasets are built for, for the origin it was computed from. */
  #spanEnd: { origin: string; end: string } | null = null;
  /** The minute (since the epoch) the living datasets in memory were built for. */
  #minute: number | null = null;
  /** The changes of pace the datasets in memory were built under, and their factors. */
  #paceChanges: readonly PaceChange[] | undefined;
  #paceOf: PaceOf = NORMAL_PACE;
  #builtChanges: readonly PaceChange[] | undefined;
  #builtUnder: string | null = null;
  /** Collections whose records their module bounds itself, with how it knows their size. */
  readonly #boundedElsewhere = new Map<string, (record: never) => number>();
  /** The datasets shared with the process's other stores, if any. */
  readonly #shared: SharedDatasets | null;
  /** The world's changes of pace as a key of shared datasets, and the changes it was made of. */
  /**
   * The dataset last built in slices for a read in passing (preparePeek), by the key of its inputs,
   * for the peek that follows it: one at a time, so a read over many connections holds one more.
   */
  #passing: { key: string; value: object } | undefined;
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

  /**
   * Hands a store made without builders (by hand: Store.memory(world)) those of the app's verticals
   * and the collections that live; a store that has builders keeps its own.
   */
  useBuilders(materializers: Materializers, living: readonly string[]): void {
    if (Object.keys(this.#seedBuilders).length > 0) return;
    this.#seedBuilders = materializers;
    this.#living = new Set(living);
    for (const name of Object.keys(materializers)) {
      this.#builders.delete(name);
      this.#generatedCollection(name);
    }
  }

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

  origin(): string {
    return this.#world.meta.origin ?? DEFAULT_ORIGIN;
  }

  /**
   * The instant datasets are built for: builtAt(), but never past the span of living days a world
   * may have after its origin (lib/budgets.ts): a system clock that drifts past it over real years
   * finds the business stopped there.
   */
  #buildAt(): string {
    const at = this.builtAt();
    const origin = this.origin();
    if (this.#spanEnd?.origin !== origin) this.#spanEnd = { origin, end: livingSpanEnd(origin) };
    return at > this.#spanEnd.end ? this.#spanEnd.end : at;
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
        // A file written before worlds had an origin takes one from what it holds (see upgrade).
        const upgraded = world.meta.origin === undefined && (options.upgrade?.(world, registry) ?? false);
        // A file of the first format, or of the time before origins, is written again before
        // anything else is written to it.
        if (!options.readOnly && (read.migrated || upgraded)) adapter.writeNow(world, registry);
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
      let line: string;
      try {
        line = this.#file.line(meta, change.pieces, this.#firstChanged(change));
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

  /**
   * The datasets a write changes for the first time, with the arguments they were built with: the
   * journal line says how to build them before the changes it holds.
   */
  #firstChanged(change: Change): Materialized[] {
    const made: Materialized[] = [];
    for (const [id, { collection, key, gone }] of change.overlays) {
      if (gone || this.#registry.get(collection)?.has(key)) continue;
      made.push({ c: collection, k: key, a: this.#argsOf.get(id) ?? null });
    }
    return made;
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
        entry = newEntry(this.#argsOf.get(id) ?? null);
        this.#argsOf.delete(id);
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
  #generatedCollection(collection: string): void {
    if (this.#builders.has(collection)) return;
    const seeded = this.#seedBuilders[collection];
    this.#builders.set(
      collection,
      seeded
        ? (args) => seeded(this.#world.meta.seed, args as never, this.#buildAt(), this.pace(), this.origin())
        : () => ({}),
    );
    const records = (this.#world as unknown as Bags)[collection];
    if (!records) return;
    const entries = this.#entriesOf(collection);
    for (const [key, value] of Object.entries(records)) {
      const id = idOf(collection, key);
      if (!entries.has(key)) {
        const entry = newEntry(null);
        addOverlayOp(entry, { p: [], j: JSON.stringify(value) });
        entries.set(key, entry);
      }
      if (!this.#cache.has(id)) this.#cached(id, value);
    }
  }

  #records<R>(collection: string): Record<string, R> {
    const records = (this.#world as unknown as Record<string, Record<string, R>>)[collection];
    if (!records) throw new Error(`unknown collection ${collection}`);
    return records;
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
    const records = this.#records<R>(collection);
    this.#generatedCollection(collection);
    this.#followDay();
    const id = idOf(collection, key);
    if (this.#living.has(collection)) {
      this.#reached.delete(id);
      this.#reached.set(id, args);
    }
    const found = records[key];
    if (found) {
      this.#touch(id);
      return found;
    }
    const entry = this.#registry.get(collection)?.get(key);
    const value = (entry ? this.#rebuild(collection, entry) : this.#generate(collection, args, true)) as R;
    this.#keep(collection, key, entry ? undefined : args, value);
    return value;
  }

  /** Keeps a dataset in memory (`args`: those of a dataset no write changed). */
  #keep(collection: string, key: string, args: unknown, value: object): void {
    const id = idOf(collection, key);
    this.#records<object>(collection)[key] = value;
    if (args !== undefined) this.#argsOf.set(id, args);
    this.#cached(id, value);
    this.#evict(id);
  }

  /** The dataset at `collection[key]` for a read in passing: in memory, built again, or built for it alone. */
  peek<R extends object>(collection: string, key: string, args: unknown): R {
    this.#generatedCollection(collection);
    this.#followDay();
    const found = (this.#world as unknown as Record<string, Record<string, R>>)[collection]?.[key];
    if (found) return found;
    const entry = this.#registry.get(collection)?.get(key);
    return (entry ? this.#rebuild(collection, entry) : this.#generate(collection, args, false)) as R;
  }

  /**
   * Builds the dataset at `collection[key]` in slices (lib/slices.ts) and keeps it in memory, as
   * materialize would at once; undefined when there is nothing to build (in memory, or shared). The
   * reads of it meanwhile share the build; one that ends after the clock moved on (or the world was
   * replaced) is done again for the new minute, twice at most, then left to materialize.
   */
  prepare(collection: string, key: string, args: unknown): Promise<void> | undefined {
    this.#generatedCollection(collection);
    this.#followDay();
    if (this.#records(collection)[key] !== undefined) return undefined;
    const entry = this.#registry.get(collection)?.get(key);
    if (entry?.args === null) return undefined;
    if (this.#shared?.get(this.#inputsOf(collection, entry ? entry.args : args).key)) return undefined;
    return this.#inFlight.share(idOf(collection, key), () => this.#buildInSlices(collection, key, args));
  }

  /**
   * Builds the dataset a `peek` of `collection[key]` would build at once, in slices, and holds it for
   * that peek alone (kept nowhere else); undefined when the peek will find it anyway (in memory,
   * shared, written whole). The key of its inputs names the clock's minute and the pace: a peek after
   * they changed builds again, at once, as it always did.
   */
  preparePeek(collection: string, key: string, args: unknown): Promise<void> | undefined {
    this.#generatedCollection(collection);
    this.#followDay();
    if (this.#records(collection)[key] !== undefined) return undefined;
    const entry = this.#registry.get(collection)?.get(key);
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
      const world = this.#world;
      if (this.#records(collection)[key] !== undefined) return;
      const entry = this.#registry.get(collection)?.get(key);
      const use = entry ? entry.args : args;
      const inputs = this.#inputsOf(collection, use);
      const base = this.#shared?.get(inputs.key) ?? (await builtInSlices(this.#builderOf(collection)(use)));
      // Measured and shared in a piece, kept in the next (each walks a large dataset).
      if (this.#inputsOf(collection, use).key === inputs.key) this.#share(collection, inputs, base);
      await giveTurn();
      this.#followDay();
      if (world !== this.#world || this.#records(collection)[key] !== undefined) return;
      const now = this.#registry.get(collection)?.get(key);
      if (this.#inputsOf(collection, use).key !== inputs.key || (now && now.args !== use)) continue;
      const value = now && now.ops.size > 0 ? (applyOverlay(base, opsOf(now)) ?? base) : base;
      this.#keep(collection, key, now ? undefined : args, value);
      return;
    }
  }

  open<R extends object>(collection: string, key: string): R | undefined {
    const entry = this.#registry.get(collection)?.get(key);
    if (!entry || !this.#builders.has(collection)) return undefined;
    // Background work opens datasets too: only a client's reach counts for takeDroppedLiving.
    const id = idOf(collection, key);
    const reached = this.#reached.has(id);
    const value = this.materialize<R>(collection, key, entry.args);
    if (!reached) this.#reached.delete(id);
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
    const { seed } = this.#world.meta;
    const family = `${collection}\u0000${seed}\u0000${this.origin()}\u0000${JSON.stringify(args)}`;
    if (!this.#living.has(collection)) return { key: family, family };
    const changes = this.#world.sandbox_state?.pace?.changes;
    if (changes !== this.#paceKeyOf) {
      this.#paceKeyOf = changes;
      this.#paceKey = JSON.stringify(changes ?? []);
    }
    return { key: `${family}\u0000${this.#buildAt()}\u0000${this.#paceKey}`, family };
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
    this.#argsOf.delete(id);
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
    for (const id of [...this.#cache.keys()]) {
      if (this.#cacheTotal <= this.#cacheBytes) break;
      if (id === keep) continue;
      const [collection, key] = id.split('\u0000') as [string, string];
      const records = (this.#world as unknown as Bags)[collection];
      if (records) delete records[key];
      this.#uncache(id);
    }
  }

  /** What the cache holds: datasets and bytes (as JSON). */
  cacheUsage(): { datasets: number; bytes: number; limit: number } {
    return { datasets: this.#cache.size, bytes: this.#cacheTotal, limit: this.#cacheBytes };
  }

  takeDroppedLiving(limit: number): [collection: string, key: string, args: unknown][] {
    this.#followDay();
    const taken: [string, string, unknown][] = [];
    for (const [id, args] of [...this.#reached].reverse()) {
      if (taken.length >= limit) break;
      if (this.#cache.has(id)) continue;
      const [collection, key] = id.split('\u0000') as [string, string];
      taken.push([collection, key, args]);
    }
    this.#reached.clear();
    return taken;
  }

  /**
   * Replaces the whole world (the reset control endpoint, fixtures loaded with `replace`) and saves it
   * as a snapshot. The datasets `world` holds come with it: with the arguments `from` built them
   * with (a scratch store the world was made in, which changed them directly), kept as their changes
   * over what those build (nothing, for one it did not change); else whole.
   */
  async replace(world: World, from?: Store): Promise<void> {
    this.#world = world;
    this.#registry = new Map();
    this.#argsOf = new Map();
    this.#cache = new Map();
    this.#cacheTotal = 0;
    this.#sizes = new Map();
    let used = 0;
    for (const collection of this.#builders.keys()) {
      const records = (world as unknown as Bags)[collection] ?? {};
      const entries = this.#entriesOf(collection);
      for (const [key, value] of Object.entries(records)) {
        const id = idOf(collection, key);
        const kept = from ? from.#registry.get(collection)?.get(key) : undefined;
        const args = kept ? kept.args : ((from ? from.#argsOf.get(id) : undefined) ?? null);
        const ops =
          args === null
            ? [{ p: [], j: JSON.stringify(value) }]
            : diffOverlay(builtAtOnce(this.#builderOf(collection)(args)), value);
        this.#cached(id, value);
        if (ops.length === 0 && args !== null) {
          this.#argsOf.set(id, args);
          continue;
        }
        const entry = newEntry(args);
        for (const op of ops) addOverlayOp(entry, op);
        entries.set(key, entry);
        used += entry.bytes;
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
