import type { ChildProcess } from 'node:child_process';
import {
  existsSync,
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
import { afterEach, describe, expect, it } from 'vitest';
import { envCommandLine, formatDotenv, sandboxEnv } from '../../src/control/env.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { ROOT, runCli, serveCli, serveWithBanner, stop } from './helpers.js';

/**
 * serve --write-env FILE (startSandbox({ envFile })): the lines `env` prints, with the url the
 * server really listens on, written once it listens; `env` says on stderr that its url is assumed; the banner names the `env` command
 * that works where the server was started from.
 */

const parseEnv = (text: string) =>
  Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)];
      }),
  );

const running: ChildProcess[] = [];
const folders: string[] = [];
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => stop(child)));
  await sandbox?.close();
  sandbox = undefined;
  // A symbolic link inside is removed, not followed.
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A new temporary folder, removed after the test. */
function folder(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  folders.push(path);
  return path;
}

describe('serve --write-env', () => {
  it('writes the lines of env with the url it listens on, and names the file in the banner', async () => {
    const dir = folder('sandbox-env-file-');
    const file = join(dir, 'sandbox.env');
    const { banner, url } = await serveWithBanner(running, 'bin/unified-api-sandbox.ts', [
      '--port',
      '0',
      '--seed',
      '7',
      '--write-env',
      file,
    ]);
    expect(url).not.toBe('http://127.0.0.1:4010');
    expect(banner).toMatch(new RegExp(`Env file\\s+${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const written = readFileSync(file, 'utf8');
    const env = parseEnv(written);
    expect(env.SANDBOX_BASE_URL).toBe(url);
    // Every other line is what `env` prints for the same seed.
    const printed = parseEnv(runCli(['env', '--seed', '7']).stdout);
    expect(Object.keys(env)).toEqual(Object.keys(printed));
    expect({ ...env, SANDBOX_BASE_URL: '' }).toEqual({ ...printed, SANDBOX_BASE_URL: '' });
    // Written to a temporary file then renamed: nothing else is left beside it.
    expect(readdirSync(dir)).toEqual(['sandbox.env']);
    // And its values work against the server.
    const token = await fetch(`${env.SANDBOX_BASE_URL}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        accountId: env.SANDBOX_ACCOUNT_ID,
        clientId: env.SANDBOX_CLIENT_ID,
        clientSecret: env.SANDBOX_CLIENT_SECRET,
      }),
    });
    expect(token.status).toBe(200);
  });

  it('with --quiet, the file is in place when the url is printed, and replaces an older one', async () => {
    const dir = folder('sandbox-env-file-');
    const file = join(dir, 'sandbox.env');
    writeFileSync(file, 'SANDBOX_BASE_URL=http://127.0.0.1:1\n');
    const { child, url } = await serveCli(['--port', '0', '--seed', '7', '--write-env', file]);
    running.push(child);
    expect(parseEnv(readFileSync(file, 'utf8')).SANDBOX_BASE_URL).toBe(url);
    expect(readdirSync(dir)).toEqual(['sandbox.env']);
  });

  it('startSandbox({ envFile }) writes the same lines and gives the path back', async () => {
    const dir = folder('sandbox-env-file-');
    const file = join(dir, 'nested.env');
    sandbox = await startSandbox({ seed: 7, port: 0, envFile: file });
    expect(sandbox.envFile).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(
      `${formatDotenv(sandboxEnv(sandbox.store.world, sandbox.url))}\n`,
    );
  });

  it('is named --write-env: node itself reads an --env-file even after the script', () => {
    const usage = runCli(['serve', '--help']).stdout;
    expect(usage).toContain('--write-env FILE');
    expect(usage).not.toContain('--env-file');
  });

  it('refuses to start when the file cannot be written, naming it', async () => {
    const dir = folder('sandbox-env-file-');
    const file = join(dir, 'missing-folder', 'sandbox.env');
    await expect(startSandbox({ seed: 7, port: 0, envFile: file })).rejects.toThrow(file);
    expect(existsSync(file)).toBe(false);
    const out = runCli(['serve', '--port', '0', '--seed', '7', '--write-env', file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(file);
  });
});

describe('env and its url', () => {
  it('says on stderr that SANDBOX_BASE_URL is assumed without --public-url; stdout stays dotenv', () => {
    const out = runCli(['env', '--seed', '7']);
    expect(out.code).toBe(0);
    for (const line of out.stdout.trim().split('\n')) expect(line).toMatch(/^[A-Z][A-Z0-9_]*=\S*$/);
    expect(out.stderr).toContain('SANDBOX_BASE_URL');
    expect(out.stderr).toContain('http://127.0.0.1:4010');
    expect(out.stderr).toContain('--write-env');
    const given = runCli(['env', '--seed', '7', '--public-url', 'http://localhost:9999']);
    expect(given.stderr).toBe('');
    expect(parseEnv(given.stdout).SANDBOX_BASE_URL).toBe('http://localhost:9999');
  });
});

describe('the banner’s env command', () => {
  it('in a clone, the script as it was run, with the seed and the port of this server', async () => {
    const { banner, url } = await serveWithBanner(running, 'bin/unified-api-sandbox.ts', [
      '--port',
      '0',
      '--seed',
      '7',
    ]);
    const port = new URL(url).port;
    expect(banner).toContain(
      `'node --import tsx bin/unified-api-sandbox.ts env --seed 7 --port ${port}' prints every key`,
    );
    expect(banner).not.toContain('npx');
  });

  it('from a dependency (inside node_modules), npx unified-api-sandbox', async () => {
    const project = folder('sandbox-project-');
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'unified-api-sandbox'), 'dir');
    const script = join(project, 'node_modules', 'unified-api-sandbox', 'bin', 'unified-api-sandbox.ts');
    const { banner, url } = await serveWithBanner(running, script, ['--port', '0'], project);
    expect(banner).toContain(
      `'npx unified-api-sandbox env --port ${new URL(url).port}' prints every key and consumer id`,
    );
  });

  it('envCommandLine: installed, on the PATH, built in a clone, from source', () => {
    expect(envCommandLine('/p/node_modules/.bin/unified-api-sandbox', '/p', [])).toBe(
      'npx unified-api-sandbox env',
    );
    expect(envCommandLine('/p/node_modules/unified-api-sandbox/dist/cli.mjs', '/p', ['--seed', '7'])).toBe(
      'npx unified-api-sandbox env --seed 7',
    );
    expect(envCommandLine('/usr/local/bin/unified-api-sandbox', '/home/me', [])).toBe(
      'unified-api-sandbox env',
    );
    expect(envCommandLine('/src/sandbox/dist/cli.mjs', '/src/sandbox', ['--port', '4011'])).toBe(
      'node dist/cli.mjs env --port 4011',
    );
    expect(envCommandLine('/src/sandbox/dist/cli.mjs', '/elsewhere', [])).toBe(
      'node /src/sandbox/dist/cli.mjs env',
    );
    expect(envCommandLine('/src/sandbox/bin/unified-api-sandbox.ts', '/src/sandbox', [])).toBe(
      'node --import tsx bin/unified-api-sandbox.ts env',
    );
    expect(envCommandLine('/src/sandbox/dist/cli.mjs', '/src/sandbox', ['--db', 'my world.json'])).toBe(
      "node dist/cli.mjs env --db 'my world.json'",
    );
  });
});
