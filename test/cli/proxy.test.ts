import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type Listening, listenOn } from '../helpers.js';
import { ROOT, type ServingCli, serveWith } from './helpers.js';

/**
 * `unified-api-sandbox proxy`: a line per exchange while the client runs, and on SIGINT the report,
 * the recorded world and the HAR written, none holding a credential; --fail-on sets the exit code.
 */

const SEED = 7;
const ids = seedDirectory(SEED);
const CLI = ['--import', 'tsx', 'bin/unified-api-sandbox.ts'];

let upstream: Listening;
let folder: string;
let proxy: ServingCli | undefined;

beforeEach(async () => {
  upstream = await listenOn(createApp({ seed: SEED, connectionLife: 'off' }));
  folder = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
});

afterEach(async () => {
  if (proxy && proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
  proxy = undefined;
  await upstream.close();
  rmSync(folder, { recursive: true, force: true });
});

function exited(serving: ServingCli): Promise<number | null> {
  return new Promise((resolve) => {
    if (serving.child.exitCode !== null) resolve(serving.child.exitCode);
    serving.child.once('exit', (code) => resolve(code));
  });
}

describe('unified-api-sandbox proxy', () => {
  it('prints each exchange checked, and writes its files when stopped', async () => {
    const file = (name: string) => join(folder, name);
    proxy = await serveWith([
      ...CLI,
      'proxy',
      '--upstream',
      upstream.origin,
      '--port',
      '0',
      '--seed',
      String(SEED),
      '--report',
      file('drift.json'),
      '--record',
      file('world.yaml'),
      '--har',
      file('traffic.har'),
      '--fail-on',
      'info',
    ]);
    let out = '';
    proxy.child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const consumer = ids.verticalConsumers.INVOICING as string;
    const token = (await (
      await fetch(`${proxy.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: ids.accountId, ...ids.sandbox }),
      })
    ).json()) as { access_token: string };
    const headers = { authorization: `Bearer ${token.access_token}` };
    expect((await fetch(`${proxy.url}/consumers/${consumer}`, { headers })).status).toBe(200);
    expect((await fetch(`${proxy.url}/consumers/${consumer}/invoicing/contacts`, { headers })).status).toBe(
      200,
    );
    // A path no operation describes: an info finding, which --fail-on info fails on.
    expect((await fetch(`${proxy.url}/not-an-operation`, { headers })).status).toBe(404);
    await expect.poll(() => out, { timeout: 15_000 }).toMatch(/x4\s+GET \/not-an-operation 404/);
    expect(out).toMatch(
      /x3\s+GET \/consumers\/[^ ]+\/invoicing\/contacts 200 \d+ms {2}document: ok {2}sandbox: ok/,
    );
    proxy.child.kill('SIGINT');
    expect(await exited(proxy)).toBe(1);

    const report = JSON.parse(readFileSync(file('drift.json'), 'utf8'));
    expect(report.exchanges).toBe(4);
    expect(report.findings.map((finding: { kind: string }) => finding.kind)).toEqual(['unknown_operation']);
    const world = parse(readFileSync(file('world.yaml'), 'utf8'));
    expect(world.consumers[0].id).toBe(consumer);
    expect(world.consumers[0].connections[0].invoicing.contacts.length).toBeGreaterThan(0);
    const har = JSON.parse(readFileSync(file('traffic.har'), 'utf8'));
    expect(har.log.entries).toHaveLength(4);
    for (const name of ['drift.json', 'world.yaml', 'traffic.har']) {
      const text = readFileSync(file(name), 'utf8');
      expect(text).not.toContain(ids.sandbox.clientSecret);
      expect(text).not.toContain(token.access_token);
    }
  });

  it('serves the drift console with --console-port, prints its url, and closes it when stopped', async () => {
    // serveWith resolves on the first url: the console's, printed with it, is read here instead.
    const child = spawn(
      process.execPath,
      [...CLI, 'proxy', '--upstream', upstream.origin, '--port', '0', '--console-port', '0', '--quiet'],
      { cwd: ROOT },
    );
    proxy = { child, url: '' };
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await expect.poll(() => out, { timeout: 15_000 }).toMatch(/^http:\/\/\S+\nhttp:\/\/\S+\n/);
    const [proxyUrl, consoleUrl] = out.trim().split('\n') as [string, string];
    expect(consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(consoleUrl).not.toBe(proxyUrl);
    const page = await fetch(`${consoleUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Drift, live');
    expect(((await (await fetch(`${consoleUrl}/report.json`)).json()) as { upstream: string }).upstream).toBe(
      upstream.origin,
    );
    proxy.child.kill('SIGINT');
    expect(await exited(proxy)).toBe(0);
    await expect(fetch(`${consoleUrl}/`)).rejects.toThrow();
  });

  it('refuses an upstream that is not an http url, or a drift file it cannot read (--drift, --follow), before listening', async () => {
    await expect(serveWith([...CLI, 'proxy', '--upstream', 'ftp://example.com'])).rejects.toThrow(
      /exited with 2: unified-api-sandbox: --upstream takes an http or https url/,
    );
    const drift = join(folder, 'drift.yaml');
    writeFileSync(drift, 'known:\n  - kind: sandbox_status\n');
    await expect(
      serveWith([...CLI, 'proxy', '--upstream', upstream.origin, '--port', '0', '--drift', drift]),
    ).rejects.toThrow(/exited with 2: unified-api-sandbox: .*drift\.yaml, known\.0\.method: /);
    await expect(
      serveWith([...CLI, 'proxy', '--upstream', upstream.origin, '--port', '0', '--follow', drift]),
    ).rejects.toThrow(/exited with 2: unified-api-sandbox: .*drift\.yaml, known\.0\.method: /);
  });
});
