import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AtomicFile,
  appendSafely,
  createExclusiveSync,
  openAppend,
  openOwnSync,
  UnsafeFileError,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../../src/lib/file-writer.js';

/**
 * The one writer of the sandbox's files follows no link planted at a name it writes: a file written
 * whole replaces the name (the link, not its target), a file created once refuses a taken name, and a
 * file appended to must be this user's own regular file of one name.
 */

let dir: string;
let victim: string;
const PRECIOUS = 'the precious content of a file the user can write\n';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-writer-'));
  victim = join(dir, 'victim.txt');
  writeFileSync(victim, PRECIOUS);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A link at `name` (in the folder) to the victim. */
function plant(name: string): string {
  const path = join(dir, name);
  symlinkSync(victim, path);
  return path;
}

describe('the file writer', () => {
  it('writes a file whole over a link planted at its name: the link goes, its target stays', async () => {
    const path = plant('world.json.requests.jsonl');
    await writeFileAtomic(path, 'new content\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('new content\n');
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    const sync = plant('.env');
    writeFileAtomicSync(sync, ['a=1\n', 'b=2\n']);
    expect(readFileSync(sync, 'utf8')).toBe('a=1\nb=2\n');
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    // No temporary is left beside it.
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('creates a file once only where the name is free, a link counting as taken', () => {
    const path = plant('world.json.lock');
    expect(createExclusiveSync(path, 'mine\n')).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    const dangling = join(dir, 'world.json.lock.x.claim');
    symlinkSync(join(dir, 'not-there-yet'), dangling);
    expect(createExclusiveSync(dangling, 'mine\n')).toBe(false);
    expect(existsSync(join(dir, 'not-there-yet'))).toBe(false);
    expect(createExclusiveSync(join(dir, 'free'), 'mine\n')).toBe(true);
  });

  it('refuses to append to a link, a second name, a folder, or a file of another user', async () => {
    const link = plant('world.json.journal');
    await expect(openAppend(link)).rejects.toThrow(UnsafeFileError);
    await expect(appendSafely(link, 'a line\n')).rejects.toThrow(/is a link/);
    const hard = join(dir, 'hard.journal');
    linkSync(victim, hard);
    await expect(appendSafely(hard, 'a line\n')).rejects.toThrow(/another name/);
    const folder = join(dir, 'folder.journal');
    mkdirSync(folder);
    await expect(appendSafely(folder, 'a line\n')).rejects.toThrow(UnsafeFileError);
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    expect(() => openOwnSync(link)).toThrow(UnsafeFileError);
    expect(openOwnSync(join(dir, 'none'))).toBeNull();
    if (process.getuid?.() === 0) {
      // Only root can give a file away; elsewhere no other user's file can be made to test with.
      const theirs = join(dir, 'theirs.journal');
      writeFileSync(theirs, '');
      chownSync(theirs, 65534, 65534);
      await expect(appendSafely(theirs, 'a line\n')).rejects.toThrow(/another user/);
    }
  });

  it('never waits on a pipe planted where it reads its own files', () => {
    const fifo = join(dir, 'world.json.lock');
    execFileSync('mkfifo', [fifo]);
    expect(() => openOwnSync(fifo)).toThrow(/not a regular file/);
  });

  it('appends to its own file, first cutting a last line a crash left without its end', async () => {
    const journal = join(dir, 'world.json.journal');
    writeFileSync(journal, '{"seq":1}\n{"seq":2,"me');
    await appendSafely(journal, '{"seq":3}\n');
    expect(readFileSync(journal, 'utf8')).toBe('{"seq":1}\n{"seq":3}\n');
    writeFileSync(journal, 'torn without any end');
    await appendSafely(journal, '{"seq":4}\n');
    expect(readFileSync(journal, 'utf8')).toBe('{"seq":4}\n');
  });

  it('leaves the name as it was until a file written in pieces is committed, and nothing once dropped', async () => {
    const path = join(dir, 'world.json');
    writeFileSync(path, 'before\n');
    const file = await AtomicFile.create(path);
    await file.write('after\n');
    await file.finish();
    expect(readFileSync(path, 'utf8')).toBe('before\n');
    await file.commit();
    expect(readFileSync(path, 'utf8')).toBe('after\n');
    const dropped = await AtomicFile.create(path);
    await dropped.write('never\n');
    await dropped.discard();
    expect(readFileSync(path, 'utf8')).toBe('after\n');
    expect(readdirSync(dir).sort()).toEqual(['victim.txt', 'world.json']);
  });
});
