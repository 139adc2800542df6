import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreFileError, WorldFile } from '../../src/store/file-adapter.js';
import { ROOT } from '../cli/helpers.js';
import { tempDir } from '../temp-dir.js';

const tempFile = () => join(tempDir('sandbox-lock-'), 'world.json');
const meta = { meta: { seed: 1 } };
type Meta = typeof meta;

/** The pid of a process that has exited: a lock naming it is stale. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid as number;
  await new Promise((resolve) => child.once('exit', resolve));
  return pid;
}

/** A process that lives until killed: a lock naming it is held. */
async function withLiveProcess(run: (pid: number) => Promise<void> | void): Promise<void> {
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    await run(holder.pid as number);
  } finally {
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
  }
}

const lockText = (file: string) => readFileSync(`${file}.lock`, 'utf8');
const leftovers = (file: string) =>
  readdirSync(join(file, '..')).filter((name) => name.startsWith('world.json.lock.'));

let stale = 0;
beforeAll(async () => {
  stale = await deadPid();
});

describe('world file lock', () => {
  it('refuses a lock held by a live process and leaves it as it was', async () => {
    await withLiveProcess((pid) => {
      const file = tempFile();
      writeFileSync(`${file}.lock`, `${pid}\n`);
      const world = new WorldFile<Meta>(file);
      expect(() => world.lock()).toThrow(StoreFileError);
      expect(() => world.lock()).toThrow(new RegExp(`in use by another sandbox \\(process ${pid}\\)`));
      expect(lockText(file)).toBe(`${pid}\n`);
      expect(leftovers(file)).toEqual([]);
    });
  });

  it('takes over a stale lock, writes its pid and a token, and removes it on unlock', () => {
    const file = tempFile();
    writeFileSync(`${file}.lock`, `${stale}\n`);
    const world = new WorldFile<Meta>(file);
    world.lock();
    expect(lockText(file)).toMatch(new RegExp(`^${process.pid} [0-9a-f]{32}\\n$`));
    expect(leftovers(file)).toEqual([]);
    world.unlock();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('unlock leaves alone a lock that is no longer its own', () => {
    const file = tempFile();
    const first = new WorldFile<Meta>(file);
    first.lock();
    // Another process took the file over (as after judging this one dead).
    const foreign = `${stale} ${'0'.repeat(32)}\n`;
    writeFileSync(`${file}.lock`, foreign);
    first.unlock();
    expect(lockText(file)).toBe(foreign);

    // The same process opening the file again takes it over; the first opening's unlock keeps off.
    const second = tempFile();
    const a = new WorldFile<Meta>(second);
    const b = new WorldFile<Meta>(second);
    a.lock();
    b.lock();
    const held = lockText(second);
    a.unlock();
    expect(lockText(second)).toBe(held);
    b.unlock();
    expect(existsSync(`${second}.lock`)).toBe(false);
  });

  it('waits on a lock still being written, and takes over one whose writer died writing it', () => {
    const file = tempFile();
    writeFileSync(`${file}.lock`, '');
    const started = Date.now();
    expect(() => new WorldFile<Meta>(file).lock()).toThrow(
      /held by another sandbox starting at the same time/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const world = new WorldFile<Meta>(file);
    world.lock();
    expect(lockText(file).startsWith(`${process.pid} `)).toBe(true);
    world.unlock();
  });

  it('finishes a takeover that a crashed process left half done, and sweeps its claim', () => {
    const file = tempFile();
    const lock = `${file}.lock`;
    writeFileSync(lock, `${stale}\n`);
    // The claim a process makes on the stale lock before removing it, left as if it died right after.
    const stat = statSync(lock);
    const identity = `${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stale}\n`;
    const claim = `${lock}.${createHash('sha256').update(identity).digest('hex').slice(0, 16)}.claim`;
    writeFileSync(claim, `${stale} ${'1'.repeat(32)}\n`);
    writeFileSync(`${lock}.0123456789abcdef.claim`, `${stale} ${'2'.repeat(32)}\n`);
    const world = new WorldFile<Meta>(file);
    world.lock();
    expect(lockText(file).startsWith(`${process.pid} `)).toBe(true);
    expect(leftovers(file)).toEqual([]);
    world.unlock();
  });
});

/**
 * Several servers started at once on a world file whose lock is stale: each child loads the lock
 * code and says it is ready; at a start time the parent gives them all, each tries to lock the file,
 * reports, holds the lock for a while and exits. Exactly one may hold it each round (the lock taken
 * by reading the pid, checking it and writing over it let two or more in about a round in three).
 * The lock code is compiled once to plain JavaScript, so that a child starts in tens of milliseconds
 * rather than loading a TypeScript loader each time, and the rounds stay cheap on a busy machine.
 */
describe('concurrent takeover of a stale lock', () => {
  const CONTENDERS = 4;
  const ROUNDS = 15;
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-lock-race-'));
  const script = join(dir, 'contender.mjs');
  const compiled = join(dir, 'file-adapter.mjs');
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    await build({
      entryPoints: [join(ROOT, 'src/store/file-adapter.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: compiled,
      logLevel: 'silent',
    });
    writeFileSync(
      script,
      `
const { WorldFile } = await import(${JSON.stringify(compiled)});
const world = new WorldFile(process.argv[2]);
process.stdout.write('ready\\n');
process.stdin.once('data', (line) => {
  // Wait for the common start time by spinning: it lines the contenders up within microseconds,
  // where waking on input would spread them over the scheduler's delays.
  const start = Number(String(line));
  while (performance.timeOrigin + performance.now() < start);
  let held = false;
  try {
    world.lock();
    held = true;
    process.stdout.write('locked ' + process.pid + '\\n');
  } catch (error) {
    process.stdout.write('refused ' + error.name + ': ' + error.message + '\\n');
  }
  setTimeout(() => {
    if (held) world.unlock();
    process.exit(0);
  }, 200);
});
`,
    );
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts a contender; resolves with it once it is ready, and with its report once it exits. */
  function contender(file: string): Promise<{ child: ChildProcess; report: Promise<string> }> {
    const child = spawn(process.execPath, [script, file]);
    children.push(child);
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const report = new Promise<string>((resolve) => {
      child.once('exit', () => resolve(out.replace(/^ready\n/, '').trim() || `no report: ${err}`));
    });
    return new Promise((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.startsWith('ready\n')) resolve({ child, report });
      });
      child.once('exit', (code) =>
        reject(new Error(`contender exited (${code}) before it was ready: ${err}`)),
      );
    });
  }

  it(`grants the file to exactly one of ${CONTENDERS} servers started at once, round after round`, async () => {
    const holders: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const file = join(mkdtempSync(join(dir, `round-${round}-`)), 'world.json');
      writeFileSync(`${file}.lock`, `${stale}\n`);
      const ready = await Promise.all(Array.from({ length: CONTENDERS }, () => contender(file)));
      const start = performance.timeOrigin + performance.now() + 30;
      for (const { child } of ready) child.stdin?.write(`${start}\n`);
      const reports = await Promise.all(ready.map(({ report }) => report));
      const locked = reports.filter((line) => line.startsWith('locked '));
      const refused = reports.filter((line) => line.startsWith('refused '));
      holders.push(locked.length);
      expect({ round, locked: locked.length, refused: refused.length }, reports.join('\n')).toEqual({
        round,
        locked: 1,
        refused: CONTENDERS - 1,
      });
      for (const line of refused) {
        expect(line).toMatch(
          /StoreFileError: .*(in use by another sandbox \(process \d+\)|held by another sandbox starting)/,
        );
      }
      // The holder gave the lock back, and no claim was left behind.
      expect(readdirSync(join(file, '..'))).toEqual([]);
    }
    expect(holders).toEqual(Array(ROUNDS).fill(1));
  }, 30_000);
});
