import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Adapter } from 'lowdb';
import type { PaceOf } from '../lib/pace.js';
import { addOverlayOp, entriesOf, newEntry, type OverlayOp, opsOf, type Registry } from './generated.js';
import { applyOp, type PathOp } from './unit-of-work.js';

export class StoreFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreFileError';
  }
}

/** A dataset built from the seed on first use: journaled as how to build it, not as its content. */
export interface Materialized {
  /** Collection and key of the record. */
  c: string;
  k: string;
  /** What the builder needs besides the seed. */
  a: unknown;
}

/**
 * How each generated collection's datasets are built: from the seed, their arguments, the clock's
 * day and the world's pace (for the collections whose business goes on with the clock).
 */
export type Materializers = Readonly<
  Record<string, (seed: number, args: never, at: string, pace: PaceOf) => object>
>;

export type { Registry };

/** What a world file holds once read: the world, and its generated datasets as how to build them. */
export interface WorldRead<T> {
  world: T;
  registry: Registry;
  /** Read from a file of the first format (one JSON object), to be written again in this one. */
  migrated: boolean;
}

/** The head line of a world file: what it is, and the world's meta block and collections. */
export const WORLD_FORMAT = 'unified-api-sandbox world';
export const WORLD_VERSION = 2;

/** One journal line: the write's changes, the datasets built before them, the meta block after it. */
interface JournalLine {
  seq: number;
  meta: Record<string, unknown>;
  ops?: PathOp[];
  mk?: Materialized[];
  /** Lines of the first journal format: whole records set and removed, by collection. */
  set?: Record<string, Record<string, unknown>>;
  del?: Record<string, string[]>;
}

/** The parts of a world this file needs to know: a meta block, and collections of records. */
interface Journaled {
  meta: { seed: number; journal_seq?: number };
}

/** A journal that grows past this many bytes is compacted into the snapshot, in the background. */
export const COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

/** The largest journal line a single write may produce. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** Records serialized between two yields of a background snapshot, and the bytes written at once. */
const RECORDS_PER_SLICE = 256;
const SLICE_BYTES = 1024 * 1024;

/** A world and its generated datasets, as a snapshot writes them. */
export interface Snapshot<T> {
  world: T;
  registry: Registry;
}

/** One line of a snapshot: its head, a record, a generated dataset, or its last line. */
interface SnapshotLine {
  format?: string;
  version?: number;
  meta?: unknown;
  collections?: string[];
  c?: string;
  k?: string;
  v?: unknown;
  a?: unknown;
  o?: { p: string[]; v?: unknown }[];
  end?: boolean;
  records?: number;
}

/**
 * The lines of a snapshot: a head (format, version, the meta block with the last journal line it
 * holds, the collections), one line per record (`{"c","k","v"}`) and per generated dataset in use
 * (`{"c","k","a","o"}`: its arguments and its changes), and a last line counting them.
 */
function* snapshotLines<T extends Journaled>(
  state: Snapshot<T>,
  seq: number,
  generated: ReadonlySet<string>,
): Generator<string> {
  const collections = state.world as unknown as Record<string, Record<string, unknown>>;
  const names = Object.keys(collections).filter((name) => name !== 'meta');
  const meta = { ...state.world.meta, journal_seq: seq };
  yield `${JSON.stringify({ format: WORLD_FORMAT, version: WORLD_VERSION, meta, collections: names })}\n`;
  let count = 0;
  for (const name of names) {
    const c = JSON.stringify(name);
    if (generated.has(name)) {
      for (const [key, entry] of state.registry.get(name) ?? []) {
        const ops = opsOf(entry).map(
          (op) => `{"p":${JSON.stringify(op.p)}${op.j === undefined ? '' : `,"v":${op.j}`}}`,
        );
        count += 1;
        yield `{"c":${c},"k":${JSON.stringify(key)},"a":${JSON.stringify(entry.args) ?? 'null'},"o":[${ops.join(',')}]}\n`;
      }
      continue;
    }
    for (const [key, record] of Object.entries(collections[name] ?? {})) {
      count += 1;
      yield `{"c":${c},"k":${JSON.stringify(key)},"v":${JSON.stringify(record)}}\n`;
    }
  }
  yield `{"end":true,"records":${count}}\n`;
}

/** The first bytes of a file (to tell its format), or '' when it is empty. */
function sniff(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const read = readSync(fd, buffer, 0, 16, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A change of a generated dataset, replayed: its entry's ops grow, or it goes. */
function changeGenerated(registry: Registry, collection: string, key: string, op: OverlayOp): void {
  const entries = entriesOf(registry, collection);
  if (op.p.length === 0 && op.j === undefined) {
    entries.delete(key);
    return;
  }
  let entry = entries.get(key);
  if (!entry) {
    entry = newEntry(null);
    entries.set(key, entry);
  }
  addOverlayOp(entry, op);
}

const overlayOf = (op: { p: string[]; v?: unknown }): OverlayOp =>
  'v' in op ? { p: op.p, j: JSON.stringify(op.v) } : { p: op.p };

/** Stores a value as an own, ordinary property, whatever its key (`__proto__` included). */
function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * The world file, its journal and its lock.
 *
 * - `<file>`: a snapshot of the whole world, replaced atomically (temporary file, fsync, rename).
 * - `<file>.journal`: one line per committed write, with a sequence number; an append resolves
 *   once it is fsynced. Appends that arrive while one is on its way share the next fsync (group
 *   commit). The snapshot records the last sequence number it holds, so replay skips older lines.
 * - Compaction: when the journal passes COMPACT_AFTER_BYTES it is renamed to `<file>.journal.old`
 *   and a new snapshot is written in slices between requests. The snapshot may already hold changes
 *   of lines newer than its sequence number; replaying them again is harmless, since a line sets
 *   values and removes keys (idempotent). Once the snapshot is in place the old journal goes.
 * - `<file>.lock`: the process id of the server holding the file and a random token; a second server
 *   is refused while that process lives. `<file>.lock.*.claim` exist for an instant while a stale
 *   lock is taken over.
 *
 * Every step of the disk (appends, snapshots, the journal's rotation) runs on one chain, in order.
 */
export class WorldFile<T extends Journaled> implements Adapter<WorldRead<T>> {
  readonly file: string;
  readonly #temp: string;
  readonly #journal: string;
  readonly #oldJournal: string;
  readonly #lock: string;
  /** The generated collections: kept as how to build their datasets and what writes changed. */
  readonly #generated: ReadonlySet<string>;
  #seq = 0;
  #journalBytes = 0;
  #handle: FileHandle | null = null;
  #chain: Promise<void> = Promise.resolve();
  #queue: { text: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #draining = false;
  #compacting: Promise<void> | null = null;
  /** Bumped by every full snapshot: a compaction begun before one is dropped. */
  #generation = 0;
  #locked = false;
  /** The random token written in the lock by this instance: what tells our lock from another's. */
  #nonce = '';

  readonly #compactAfter: number;

  constructor(file: string, generated: Iterable<string> = [], compactAfterBytes = COMPACT_AFTER_BYTES) {
    this.file = file;
    this.#compactAfter = compactAfterBytes;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
    this.#journal = `${file}.journal`;
    this.#oldJournal = `${file}.journal.old`;
    this.#lock = `${file}.lock`;
    this.#generated = new Set(generated);
  }

  get journalFile(): string {
    return this.#journal;
  }

  /** The sequence number of the last line written (or replayed). */
  get seq(): number {
    return this.#seq;
  }

  /**
   * Takes the file for this process. A lock left by a process that no longer runs (a crash) is taken
   * over; one held by a live process is refused. Servers started at the same time on a stale lock
   * agree on a single holder: the lock is only ever made by an exclusive create, and a stale one is
   * only removed by the one process that won the claim on it (see #breakStale).
   */
  lock(): void {
    const nonce = randomBytes(16).toString('hex');
    const mine = `${process.pid} ${nonce}\n`;
    let last: LockSeen | null = null;
    let pauseFirst = false;
    for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
      if (pauseFirst) pause(LOCK_PAUSE_MS * (1 + Math.random()));
      pauseFirst = true;
      if (this.#createExclusive(this.#lock, mine)) {
        // Nothing but a takeover judging this process dead may replace the file; check anyway.
        if (this.#readLock(this.#lock)?.nonce !== nonce) continue;
        this.#nonce = nonce;
        this.#locked = true;
        this.#sweepClaims();
        return;
      }
      const seen = this.#readLock(this.#lock);
      if (seen === null) {
        pauseFirst = false; // released meanwhile: try again at once
        continue;
      }
      last = seen;
      const state = holderState(seen);
      if (state === 'live') throw this.#inUse(seen.pid as number);
      if (state === 'unsure') continue;
      // Removing the stale lock ends this attempt; the next one creates ours, unless another wins.
      if (this.#breakStale(seen, mine)) pauseFirst = false;
    }
    if (last && last.pid !== null && holderState(last) === 'live') throw this.#inUse(last.pid);
    throw new StoreFileError(
      `${this.file} is held by another sandbox starting at the same time; try again, or give this one another --db file`,
    );
  }

  unlock(): void {
    if (!this.#locked) return;
    this.#locked = false;
    try {
      // Another process may have taken over a lock it judged stale: only ours is removed.
      if (this.#readLock(this.#lock)?.nonce === this.#nonce) unlinkSync(this.#lock);
    } catch {
      // already gone
    }
  }

  #inUse(pid: number): StoreFileError {
    return new StoreFileError(
      `${this.file} is in use by another sandbox (process ${pid}); stop it, or give this one another --db file`,
    );
  }

  /** Creates `path` holding `text`, durably; false when it already exists. */
  #createExclusive(path: string, text: string): boolean {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new StoreFileError(`Cannot lock ${this.file}: ${(error as Error).message}`);
    }
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    syncDirectory(path);
    return true;
  }

  /** Reads a lock or claim file, or null when there is none. */
  #readLock(path: string): LockSeen | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(`Cannot lock ${this.file}: ${(error as Error).message}`);
    }
    try {
      // One descriptor for both: the text and the file's identity belong to the same file.
      const stat = fstatSync(fd);
      const text = readFileSync(fd, 'utf8');
      // Written in one go and ended by a newline; without it, the file is still being written
      // (or its writer died first).
      const complete = text.endsWith('\n');
      const [pidText, nonce] = text.trim().split(/\s+/);
      const pid = /^\d+$/.test(pidText ?? '') ? Number(pidText) : null;
      return {
        identity: `${stat.dev}:${stat.ino}:${stat.mtimeMs}:${text}`,
        pid: pid !== null && pid > 0 && Number.isSafeInteger(pid) ? pid : null,
        nonce: complete ? (nonce ?? null) : null,
        complete,
        ageMs: Date.now() - stat.mtimeMs,
      };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Removes the stale lock `seen`, when this process wins the right to. Reading a lock, judging it
   * stale and removing it are separate steps; a process that removed a lock by name after another had
   * already replaced it would take a live lock away. So the removal is done only by the one process
   * that creates the claim file named after that very lock (an exclusive create: one winner), and
   * only after checking, claim in hand, that the lock is still that one. While the claim exists no
   * one else can change that lock: its holder is dead, and every other process fails to claim it.
   * True when the stale lock is gone.
   */
  #breakStale(seen: LockSeen, mine: string): boolean {
    const claims = this.#claim(seen, mine, 0);
    if (claims === null) return false;
    try {
      if (this.#readLock(this.#lock)?.identity !== seen.identity) return false;
      unlinkSync(this.#lock);
      syncDirectory(this.#lock);
      return true;
    } finally {
      for (const claim of claims) removeQuietly(claim);
    }
  }

  /**
   * Claims the file read as `seen`: returns the claim files to remove once done (in order), or null
   * when another process holds the claim or the file changed. A claim left by a process that died
   * before finishing is taken over the same way, through a claim on that claim.
   */
  #claim(seen: LockSeen, mine: string, depth: number): string[] | null {
    const path = `${this.#lock}.${createHash('sha256').update(seen.identity).digest('hex').slice(0, 16)}.claim`;
    if (this.#createExclusive(path, mine)) return [path];
    const other = this.#readLock(path);
    if (other === null || depth >= MAX_CLAIM_DEPTH || holderState(other) !== 'dead') return null;
    const deeper = this.#claim(other, mine, depth + 1);
    if (deeper === null) return null;
    if (this.#readLock(path)?.identity !== other.identity) {
      for (const claim of deeper) removeQuietly(claim);
      return null;
    }
    // The dead claimant's file goes first, while ours still keeps others off it.
    return [path, ...deeper];
  }

  /**
   * Removes claims that crashed processes left. Once this process holds the lock, every other lock
   * the claims were about is gone for good, so none of them can still be acted on.
   */
  #sweepClaims(): void {
    const prefix = `${basename(this.#lock)}.`;
    let names: string[];
    try {
      names = readdirSync(dirname(this.#lock));
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith(prefix) && name.endsWith('.claim')) removeQuietly(join(dirname(this.#lock), name));
    }
  }

  /**
   * Reads the snapshot (either format) and replays the journals after it. Null when there is no
   * file. A snapshot of this format is read line by line, so its size is bounded by the disk, not by
   * the longest string the runtime can hold.
   */
  async read(): Promise<WorldRead<T> | null> {
    let head: string;
    try {
      head = sniff(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(`Cannot read ${this.file}: ${(error as Error).message}`);
    }
    if (head.length === 0) return null;
    const read = head.startsWith('{"format"') ? await this.#readLines() : this.#readFirstFormat();
    const { world, registry } = read;
    // The sequence goes on from the snapshot's even when the journal is missing: a line numbered
    // at or below it would be skipped by the next replay.
    this.#seq = world.meta?.journal_seq ?? 0;
    await this.#replay(world, registry, this.#oldJournal);
    await this.#replay(world, registry, this.#journal);
    return read;
  }

  /** A snapshot of this format: a head line, then one line per record or generated dataset. */
  async #readLines(): Promise<WorldRead<T>> {
    const bad = (why: string) =>
      new StoreFileError(`${this.file} is not a valid sandbox world (${why}); it was left untouched`);
    const lines = createInterface({ input: createReadStream(this.file, 'utf8'), crlfDelay: Infinity });
    let world: Record<string, Record<string, unknown>> | null = null;
    const registry: Registry = new Map();
    let ended = false;
    let count = 0;
    try {
      for await (const text of lines) {
        if (!text) continue;
        let line: SnapshotLine;
        try {
          line = JSON.parse(text) as SnapshotLine;
        } catch (error) {
          throw bad((error as Error).message);
        }
        if (world === null) {
          if (
            line.format !== WORLD_FORMAT ||
            typeof line.meta !== 'object' ||
            !Array.isArray(line.collections)
          )
            throw bad('no head line');
          if (line.version !== WORLD_VERSION)
            throw new StoreFileError(
              `${this.file} was written by another version of the sandbox (world file version ${String(line.version)}); it was left untouched`,
            );
          world = { meta: line.meta as Record<string, unknown> };
          for (const name of line.collections) world[name] = {};
          continue;
        }
        if (line.end === true) {
          if (line.records !== count) throw bad(`${count} records where the file says ${line.records}`);
          ended = true;
          break;
        }
        if (typeof line.c !== 'string' || typeof line.k !== 'string') throw bad('a line without its record');
        count += 1;
        if (this.#generated.has(line.c)) {
          world[line.c] ??= {};
          const entry = newEntry(line.a ?? null);
          for (const op of line.o ?? []) addOverlayOp(entry, overlayOf(op));
          entriesOf(registry, line.c).set(line.k, entry);
        } else {
          world[line.c] ??= {};
          setOwnKey(world[line.c] as Record<string, unknown>, line.k, line.v);
        }
      }
    } finally {
      lines.close();
    }
    if (world === null || !ended) throw bad('it ends before its last line');
    return { world: world as unknown as T, registry, migrated: false };
  }

  /**
   * A snapshot of the first format: the whole world as one JSON object, generated datasets included.
   * Its datasets are kept whole (the arguments they were built with are not in it); the file is
   * written again in this format once opened.
   */
  #readFirstFormat(): WorldRead<T> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      throw new StoreFileError(
        `Cannot read ${this.file}: ${(error as Error).message}; a world file of the first format this large cannot be converted, start from a new --db file`,
      );
    }
    let world: T;
    try {
      world = JSON.parse(text) as T;
    } catch (error) {
      throw new StoreFileError(
        `${this.file} is not a valid sandbox world (${(error as Error).message}); it was left untouched`,
      );
    }
    const registry: Registry = new Map();
    if (world === null || typeof world !== 'object' || Array.isArray(world) || typeof world.meta !== 'object')
      return { world, registry, migrated: true };
    const collections = world as unknown as Record<string, Record<string, unknown>>;
    for (const name of this.#generated) {
      const records = collections[name];
      if (records === null || typeof records !== 'object') continue;
      const entries = entriesOf(registry, name);
      for (const [key, value] of Object.entries(records)) {
        const entry = newEntry(null);
        addOverlayOp(entry, { p: [], j: JSON.stringify(value) });
        entries.set(key, entry);
      }
      collections[name] = {};
    }
    return { world, registry, migrated: true };
  }

  /** Applies the lines of a journal file newer than the snapshot. */
  async #replay(world: T, registry: Registry, journal: string): Promise<void> {
    if (!existsSync(journal)) return;
    const snapshotSeq = world.meta.journal_seq ?? 0;
    const collections = world as unknown as Record<string, Record<string, unknown>>;
    // Line by line, as the snapshot: a journal is never read as one string.
    const lines = createInterface({ input: createReadStream(journal, 'utf8'), crlfDelay: Infinity });
    try {
      for await (const text of lines) {
        if (!text) continue;
        let line: JournalLine;
        try {
          line = JSON.parse(text) as JournalLine;
        } catch {
          break; // a torn last line: never acknowledged
        }
        if (typeof line?.seq !== 'number') break;
        if (line.seq <= snapshotSeq) continue;
        for (const made of line.mk ?? []) {
          if (!this.#generated.has(made.c)) continue;
          const entries = entriesOf(registry, made.c);
          if (!entries.has(made.k)) entries.set(made.k, newEntry(made.a));
        }
        for (const op of line.ops ?? []) {
          const [name, key] = op.p;
          if (name !== undefined && key !== undefined && this.#generated.has(name)) {
            changeGenerated(registry, name, key, {
              p: op.p.slice(2),
              ...('v' in op ? { j: JSON.stringify(op.v) } : {}),
            });
          } else {
            applyOp(world, op);
          }
        }
        for (const [name, records] of Object.entries(line.set ?? {})) {
          collections[name] ??= {};
          for (const [key, value] of Object.entries(records)) {
            if (this.#generated.has(name))
              changeGenerated(registry, name, key, { p: [], j: JSON.stringify(value) });
            else setOwnKey(collections[name] as Record<string, unknown>, key, value);
          }
        }
        for (const [name, ids] of Object.entries(line.del ?? {})) {
          for (const id of ids) {
            if (this.#generated.has(name)) registry.get(name)?.delete(id);
            else delete collections[name]?.[id];
          }
        }
        Object.assign(world.meta, line.meta);
        this.#seq = Math.max(this.#seq, line.seq);
      }
    } finally {
      lines.close();
    }
  }

  /** Whether opening the file found a journal to fold into the snapshot. */
  hasJournal(): boolean {
    return existsSync(this.#journal) || existsSync(this.#oldJournal);
  }

  /**
   * Serializes one write's line, numbered next, from its changes serialized once (`{"p":…,"v":…}`).
   * Throws (and numbers nothing) when the line is larger than MAX_LINE_BYTES.
   */
  line(meta: object, pieces: readonly string[], made: Materialized[]): string {
    const seq = this.#seq + 1;
    const mk = made.length > 0 ? `,"mk":${JSON.stringify(made)}` : '';
    const text = `{"seq":${seq},"meta":${JSON.stringify(meta)}${mk},"ops":[${pieces.join(',')}]}\n`;
    if (text.length > MAX_LINE_BYTES) throw new RangeError(`a journal line of ${text.length} bytes`);
    this.#seq = seq;
    return text;
  }

  /** Appends a line made by line(); resolves once it is on disk. */
  append(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ text, resolve, reject });
      if (this.#draining) return;
      this.#draining = true;
      this.#chain = this.#chain.then(() => this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      const text = batch.map((entry) => entry.text).join('');
      try {
        this.#handle ??= await open(this.#journal, 'a');
        await this.#handle.write(text);
        await this.#handle.datasync();
        this.#journalBytes += Buffer.byteLength(text);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.#draining = false;
  }

  /**
   * Starts a background compaction when the journal has grown past the threshold (or `now`: the
   * journal an opening found). `state` gives the world and its registry as they are when each slice
   * is written.
   */
  compactIfLarge(state: () => Snapshot<T>, now = false): void {
    if (this.#compacting || (!now && this.#journalBytes <= this.#compactAfter)) return;
    this.#compacting = this.#compact(state).finally(() => {
      this.#compacting = null;
    });
    this.#compacting.catch((error) => {
      console.error('[unified-api-sandbox] compaction of the world file failed:', error);
    });
  }

  /** Resolves when no compaction runs (tests and close() wait for it). */
  async settled(): Promise<void> {
    await this.#chain;
    await this.#compacting?.catch(() => undefined);
    await this.#chain;
  }

  async #compact(state: () => Snapshot<T>): Promise<void> {
    let upTo = 0;
    let generation = 0;
    // Rotate between two appends: every line up to `upTo` is in the old journal, the rest in a new one.
    await this.#enqueue(async () => {
      await this.#closeJournal();
      if (existsSync(this.#oldJournal)) {
        // A compaction that failed left its journal: keep its lines ahead of the current ones.
        if (existsSync(this.#journal)) appendFileSync(this.#oldJournal, readFileSync(this.#journal));
        await unlink(this.#journal).catch(() => undefined);
      } else if (existsSync(this.#journal)) {
        await rename(this.#journal, this.#oldJournal);
      }
      this.#journalBytes = 0;
      upTo = this.#seq;
      generation = this.#generation;
    });
    const written = await this.#writeSnapshot(state(), upTo, () => generation !== this.#generation);
    if (!written) return;
    await this.#enqueue(async () => {
      if (generation !== this.#generation) return;
      await rename(this.#temp, this.file);
      syncDirectory(this.file);
      await unlink(this.#oldJournal).catch(() => undefined);
    });
  }

  /**
   * Writes the snapshot to the temporary file in slices, yielding to requests between them. Returns
   * false when `stale()` says a newer snapshot made it pointless.
   */
  async #writeSnapshot(state: Snapshot<T>, seq: number, stale: () => boolean): Promise<boolean> {
    const handle = await open(this.#temp, 'w');
    try {
      let buffer = '';
      let count = 0;
      for (const line of snapshotLines(state, seq, this.#generated)) {
        buffer += line;
        count += 1;
        if (count % RECORDS_PER_SLICE === 0 || buffer.length > SLICE_BYTES) {
          await handle.write(buffer);
          buffer = '';
          await yieldToRequests();
          if (stale()) return false;
        }
      }
      if (buffer.length > 0) await handle.write(buffer);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return !stale();
  }

  /**
   * Writes the whole world as the new snapshot, after every append before it, and empties the
   * journals: the reset control endpoint, and a world replaced as a whole.
   */
  snapshot(world: T, registry: Registry): Promise<void> {
    return this.#enqueue(async () => {
      this.#generation += 1;
      const handle = await open(this.#temp, 'w');
      try {
        let buffer = '';
        for (const line of snapshotLines({ world, registry }, this.#seq, this.#generated)) {
          buffer += line;
          if (buffer.length > SLICE_BYTES) {
            await handle.write(buffer);
            buffer = '';
          }
        }
        if (buffer.length > 0) await handle.write(buffer);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(this.#temp, this.file);
      syncDirectory(this.file);
      await this.#closeJournal();
      await unlink(this.#journal).catch(() => undefined);
      await unlink(this.#oldJournal).catch(() => undefined);
      this.#journalBytes = 0;
    });
  }

  /** lowdb's write: a full snapshot. */
  write(data: WorldRead<T>): Promise<void> {
    return this.snapshot(data.world, data.registry);
  }

  /** Synchronous snapshot, used when a world is created or a journal folded before the server listens. */
  writeNow(world: T, registry: Registry): void {
    const fd = openSync(this.#temp, 'w');
    try {
      let buffer = '';
      for (const line of snapshotLines({ world, registry }, this.#seq, this.#generated)) {
        buffer += line;
        if (buffer.length > SLICE_BYTES) {
          writeSync(fd, buffer);
          buffer = '';
        }
      }
      if (buffer.length > 0) writeSync(fd, buffer);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(this.#temp, this.file);
    syncDirectory(this.file);
    for (const journal of [this.#journal, this.#oldJournal]) {
      if (existsSync(journal)) unlinkSync(journal);
    }
    this.#journalBytes = 0;
  }

  /** Waits for every write, closes the journal and gives the lock back. */
  async close(): Promise<void> {
    await this.settled();
    await this.#enqueue(() => this.#closeJournal());
    this.unlock();
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const done = this.#chain.then(step);
    this.#chain = done.catch(() => undefined);
    return done;
  }

  async #closeJournal(): Promise<void> {
    const handle = this.#handle;
    this.#handle = null;
    await handle?.close();
  }
}

/** A lock (or claim) file as read: who wrote it, and what tells it apart from any other. */
interface LockSeen {
  /** The file and its content: differs for every lock ever made, even one with the same text. */
  identity: string;
  pid: number | null;
  nonce: string | null;
  complete: boolean;
  ageMs: number;
}

/** How many times lock() starts over after losing a race for the lock, and the pause between tries. */
const LOCK_ATTEMPTS = 40;
const LOCK_PAUSE_MS = 10;
/** A lock file is written within microseconds of its creation; an unfinished one older than this was abandoned. */
const UNFINISHED_LOCK_MS = 1000;
/** How deep a chain of takeovers, each interrupted by a crash, is followed. */
const MAX_CLAIM_DEPTH = 4;

/**
 * Whether the writer of a lock or claim file still runs. Its own process counts as gone: a world file
 * reopened by the process that holds it is taken over, as it always was.
 */
function holderState(seen: LockSeen): 'live' | 'dead' | 'unsure' {
  if (!seen.complete && seen.ageMs < UNFINISHED_LOCK_MS) return 'unsure';
  if (seen.pid === null || seen.pid === process.pid) return 'dead';
  return processLives(seen.pid) ? 'live' : 'dead';
}

/** Blocks this thread: lock() runs once, at start, before anything else waits on it. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function processLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes a rename in the folder durable. */
function syncDirectory(file: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dirname(file), 'r');
    fsyncSync(fd);
  } catch {
    // some file systems refuse to sync a folder; the rename itself is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
