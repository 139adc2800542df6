import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export class StoreFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreFileError';
  }
}

/**
 * What a commit changed, when its caller knows: for each collection, the ids of the records it
 * added, changed or removed. A commit without it is a full snapshot.
 */
export type Change = Record<string, readonly string[]>;

/** The parts of a world this adapter needs to know: a meta block, and collections of records. */
interface Journaled {
  meta: { journal_seq?: number };
}

/** A journal that grows past this many bytes is folded into the next snapshot. */
const MAX_JOURNAL_BYTES = 8 * 1024 * 1024;

interface Batch<T> {
  data: T;
  /** null: a full snapshot is needed. */
  changes: Map<string, Set<string>> | null;
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * A lowdb adapter for the world file, durable and with group commit.
 *
 * - A full commit writes the whole world atomically: a temporary file, fsync, rename.
 * - A commit that names what it changed appends one line to a journal beside the file
 *   (`<file>.journal`: the changed records and the meta block) and fsyncs it, so its cost does not grow
 *   with the world. The journal is folded into a snapshot when it grows large, and when the file is
 *   opened again.
 * - While one write is on its way to disk, every commit that arrives waits for the next one, and that
 *   next write serves all of them (one serialization, one fsync). A commit's promise resolves only
 *   when what it saw is on disk.
 *
 * Each journal line carries a sequence number and the snapshot records the last one it includes, so
 * a crash between writing a snapshot and emptying the journal replays nothing twice. A torn last line
 * (a crash while appending) was never acknowledged and is ignored.
 */
export class GroupCommitFile<T extends Journaled> implements Adapter<T> {
  readonly #file: string;
  readonly #temp: string;
  readonly #journal: string;
  #journalBytes = 0;
  #seq = 0;
  #inFlight: Promise<void> | null = null;
  #pending: Batch<T> | null = null;

  constructor(file: string) {
    this.#file = file;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
    this.#journal = `${file}.journal`;
  }

  get journalFile(): string {
    return this.#journal;
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(`Cannot read ${this.#file}: ${(error as Error).message}`);
    }
    let world: T;
    try {
      world = JSON.parse(text) as T;
    } catch (error) {
      throw new StoreFileError(
        `${this.#file} is not a valid sandbox world (${(error as Error).message}); it was left untouched`,
      );
    }
    if (world !== null && typeof world === 'object' && !Array.isArray(world)) this.#replayJournal(world);
    return world;
  }

  /** Applies the journal lines newer than the snapshot. */
  #replayJournal(world: T): void {
    if (!existsSync(this.#journal)) return;
    const snapshotSeq = world.meta?.journal_seq ?? 0;
    this.#seq = snapshotSeq;
    const lines = readFileSync(this.#journal, 'utf8').split('\n');
    for (const line of lines) {
      if (!line) continue;
      let entry: {
        seq: number;
        meta: T['meta'];
        set: Record<string, Record<string, unknown>>;
        del: Record<string, string[]>;
      };
      try {
        entry = JSON.parse(line);
      } catch {
        break; // a torn last line: never acknowledged
      }
      if (entry.seq <= snapshotSeq) continue;
      const collections = world as unknown as Record<string, Record<string, unknown>>;
      for (const [name, records] of Object.entries(entry.set)) {
        collections[name] ??= {};
        Object.assign(collections[name] as object, records);
      }
      for (const [name, ids] of Object.entries(entry.del)) {
        for (const id of ids) delete collections[name]?.[id];
      }
      world.meta = entry.meta;
      this.#seq = entry.seq;
    }
  }

  /** Whether opening the file replayed a journal (the store then folds it into a snapshot). */
  hasJournal(): boolean {
    return existsSync(this.#journal);
  }

  write(data: T, change?: Change): Promise<void> {
    if (!this.#inFlight) {
      const batch = this.#batch(data, change);
      this.#inFlight = this.#flush(batch);
      this.#inFlight.then(batch.resolve, batch.reject);
      return batch.promise;
    }
    if (this.#pending) {
      this.#pending.data = data;
      this.#merge(this.#pending, change);
      return this.#pending.promise;
    }
    this.#pending = this.#batch(data, change);
    return this.#pending.promise;
  }

  #batch(data: T, change: Change | undefined): Batch<T> {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const batch: Batch<T> = { data, changes: new Map(), promise, resolve, reject };
    this.#merge(batch, change);
    return batch;
  }

  #merge(batch: Batch<T>, change: Change | undefined): void {
    if (!change) {
      batch.changes = null;
      return;
    }
    if (!batch.changes) return;
    for (const [name, ids] of Object.entries(change)) {
      let set = batch.changes.get(name);
      if (!set) {
        set = new Set();
        batch.changes.set(name, set);
      }
      for (const id of ids) set.add(id);
    }
  }

  /** Synchronous snapshot, used when a world is created or a journal folded before the server listens. */
  writeNow(data: T): void {
    data.meta.journal_seq = this.#seq;
    const fd = openSync(this.#temp, 'w');
    try {
      writeSync(fd, JSON.stringify(data));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(this.#temp, this.#file);
    this.#emptyJournalSync();
  }

  #emptyJournalSync(): void {
    if (!existsSync(this.#journal)) return;
    const fd = openSync(this.#journal, 'w');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.#journalBytes = 0;
  }

  async #flush(batch: Batch<T>): Promise<void> {
    try {
      if (batch.changes === null || this.#journalBytes > MAX_JOURNAL_BYTES) await this.#snapshot(batch.data);
      else await this.#append(batch.data, batch.changes);
    } finally {
      const next = this.#pending;
      this.#pending = null;
      this.#inFlight = null;
      if (next) {
        this.#inFlight = this.#flush(next);
        this.#inFlight.then(next.resolve, next.reject);
      }
    }
  }

  async #snapshot(data: T): Promise<void> {
    data.meta.journal_seq = this.#seq;
    const text = JSON.stringify(data);
    const handle = await open(this.#temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.#temp, this.#file);
    if (this.#journalBytes > 0) {
      const journal = await open(this.#journal, 'w');
      try {
        await journal.sync();
      } finally {
        await journal.close();
      }
      this.#journalBytes = 0;
    }
  }

  async #append(data: T, changes: Map<string, Set<string>>): Promise<void> {
    const collections = data as unknown as Record<string, Record<string, unknown>>;
    const set: Record<string, Record<string, unknown>> = {};
    const del: Record<string, string[]> = {};
    for (const [name, ids] of changes) {
      for (const id of ids) {
        const record = collections[name]?.[id];
        if (record === undefined) {
          del[name] ??= [];
          del[name].push(id);
        } else {
          set[name] ??= {};
          set[name][id] = record;
        }
      }
    }
    this.#seq += 1;
    const line = `${JSON.stringify({ seq: this.#seq, meta: data.meta, set, del })}\n`;
    const handle = await open(this.#journal, 'a');
    try {
      await handle.appendFile(line, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.#journalBytes += line.length;
  }
}
