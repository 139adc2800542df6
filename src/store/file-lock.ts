import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createExclusiveSync, openOwnSync, syncDirectory, UnsafeFileError } from '../lib/file-writer.js';
import { StoreFileError } from './file-errors.js';

/**
 * `<file>.lock`: the process id of the server holding a world file and a random token; a second
 * server is refused while that process lives. `<file>.lock.*.claim` exist for an instant while a
 * stale lock is taken over. Both are only ever made by an exclusive create (lib/file-writer.ts), and
 * read without following a link.
 */
export class FileLock {
  /** The world file the lock is about (named in every refusal). */
  readonly file: string;
  readonly #lock: string;
  #locked = false;
  /** The random token written in the lock by this instance: what tells our lock from another's. */
  #nonce = '';

  constructor(file: string, lock: string) {
    this.file = file;
    this.#lock = lock;
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

  /** Creates `path` holding `text`, durably; false when the name is taken. */
  #createExclusive(path: string, text: string): boolean {
    try {
      return createExclusiveSync(path, text);
    } catch (error) {
      throw new StoreFileError(`Cannot lock ${this.file}: ${(error as Error).message}`);
    }
  }

  /** Reads a lock or claim file, or null when there is none. */
  #readLock(path: string): LockSeen | null {
    let fd: number | null;
    try {
      // A link or anything but this user's regular file is refused, never followed or waited on.
      fd = openOwnSync(path);
    } catch (error) {
      const why = error instanceof UnsafeFileError ? error.message : (error as Error).message;
      throw new StoreFileError(`Cannot lock ${this.file}: ${why}`);
    }
    if (fd === null) return null;
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
