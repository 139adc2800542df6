import { execFile } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestsFileOf } from '../../src/control/requests/index.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { StoreFileError, worldFilePaths } from '../../src/store/file-adapter.js';
import { ROOT } from '../cli/helpers.js';

/**
 * Whoever can write the folder of a world file can plant a link at any name the sandbox writes there,
 * before it starts or while it runs. A link is never written through: the sandbox refuses to start
 * (a name it reads back: the world file, its journals, its lock), or replaces the link by its own
 * file (a file it writes whole: the requests file, the env file, a report's --output), or never uses
 * the name (the temporaries, whose names are random now). The link's target is untouched every time.
 */

const SEED = 5;
const PRECIOUS = 'a file of the user that nothing may overwrite\n';

let sandbox: RunningSandbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox?.close().catch(() => undefined);
  sandbox = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A fresh folder with a world file's name in it and a victim file a link will point at. */
function folder() {
  dir = mkdtempSync(join(tmpdir(), 'planted-links-'));
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, PRECIOUS);
  return { db: join(dir, 'world.json'), envFile: join(dir, 'sandbox.env'), victim };
}

async function token(url: string): Promise<string> {
  const { accountId, sandbox: key } = (await import('../../src/platform/credentials.js')).seedCredentials(
    SEED,
  );
  const res = await fetch(`${url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId, ...key }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function createConsumer(url: string, bearer: string, name: string): Promise<number> {
  const res = await fetch(`${url}/consumers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ name }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Start, write, reset (a full snapshot), write past the journal's limit (a compaction), stop. */
async function lifecycle(db: string, envFile: string): Promise<void> {
  sandbox = await startSandbox({ seed: SEED, port: 0, db, envFile, journalLimit: 200 });
  const bearer = await token(sandbox.url);
  expect(await createConsumer(sandbox.url, bearer, 'Before the reset')).toBe(200);
  await sandbox.reset();
  await sandbox.store.flush();
  for (const name of ['After the reset', 'Past the limit']) {
    expect(await createConsumer(sandbox.url, bearer, name)).toBe(200);
  }
  await sandbox.store.flush();
  await sandbox.close();
  sandbox = undefined;
}

function report(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/unified-api-sandbox.ts', 'report', ...args],
      { cwd: ROOT, timeout: 120_000 },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

describe('a link planted at a name the sandbox writes', () => {
  // The names, from the writer's own naming functions; and the temporaries of the versions before,
  // which had fixed names.
  const names = (db: string, envFile: string) => ({
    ...worldFilePaths(db),
    requests: requestsFileOf(db),
    env: envFile,
    'old snapshot temporary': join(dirname(db), `.${basename(db)}.tmp`),
    'old requests temporary': `${requestsFileOf(db)}.tmp`,
  });
  type Name = keyof ReturnType<typeof names>;
  /** What the sandbox does, planted before a first start (no world file yet) or before a restart. */
  const cases: [Name, 'first start' | 'restart', 'refused' | 'removed' | 'replaced' | 'unused'][] = [
    // Read back at start: refused, the name said.
    ['world', 'first start', 'refused'],
    ['lock', 'first start', 'refused'],
    ['journal', 'restart', 'refused'],
    ['oldJournal', 'restart', 'refused'],
    ['lock', 'restart', 'refused'],
    // A new world's snapshot clears the journals' names: the link goes (not its target).
    ['journal', 'first start', 'removed'],
    ['oldJournal', 'first start', 'removed'],
    // Written whole: replaced by the sandbox's own file.
    ['requests', 'first start', 'replaced'],
    ['env', 'first start', 'replaced'],
    ['requests', 'restart', 'replaced'],
    ['env', 'restart', 'replaced'],
    // A temporary's name is random now: the old fixed ones are never used.
    ['old snapshot temporary', 'first start', 'unused'],
    ['old requests temporary', 'first start', 'unused'],
    ['old snapshot temporary', 'restart', 'unused'],
    ['old requests temporary', 'restart', 'unused'],
  ];

  it.each(cases)(
    '%s, before a %s: %s, its target untouched',
    async (which, when, outcome) => {
      const { db, envFile, victim } = folder();
      if (when === 'restart') await lifecycle(db, envFile);
      const path = names(db, envFile)[which];
      rmSync(path, { force: true });
      symlinkSync(victim, path);
      if (outcome === 'refused') {
        const error = await startSandbox({ seed: SEED, port: 0, db, envFile }).catch((e: unknown) => e);
        expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
        expect(error).toBeInstanceOf(StoreFileError);
        expect((error as Error).message).toContain(basename(path));
      } else {
        await lifecycle(db, envFile);
        expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
        // Gone, or the sandbox's own file made since.
        if (outcome === 'removed')
          expect(lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false).toBe(false);
        if (outcome === 'replaced') {
          expect(lstatSync(path).isSymbolicLink()).toBe(false);
          expect(readFileSync(path, 'utf8').length).toBeGreaterThan(0);
        }
        if (outcome === 'unused') expect(lstatSync(path).isSymbolicLink()).toBe(true);
      }
      expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    },
    60_000,
  );

  it("a report's --output: the link is replaced, its target untouched", async () => {
    const { db, envFile, victim } = folder();
    await lifecycle(db, envFile);
    const output = join(dirname(db), 'readiness.xml');
    symlinkSync(victim, output);
    const out = await report(['--db', db, '--format', 'junit', '--output', output]);
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    expect(out.code, out.stderr).toBe(0);
    expect(lstatSync(output).isSymbolicLink()).toBe(false);
    expect(readFileSync(output, 'utf8')).toContain('<testsuite');
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    // A name that cannot take a file (a folder): exit code 2 and one line saying so.
    const folderOut = await report(['--db', db, '--output', dirname(db)]);
    expect(folderOut.code).toBe(2);
    expect(folderOut.stderr.trim().split('\n')).toHaveLength(1);
    expect(folderOut.stderr).toContain(`cannot write ${dirname(db)}`);
  }, 120_000);

  it('at the journal while the server runs (after a reset, after a compaction): the write is refused', async () => {
    const { db, envFile, victim } = folder();
    const { journal } = worldFilePaths(db);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sandbox = await startSandbox({ seed: SEED, port: 0, db, envFile, journalLimit: 200 });
    const bearer = await token(sandbox.url);
    expect(await createConsumer(sandbox.url, bearer, 'First')).toBe(200);
    await sandbox.reset();
    await sandbox.store.flush();
    expect(existsSync(journal)).toBe(false);
    symlinkSync(victim, journal);
    const through = await createConsumer(sandbox.url, bearer, 'Through a link');
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    expect(through).toBe(500);
    expect(String(logged.mock.calls.at(-1)?.[1])).toContain('is a link');
    // A second name of another file is refused the same way.
    unlinkSync(journal);
    linkSync(victim, journal);
    expect(await createConsumer(sandbox.url, bearer, 'Through a hard link')).toBe(500);
    expect(String(logged.mock.calls.at(-1)?.[1])).toContain('another name');
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    // Once the name is free again, writes go on; a compaction (past 200 bytes) rotates the journal.
    unlinkSync(journal);
    expect(await createConsumer(sandbox.url, bearer, 'Into its own journal')).toBe(200);
    await sandbox.store.flush();
    expect(existsSync(journal)).toBe(false);
    symlinkSync(victim, journal);
    expect(await createConsumer(sandbox.url, bearer, 'After the compaction')).toBe(500);
    expect(readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    unlinkSync(journal);
  }, 60_000);
});
