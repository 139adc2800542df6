import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
} from 'node:fs';
import { type FileHandle, rename, unlink } from 'node:fs/promises';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Adapter } from 'lowdb';
import {
  AtomicFile,
  appendSafely,
  openAppend,
  openOwnSync,
  UnsafeFileError,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../lib/file-writer.js';
import type { PaceOf } from '../lib/pace.js';
import type { Built } from './dataset-builds.js';
import { StoreFileError } from './file-errors.js';
import { FileLock } from './file-lock.js';
import { opsOf, type Registry } from './generated.js';
import {
  readFirstFormat,
  readSnapshot,
  replayJournal,
  WORLD_FORMAT,
  WORLD_VERSION,
  type WorldRead,
} from './world-file-read.js';

export { StoreFileError, WORLD_FORMAT, WORLD_VERSION, type WorldRead };

/** A dataset a write changes for the first time: journaled as how to build it, not as its content. */
export interface Materialized {
  /** Collection and key of the record. */
  c: string;
  k: string;
  /** What the builder needs besides the seed. */
  a: unknown;
}

/**
 * How each generated collection's datasets are built: from the seed, their arguments, the instant
 * they are built for and the world's pace (for the collections whose business goes on with the
 * clock), and the world's origin (the instant its clock started: their history ends on its day).
 * A builder may give the work that builds the dataset, yielding between its days (see Built).
 */
export type Materializers = Readonly<
  Record<string, (seed: number, args: never, at: string, pace: PaceOf, origin: string) => Built>
>;

export type { Registry };

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

/** Lines joined into pieces of about SLICE_BYTES, each written at once. */
function* inSlices(lines: Iterable<string>): Generator<string> {
  let buffer = '';
  for (const line of lines) {
    buffer += line;
    if (buffer.length > SLICE_BYTES) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer.length > 0) yield buffer;
}

/** The bytes of one of the sandbox's own files (never read through a link), or null when there is none. */
function readOwn(path: string): Buffer | null {
  let fd: number | null;
  try {
    fd = openOwnSync(path);
  } catch (error) {
    throw error instanceof UnsafeFileError ? new StoreFileError(error.message) : error;
  }
  if (fd === null) return null;
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The first bytes of a file (to tell its format), or '' when it is empty. */
function sniff(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile())
      throw new StoreFileError(`${file} is not a regular file; it was left untouched`);
    const buffer = Buffer.alloc(16);
    const read = readSync(fd, buffer, 0, 16, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The names a world file's companions take beside it (each written as lib/file-writer.ts writes). */
export function worldFilePaths(file: string) {
  return {
    /** The snapshot, replaced whole by a rename from a temporary of a random name. */
    world: file,
    /** One line per committed write, appended to. */
    journal: `${file}.journal`,
    /** A journal being folded into a new snapshot. */
    oldJournal: `${file}.journal.old`,
    /** Who holds the file (see file-lock.ts). */
    lock: `${file}.lock`,
  };
}

/**
 * The world file, its journal and its lock.
 *
 * - `<file>`: a snapshot of the whole world, replaced atomically (a temporary of a random name made
 *   exclusively, fsync, rename: see lib/file-writer.ts).
 * - `<file>.journal`: one line per committed write, with a sequence number; an append resolves
 *   once it is fsynced. Appends that arrive while one is on its way share the next fsync (group
 *   commit). The snapshot records the last sequence number it holds, so replay skips older lines.
 *   It is opened without following a link, and only when it is a regular file of this user.
 * - Compaction: when the journal passes COMPACT_AFTER_BYTES it is renamed to `<file>.journal.old`
 *   and a new snapshot is written in slices between requests. The snapshot may already hold changes
 *   of lines newer than its sequence number; replaying them again is harmless, since a line sets
 *   values and removes keys (idempotent). Once the snapshot is in place the old journal goes.
 * - `<file>.lock`: see file-lock.ts.
 *
 * Every step of the disk (appends, snapshots, the journal's rotation) runs on one chain, in order.
 */
export class WorldFile<T extends Journaled> implements Adapter<WorldRead<T>> {
  readonly file: string;
  readonly #journal: string;
  readonly #oldJournal: string;
  readonly #lock: FileLock;
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

  readonly #compactAfter: number;

  constructor(file: string, generated: Iterable<string> = [], compactAfterBytes = COMPACT_AFTER_BYTES) {
    const paths = worldFilePaths(file);
    this.file = file;
    this.#compactAfter = compactAfterBytes;
    this.#journal = paths.journal;
    this.#oldJournal = paths.oldJournal;
    this.#lock = new FileLock(file, paths.lock);
    this.#generated = new Set(generated);
  }

  get journalFile(): string {
    return this.#journal;
  }

  /** The sequence number of the last line written (or replayed). */
  get seq(): number {
    return this.#seq;
  }

  /** Takes the file for this process (see FileLock.lock). */
  lock(): void {
    this.#lock.lock();
  }

  unlock(): void {
    this.#lock.unlock();
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
      if (error instanceof StoreFileError) throw error;
      throw new StoreFileError(`Cannot read ${this.file}: ${(error as Error).message}`);
    }
    if (head.length === 0) return null;
    const read = head.startsWith('{"format"')
      ? await readSnapshot<T>(this.file, this.#generated)
      : readFirstFormat<T>(this.file, this.#generated);
    const { world, registry } = read;
    // The sequence goes on from the snapshot's even when the journal is missing: a line numbered
    // at or below it would be skipped by the next replay.
    this.#seq = world.meta?.journal_seq ?? 0;
    for (const journal of [this.#oldJournal, this.#journal]) {
      this.#seq = Math.max(this.#seq, await replayJournal(world, registry, journal, this.#generated));
    }
    return read;
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
        // Opened without following a link; a name that is not this user's own file refuses the write.
        this.#handle ??= await openAppend(this.#journal);
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
        const current = readOwn(this.#journal);
        if (current !== null) await appendSafely(this.#oldJournal, current);
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
      if (generation !== this.#generation) return written.discard();
      await written.commit();
      await unlink(this.#oldJournal).catch(() => undefined);
    });
  }

  /**
   * Writes the snapshot to a temporary file in slices, yielding to requests between them: the file,
   * to be put in place, or null when `stale()` says a newer snapshot made it pointless.
   */
  async #writeSnapshot(state: Snapshot<T>, seq: number, stale: () => boolean): Promise<AtomicFile | null> {
    const file = await AtomicFile.create(this.file);
    try {
      let buffer = '';
      let count = 0;
      for (const line of snapshotLines(state, seq, this.#generated)) {
        buffer += line;
        count += 1;
        if (count % RECORDS_PER_SLICE === 0 || buffer.length > SLICE_BYTES) {
          await file.write(buffer);
          buffer = '';
          await yieldToRequests();
          if (stale()) break;
        }
      }
      if (!stale()) {
        if (buffer.length > 0) await file.write(buffer);
        await file.finish();
        if (!stale()) return file;
      }
    } catch (error) {
      await file.discard();
      throw error;
    }
    await file.discard();
    return null;
  }

  /**
   * Writes the whole world as the new snapshot, after every append before it, and empties the
   * journals: the reset control endpoint, and a world replaced as a whole.
   */
  snapshot(world: T, registry: Registry): Promise<void> {
    return this.#enqueue(async () => {
      this.#generation += 1;
      await writeFileAtomic(
        this.file,
        inSlices(snapshotLines({ world, registry }, this.#seq, this.#generated)),
      );
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
    writeFileAtomicSync(this.file, inSlices(snapshotLines({ world, registry }, this.#seq, this.#generated)));
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
