/**
 * Runs the official Node SDK's own test suite (the tests its package ships, written for jest against
 * the service) against a fresh world of a sandbox started here, then prints that world's readiness
 * report: what the SDK's suite did, read as docs/readiness.md reads it.
 *
 *   node --import tsx scripts/sdk-suite-report.ts [--format markdown|json] > report.md
 *
 * The suite runs under vitest with its globals (jest's names), through a stub of @jest/globals on
 * NODE_PATH. Its assertions were written for the service's own test account: some fail here; the
 * report is about the requests the suite made, whatever their outcome.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox } from '../src/server.js';

const format = process.argv.includes('json') ? 'json' : 'markdown';
const sdk = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@chift', 'chift-nodejs');
const work = mkdtempSync(join(tmpdir(), 'sdk-suite-'));
mkdirSync(join(work, 'node_modules', '@jest', 'globals'), { recursive: true });
writeFileSync(
  join(work, 'node_modules', '@jest', 'globals', 'index.js'),
  `const g = globalThis;
module.exports = { describe: g.describe, test: g.test, it: g.it, expect: g.expect, beforeAll: g.beforeAll,
  afterAll: g.afterAll, beforeEach: g.beforeEach, afterEach: g.afterEach, jest: g.vi };\n`,
);
const config = join(work, 'vitest.config.mjs');
writeFileSync(
  config,
  `export default { test: { globals: true, root: ${JSON.stringify(sdk)}, include: ['dist/test/modules/*.test.js'], testTimeout: 60000, hookTimeout: 60000, fileParallelism: false } };\n`,
);

const sandbox = await startSandbox({ port: 0, seed: 42 });
try {
  const created = (await (
    await fetch(`${sandbox.url}/__sandbox/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 42 }),
    })
  ).json()) as { control_token: string; env: Record<string, string>; credentials: Record<string, never> };
  const env = created.env;
  const suiteEnv: Record<string, string> = {
    CHIFT_BACKBONE_API: sandbox.url,
    CHIFT_TESTING_ACCOUNTID: env.SANDBOX_ACCOUNT_ID as string,
    CHIFT_TESTING_CLIENTID: env.SANDBOX_CLIENT_ID as string,
    CHIFT_TESTING_CLIENTSECRET: env.SANDBOX_CLIENT_SECRET as string,
    CHIFT_SYNC_CONSUMER_ID: env.SANDBOX_SYNC_CONSUMER_ID as string,
    CHIFT_TEST_SYNC_ID: env.SANDBOX_SYNC_ID as string,
  };
  for (const vertical of ['ACCOUNTING', 'BANKING', 'ECOMMERCE', 'INVOICING', 'PAYMENT', 'PMS', 'POS']) {
    suiteEnv[`CHIFT_${vertical}_CONSUMER_ID`] = env[`SANDBOX_CONSUMER_ID_${vertical}`] as string;
  }
  // Not spawnSync: the sandbox answers from this very process.
  const child = spawn(
    process.execPath,
    [join(sdk, '..', '..', 'vitest', 'vitest.mjs'), 'run', '--config', config],
    { cwd: sdk, env: { ...process.env, ...suiteEnv, NODE_PATH: join(work, 'node_modules') } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise((resolve) => child.once('exit', resolve));
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const summary = /^\s*Tests\s+(\d.*)$/m.exec(plain)?.[1] ?? '(no summary)';
  console.error(`The SDK's suite: ${summary.trim()}`);
  if (process.env.SDK_SUITE_VERBOSE) console.error(plain);
  const report = await fetch(`${sandbox.url}/__sandbox/report?format=${format}`, {
    headers: { authorization: `Bearer ${created.control_token}` },
  });
  process.stdout.write(await report.text());
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
