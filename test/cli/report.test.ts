import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldFile, seedWorld } from '../../src/control/seeded-world.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { ROOT, serveCli, stop } from './helpers.js';

/**
 * `unified-api-sandbox report`: the readiness report of a running sandbox (or of one of its worlds),
 * printed as Markdown, JSON or JUnit, with an exit code CI can fail on.
 */

function report(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/unified-api-sandbox.ts', 'report', ...args],
      { cwd: ROOT, timeout: 30_000, env: { ...process.env, SANDBOX_BASE_URL: '', SANDBOX_ADMIN_TOKEN: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let sandbox: RunningSandbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A token, then a write sent twice without a request id. */
async function sloppy(
  base: string,
  credentials: { accountId: string; clientId: string; clientSecret: string },
) {
  const token = (await (
    await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    })
  ).json()) as { access_token: string };
  const consumer = (await (
    await fetch(`${base}/consumers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({ name: 'CLI report' }),
    })
  ).json()) as { consumerid: string };
  for (let i = 0; i < 2; i += 1) {
    const res = await fetch(`${base}/consumers/${consumer.consumerid}/invoicing/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({ company_name: 'Twice SA' }),
    });
    // No invoicing connection: the write fails the same way twice.
    expect(res.status).toBeGreaterThanOrEqual(400);
  }
  return token.access_token;
}

describe('unified-api-sandbox report', () => {
  it('prints the report, and exits 1 when a finding --fail-on names is there', async () => {
    sandbox = await startSandbox({ seed: 11, port: 0 });
    await sloppy(sandbox.url, { accountId: sandbox.credentials.accountId, ...sandbox.credentials.sandbox });
    const markdown = await report(['--url', sandbox.url]);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain('# Integration readiness report');
    expect(markdown.stdout).toContain('`repeated_failure`');
    // Each finding links its section of the readiness guide, on the sandbox the report was read from.
    const guide = `${sandbox.url}/guides/readiness#repeated_failure`;
    expect(markdown.stdout).toContain(`See [${guide}](${guide}).`);
    const page = await fetch(guide);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="repeated_failure"');
    const failing = await report([
      '--url',
      sandbox.url,
      '--fail-on',
      'repeated_failure',
      '--format',
      'junit',
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('<failure type="repeated_failure"');
    expect(failing.stderr).toContain('fail the run: repeated_failure');
    const passing = await report(['--url', sandbox.url, '--fail-on', 'duplicate_write,expired_token_used']);
    expect(passing.code).toBe(0);
    dir = await mkdtemp(join(tmpdir(), 'report-'));
    const file = join(dir, 'report.json');
    const json = await report(['--url', sandbox.url, '--format', 'json', '--output', file]);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('');
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written.findings.map((f: { kind: string }) => f.kind)).toContain('repeated_failure');
  });

  it("reads a world's report with its control token, and refuses what it does not know", async () => {
    sandbox = await startSandbox({ seed: 11, port: 0 });
    const created = (await (await fetch(`${sandbox.url}/__sandbox/worlds`, { method: 'POST' })).json()) as {
      control_token: string;
      credentials: { account_id: string; sandbox: { client_id: string; client_secret: string } };
    };
    await sloppy(sandbox.url, {
      accountId: created.credentials.account_id,
      clientId: created.credentials.sandbox.client_id,
      clientSecret: created.credentials.sandbox.client_secret,
    });
    const world = await report([
      '--url',
      sandbox.url,
      '--admin-token',
      created.control_token,
      '--format',
      'json',
    ]);
    expect(world.code, world.stderr).toBe(0);
    expect(JSON.parse(world.stdout).requests.api_calls).toBe(3);
    // The default world saw none of it.
    const main = await report(['--url', sandbox.url, '--format', 'json']);
    expect(JSON.parse(main.stdout).requests.api_calls).toBe(0);
    const unknown = await report(['--url', sandbox.url, '--fail-on', 'sloppiness']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('sloppiness');
    const format = await report(['--url', sandbox.url, '--format', 'html']);
    expect(format.code).toBe(2);
    const down = await report(['--url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('cannot read the report');
  });

  it('reads the world file of a stopped sandbox, and the journal it wrote beside it without credentials', async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-db-'));
    const db = join(dir, 'world.json');
    const served = await serveCli(['--port', '0', '--seed', '11', '--db', db]);
    const { seedDirectory } = await import('../../src/control/seeded-world.js');
    const ids = seedDirectory(11);
    const token = await sloppy(served.url, { accountId: ids.accountId, ...ids.sandbox });
    await stop(served.child);
    const file = await readFile(`${db}.requests.jsonl`, 'utf8');
    expect(file).not.toContain(token);
    expect(file).not.toContain(token.split('.')[2]);
    expect(file).not.toContain(ids.sandbox.clientSecret);
    const json = await report(['--db', db, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.requests.api_calls).toBe(3);
    expect(body.findings.map((f: { kind: string }) => f.kind)).toContain('repeated_failure');
    // No server runs: each finding links the guide's file, from the working directory (a clone here;
    // node_modules/unified-api-sandbox/docs/readiness.md where the package is installed).
    const docs = body.findings.find((f: { kind: string }) => f.kind === 'repeated_failure').docs;
    expect(docs).toBe('docs/readiness.md#repeated_failure');
    expect(await readFile(join(ROOT, 'docs/readiness.md'), 'utf8')).toMatch(/^#### repeated_failure$/m);
    const failing = await report(['--db', db, '--fail-on', 'repeated_failure']);
    expect(failing.code).toBe(1);
    const missing = await report(['--db', join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
  });

  it('refuses a requests file it cannot read: exit 2, one line naming the file, the line and the field', async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-bad-'));
    const head = '{"format":"unified-api-sandbox requests","version":1,"control_calls":[]}';
    const line = {
      seq: 1,
      at: 1_790_000_000_000,
      method: 'GET',
      path: '/consumers',
      url: 'http://127.0.0.1/consumers',
      headers: ['host', '127.0.0.1'],
      client: null,
      consumerId: null,
      connectionId: null,
      requestBody: null,
      requestTruncated: false,
      status: 200,
      responseBody: '[]',
      responseTruncated: false,
      durationMs: 1,
      fault: null,
      redacted: false,
      page: null,
    };
    const cases: [string, string, string][] = [
      ['an empty object', `${head}\n{}\n`, 'line 2, field seq'],
      [
        'a field of the wrong type',
        `${head}\n${JSON.stringify({ ...line, headers: [1, 2] })}\n`,
        'line 2, field headers[0]',
      ],
      [
        'a status as text',
        `${head}\n${JSON.stringify(line)}\n${JSON.stringify({ ...line, seq: 2, status: '200' })}\n`,
        'line 3, field status',
      ],
      [
        'control calls that are no list',
        '{"format":"unified-api-sandbox requests","version":1,"control_calls":5}\n',
        'line 1, field control_calls',
      ],
      ['a line that is not JSON', `${head}\n{"seq":\n`, 'line 2: not JSON'],
      ['another file', '{"format":"something else"}\n', 'line 1, field format'],
    ];
    const worlds = await Promise.all(
      cases.map(async ([, text], index) => {
        const db = join(dir as string, `world-${index}.json`);
        const store = await openWorldFile(db, () => seedWorld(11));
        await store.close();
        await writeFile(`${db}.requests.jsonl`, text);
        return db;
      }),
    );
    const outs = await Promise.all(worlds.map((db) => report(['--db', db, '--format', 'json'])));
    cases.forEach(([what, , where], index) => {
      const out = outs[index] as { code: number; stdout: string; stderr: string };
      expect(out.code, what).toBe(2);
      expect(out.stdout, what).toBe('');
      const lines = out.stderr.trim().split('\n');
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toContain(`${worlds[index]}.requests.jsonl, ${where}`);
    });
  }, 120_000);
});
