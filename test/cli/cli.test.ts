import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorldFile, seedDirectory } from '../../src/control/seeded-world.js';
import { messages } from '../../src/lib/errors.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import { StartError, startSandbox } from '../../src/server.js';
import { tempDir } from '../temp-dir.js';
import { ROOT, runCli, serveCli, stop } from './helpers.js';

/** The refusal of a --now outside the sandbox's calendar, as a pattern of the whole line. */
const outsideCalendar = (now: string) =>
  new RegExp(`--now ${now}: ${messages.outsideCalendar}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

const ENV_NAMES = [
  'SANDBOX_BASE_URL',
  'SANDBOX_ACCOUNT_ID',
  'SANDBOX_CLIENT_ID',
  'SANDBOX_CLIENT_SECRET',
  'SANDBOX_PRODUCTION_CLIENT_ID',
  'SANDBOX_PRODUCTION_CLIENT_SECRET',
  'SANDBOX_RESTRICTED_CLIENT_ID',
  'SANDBOX_RESTRICTED_CLIENT_SECRET',
  'SANDBOX_RESTRICTED_CONSUMER_ID',
  'SANDBOX_CONSUMER_ID_ACCOUNTING',
  'SANDBOX_CONSUMER_ID_POS',
  'SANDBOX_CONSUMER_ID_ECOMMERCE',
  'SANDBOX_CONSUMER_ID_INVOICING',
  'SANDBOX_CONSUMER_ID_BANKING',
  'SANDBOX_CONSUMER_ID_PAYMENT',
  'SANDBOX_CONSUMER_ID_PMS',
  'SANDBOX_CONSUMER_ID_CUSTOM',
  'SANDBOX_SYNC_ID',
  'SANDBOX_SYNC_CONSUMER_ID',
];

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

describe('CLI', () => {
  it('env prints exactly the documented names, with the values of the seeded world', () => {
    const out = runCli(['env', '--seed', '7', '--port', '4999']);
    expect(out.code).toBe(0);
    const env = parseEnv(out.stdout);
    expect(Object.keys(env)).toEqual(ENV_NAMES);
    const creds = seedCredentials(7);
    const dir = seedDirectory(7);
    expect(env.SANDBOX_BASE_URL).toBe('http://127.0.0.1:4999');
    expect(env.SANDBOX_ACCOUNT_ID).toBe(creds.accountId);
    expect(env.SANDBOX_CLIENT_SECRET).toBe(creds.sandbox.clientSecret);
    expect(env.SANDBOX_RESTRICTED_CONSUMER_ID).toBe(creds.restricted.consumerId);
    expect(env.SANDBOX_CONSUMER_ID_PMS).toBe(dir.verticalConsumers.PMS);
    expect(env.SANDBOX_CONSUMER_ID_CUSTOM).toBe(dir.customConsumerId);
  });

  it.each([['serve'], ['env'], ['help']])('%s --help prints usage and exits 0', (command) => {
    const out = runCli([command, '--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/unified-api-sandbox/);
  });

  it.each([[['--version']], [['-v']], [['serve', '--version']], [['env', '-v']]])(
    '%j prints the version of package.json alone, and exits 0',
    (args) => {
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      const out = runCli(args);
      expect(out).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    },
  );

  it.each([
    [['--port', 'abc'], /--port takes a whole number/],
    [['--request-journal', 'ten'], /--request-journal takes a whole number/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--size', 'huge'], /--size is default or large/],
    [['--now', 'someday'], /--now takes an ISO date-time/],
    [['--now', '+010000-01-01T00:00:00Z'], outsideCalendar('+010000-01-01T00:00:00Z')],
    [['--now', '1969-12-31T23:59:59Z'], outsideCalendar('1969-12-31T23:59:59Z')],
    [['env', '--now', '9999-12-31T00:00:00Z'], outsideCalendar('9999-12-31T00:00:00Z')],
    [['--host', '0.0.0.0'], /needs --admin-token/],
    [['--host', '0.0.0.0', '--admin-token', 'admin'], /needs a seed of your own/],
    [['--host', '0.0.0.0', '--admin-token', 'admin', '--seed', '1'], /needs a seed of your own/],
    [['frobnicate'], /Unknown command 'frobnicate'/],
    // A drift file serve cannot read stops it before it listens, with the reader's message.
    [['--drift', 'no-such-drift.yaml'], /--drift cannot read no-such-drift\.yaml/],
  ])('refuses %j with a clear message and exit code 2', (args, message) => {
    const out = runCli(args);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(message);
  });

  it('serve listens, and the env of the same seed authenticates against it', async () => {
    const { child, url } = await serveCli(['--port', '0', '--seed', '7']);
    try {
      const env = parseEnv(runCli(['env', '--seed', '7']).stdout);
      const token = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          accountId: env.SANDBOX_ACCOUNT_ID,
          clientId: env.SANDBOX_CLIENT_ID,
          clientSecret: env.SANDBOX_CLIENT_SECRET,
        }),
      });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const consumer = await fetch(`${url}/consumers/${env.SANDBOX_CONSUMER_ID_ACCOUNTING}`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(consumer.status).toBe(200);
    } finally {
      await stop(child);
    }
  });

  it('env --fixtures names the consumers of the world serve --fixtures starts', async () => {
    const fixtures = 'examples/fixtures/accounting-world.yaml';
    const env = parseEnv(runCli(['env', '--seed', '7', '--fixtures', fixtures]).stdout);
    // The example replaces the seeded consumers: the accounting one is its bakery, no other vertical.
    expect(env.SANDBOX_CONSUMER_ID_ACCOUNTING).toBeDefined();
    expect(env.SANDBOX_CONSUMER_ID_ACCOUNTING).not.toBe(seedDirectory(7).verticalConsumers.ACCOUNTING);
    expect(env.SANDBOX_CONSUMER_ID_PMS).toBeUndefined();
    const { child, url } = await serveCli(['--port', '0', '--seed', '7', '--fixtures', fixtures]);
    try {
      const token = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          accountId: env.SANDBOX_ACCOUNT_ID,
          clientId: env.SANDBOX_CLIENT_ID,
          clientSecret: env.SANDBOX_CLIENT_SECRET,
        }),
      });
      const { access_token } = (await token.json()) as { access_token: string };
      const consumer = await fetch(`${url}/consumers/${env.SANDBOX_CONSUMER_ID_ACCOUNTING}`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(((await consumer.json()) as { name: string }).name).toBe('Acme Bakery');
    } finally {
      await stop(child);
    }
  });

  it('--db keeps every acknowledged write across a SIGKILL, and refuses a corrupt file untouched', async () => {
    const dir = tempDir('sandbox-cli-');
    const db = join(dir, 'world.json');
    const first = await serveCli(['--port', '0', '--seed', '3', '--db', db]);
    const creds = seedCredentials(3);
    const names: string[] = [];
    try {
      const res = await fetch(`${first.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
      });
      const { access_token } = (await res.json()) as { access_token: string };
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const created = await fetch(`${first.url}/consumers`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
            body: JSON.stringify({ name: `Durable ${i}` }),
          });
          if (created.status === 200) names.push(`Durable ${i}`);
        }),
      );
    } finally {
      await stop(first.child, 'SIGKILL');
    }
    expect(names).toHaveLength(20);
    const saved = await openWorldFile(
      db,
      () => {
        throw new Error('the world file is gone');
      },
      { readOnly: true },
    );
    const savedNames = Object.values(saved.world.consumers).map((c) => c.name);
    for (const name of names) expect(savedNames).toContain(name);

    const second = await serveCli(['--port', '0', '--db', db]);
    await stop(second.child);

    writeFileSync(db, '{"meta": {"schema": 1}, "consumers": ');
    const out = runCli(['serve', '--port', '0', '--db', db]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/not a valid sandbox world.*left untouched/);
    expect(readFileSync(db, 'utf8')).toBe('{"meta": {"schema": 1}, "consumers": ');
  });
});

describe('beyond loopback', () => {
  const ADMIN = 'admin-token-of-the-test';
  const SEED = 48_213_977;

  it('refuses the default seed: no seed, seed 1, or a world file of seed 1', async () => {
    const refusal = /0\.0\.0\.0 \(beyond loopback\) needs a seed of your own.*not the default 1/;
    await expect(startSandbox({ host: '0.0.0.0', adminToken: ADMIN, port: 0 })).rejects.toThrow(refusal);
    await expect(startSandbox({ host: '0.0.0.0', adminToken: ADMIN, port: 0, seed: 1 })).rejects.toThrow(
      StartError,
    );

    const db = join(tempDir('sandbox-exposed-'), 'world.json');
    const local = await startSandbox({ port: 0, db });
    expect(local.seed).toBe(1);
    await local.close();
    // The file's seed is the world's, whatever --seed says.
    await expect(
      startSandbox({ host: '0.0.0.0', adminToken: ADMIN, port: 0, seed: SEED, db }),
    ).rejects.toThrow(refusal);
    // The refused start let go of the file.
    const again = await startSandbox({ port: 0, db });
    await again.close();
  });

  it('starts with a seed of its own and an admin token', async () => {
    const sandbox = await startSandbox({ host: '0.0.0.0', adminToken: ADMIN, port: 0, seed: SEED });
    try {
      expect(sandbox.seed).toBe(SEED);
      expect(sandbox.credentials).toEqual(seedCredentials(SEED));
      const local = `http://127.0.0.1:${sandbox.port}`;
      expect((await fetch(`${local}/__sandbox/clock`)).status).toBe(401);
      const clock = await fetch(`${local}/__sandbox/clock`, {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      expect(clock.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

describe('--log', () => {
  it('prints a line per recorded request after the banner, and nothing but the url with --quiet', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bin/unified-api-sandbox.ts', 'serve', '--port', '0', '--seed', '7', '--log'],
      { cwd: ROOT },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const until = async (test: () => boolean) => {
      for (let i = 0; i < 400 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    try {
      await until(() => /API\s+http:\/\/\S+/.test(out));
      const url = /API\s+(http:\/\/\S+)/.exec(out)?.[1];
      expect(url).toBeDefined();
      // The banner's console and MCP urls are the sandbox's own.
      const consoleUrl = /Console\s+(http:\/\/\S+)/.exec(out)?.[1];
      expect(consoleUrl).toBe(`${url}/console`);
      expect((await fetch(consoleUrl as string)).status).toBe(200);
      const mcpUrl = /MCP\s+(http:\/\/\S+)/.exec(out)?.[1];
      expect(mcpUrl).toBe(`${url}/mcp`);
      expect((await fetch(mcpUrl as string, { method: 'POST' })).headers.get('www-authenticate')).toContain(
        'resource_metadata=',
      );
      expect((await fetch(`${url}/integrations`)).status).toBe(401);
      await fetch(`${url}/__sandbox/clock`);
      await until(() => out.includes('GET /integrations'));
      const lines = out.trim().split('\n');
      expect(lines.at(-1)).toMatch(/^GET \/integrations 401 \d+(\.\d+)?ms$/);
      expect(out).not.toContain('/__sandbox/clock 200');
    } finally {
      await stop(child);
    }

    const quiet = await serveCli(['--port', '0', '--seed', '7', '--log']);
    let quietOut = '';
    quiet.child.stdout?.on('data', (chunk: Buffer) => {
      quietOut += chunk.toString();
    });
    try {
      expect((await fetch(`${quiet.url}/integrations`)).status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(quietOut).toBe('');
    } finally {
      await stop(quiet.child);
    }
  });
});
