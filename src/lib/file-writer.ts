import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The one way the sandbox writes a file (the world file and its journal, the requests file, the env
 * file, the report's --output, the lock and its claims). Whoever can write the folder a file lives in
 * can plant a link, or a second name of another file, at a name the sandbox writes: nothing here
 * follows one.
 *
 * - A file written whole goes to a temporary beside it, named at random and created exclusively
 *   (O_EXCL: a name that exists, a link included, is never opened), then renamed over the name: the
 *   rename replaces whatever stood there, a link too, and never writes through it.
 * - A file created once (a lock, a claim) is created exclusively the same way, in place.
 * - A file appended to (the world's journal) is opened without following a link (O_NOFOLLOW), then
 *   checked on the descriptor: a regular file, of one name only, owned by this process's user.
 *   Anything else is refused with an UnsafeFileError, and nothing is written.
 */

/** O_NOFOLLOW where the platform has it (0 elsewhere: Windows, where links need rights). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | NOFOLLOW;
// Read too: a torn last line is looked for before the first append.
const APPEND = constants.O_CREAT | constants.O_APPEND | constants.O_RDWR | NOFOLLOW;
const READ = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/** The files the sandbox makes are its user's alone unless said otherwise (they hold the world). */
export const PRIVATE_FILE = 0o600;
/** A file made for the user to share (a report): as an ordinary file is made, less the umask. */
export const SHARED_FILE = 0o666;

/** A file the sandbox refused to write or read: a link, a second name, another user's file. */
export class UnsafeFileError extends Error {
  constructor(path: string, why: string) {
    super(`${path} ${why}: the sandbox does not write through it; remove it and try again`);
    this.name = 'UnsafeFileError';
  }
}

/** The temporary a file is written to before it is renamed over `path`: hidden, random, beside it. */
export function temporaryPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
}

/** What is wrong with a file found at a name the sandbox writes, or null when it is its own. */
function unsafeReason(stat: Stats): string | null {
  if (!stat.isFile()) return 'is not a regular file';
  if (stat.nlink === 0) return 'was removed while it was opened';
  if (stat.nlink > 1) return 'has another name (a hard link)';
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return 'belongs to another user';
  return null;
}

function refusedLink(path: string, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  // O_NOFOLLOW on a link: ELOOP on Linux, EMLINK or EFTYPE on some BSDs.
  if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE')
    throw new UnsafeFileError(path, 'is a link');
  if (code === 'EISDIR') throw new UnsafeFileError(path, 'is not a regular file');
  throw error;
}

/** Creates `path`, which must not exist (a link there counts), and gives its descriptor. */
export function createNewSync(path: string, mode = PRIVATE_FILE): number {
  return openSync(path, CREATE_NEW, mode);
}

/** Creates `path` holding `text`, durably; false when the name is taken (by anything, a link too). */
export function createExclusiveSync(path: string, text: string, mode = PRIVATE_FILE): boolean {
  let fd: number;
  try {
    fd = createNewSync(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
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

/**
 * Opens a file the sandbox reads back (a lock, a journal) without following a link and without
 * waiting on a pipe: its descriptor, or null when there is none. Throws an UnsafeFileError for
 * anything but a regular file of this user.
 */
export function openOwnSync(path: string): number | null {
  let fd: number;
  try {
    fd = openSync(path, READ);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    refusedLink(path, error);
  }
  const stat = fstatSync(fd);
  // Removed by another process between the open and now (a stale lock broken): there is none.
  if (stat.nlink === 0 && stat.isFile()) {
    closeSync(fd);
    return null;
  }
  const why = unsafeReason(stat);
  if (why !== null) {
    closeSync(fd);
    throw new UnsafeFileError(path, why);
  }
  return fd;
}

/**
 * Opens `path` for appending lines (created when missing) after checking it is the sandbox's own.
 * A last line left without its end (a write cut by a crash) is cut off, so that the next line starts
 * on a line of its own.
 */
export async function openAppend(path: string, mode = PRIVATE_FILE): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, APPEND, mode);
  } catch (error) {
    refusedLink(path, error);
  }
  try {
    const stat = await handle.stat();
    const why = unsafeReason(stat);
    if (why !== null) throw new UnsafeFileError(path, why);
    if (stat.size > 0) endAtLastLine(handle.fd, stat.size);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Cuts what follows the last newline of a file of `size` bytes (nothing when it ends with one). */
function endAtLastLine(fd: number, size: number): void {
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline !== -1) {
      if (start + newline + 1 !== size) ftruncateSync(fd, start + newline + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

/** Appends `data` to `path` (as openAppend opens it), durably. */
export async function appendSafely(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await openAppend(path);
  try {
    if (typeof data === 'string') await handle.write(data);
    else await handle.write(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A file written in pieces to its temporary, then put in place by `commit()` (or dropped by
 * `discard()`): until then `path` is as it was.
 */
export class AtomicFile {
  readonly path: string;
  readonly temporary: string;
  readonly #handle: FileHandle;
  #open = true;

  private constructor(path: string, temporary: string, handle: FileHandle) {
    this.path = path;
    this.temporary = temporary;
    this.#handle = handle;
  }

  static async create(path: string, mode = PRIVATE_FILE): Promise<AtomicFile> {
    const temporary = temporaryPathOf(path);
    return new AtomicFile(path, temporary, await open(temporary, CREATE_NEW, mode));
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (typeof text === 'string') await this.#handle.write(text);
    else await this.#handle.write(text);
  }

  /** Makes what was written durable and closes the temporary; `commit()` may wait for later. */
  async finish(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    try {
      await this.#handle.sync();
    } finally {
      await this.#handle.close();
    }
  }

  /** Renames the temporary over `path`, durably. */
  async commit(): Promise<void> {
    await this.finish();
    await rename(this.temporary, this.path);
    syncDirectory(this.path);
  }

  /** Drops the temporary; `path` stays as it was. */
  async discard(): Promise<void> {
    if (this.#open) {
      this.#open = false;
      await this.#handle.close().catch(() => undefined);
    }
    await unlink(this.temporary).catch(() => undefined);
  }
}

/** Writes `path` whole or not at all (see AtomicFile): a reader sees the old file or the new one. */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array | Iterable<string>,
  mode = PRIVATE_FILE,
): Promise<void> {
  const file = await AtomicFile.create(path, mode);
  try {
    if (typeof content === 'string' || content instanceof Uint8Array) await file.write(content);
    else for (const piece of content) await file.write(piece);
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/** writeFileAtomic, without yielding: for what runs before the server listens. */
export function writeFileAtomicSync(path: string, pieces: Iterable<string>, mode = PRIVATE_FILE): void {
  const temporary = temporaryPathOf(path);
  const fd = createNewSync(temporary, mode);
  try {
    try {
      for (const piece of pieces) writeSync(fd, piece);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // never made, or gone
    }
    throw error;
  }
  syncDirectory(path);
}

/** Makes a rename or a creation in the folder of `file` durable. */
export function syncDirectory(file: string): void {
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
