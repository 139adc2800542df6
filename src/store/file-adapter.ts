import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
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
 * A lowdb adapter that writes the world atomically (temporary file, fsync, rename) and commits in
 * groups: while one write is on its way to disk, every write that arrives waits for the next one,
 * and that next write serializes the world once for all of them. A write's promise resolves only
 * when the data it saw is on disk.
 */
export class GroupCommitFile<T> implements Adapter<T> {
  readonly #file: string;
  readonly #temp: string;
  #inFlight: Promise<void> | null = null;
  #pending: { data: T; promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null =
    null;

  constructor(file: string) {
    this.#file = file;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(`Cannot read ${this.#file}: ${(error as Error).message}`);
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new StoreFileError(
        `${this.#file} is not a valid sandbox world (${(error as Error).message}); it was left untouched`,
      );
    }
  }

  write(data: T): Promise<void> {
    if (!this.#inFlight) {
      this.#inFlight = this.#flush(data);
      return this.#inFlight;
    }
    if (this.#pending) {
      this.#pending.data = data;
      return this.#pending.promise;
    }
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#pending = { data, promise, resolve, reject };
    return promise;
  }

  /** Synchronous first write, used when a new world is created before the server listens. */
  writeNow(data: T): void {
    const fd = openSync(this.#temp, 'w');
    try {
      writeSync(fd, JSON.stringify(data));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(this.#temp, this.#file);
  }

  async #flush(data: T): Promise<void> {
    try {
      const text = JSON.stringify(data);
      const handle = await open(this.#temp, 'w');
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(this.#temp, this.#file);
    } finally {
      const next = this.#pending;
      this.#pending = null;
      this.#inFlight = null;
      if (next) {
        this.#inFlight = this.#flush(next.data);
        this.#inFlight.then(next.resolve, next.reject);
      }
    }
  }
}
