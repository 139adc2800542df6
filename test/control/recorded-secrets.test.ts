import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatRequestLine, type RequestEntry } from '../../src/control/requests/index.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { sessionValue } from '../../src/surfaces/console/console-auth.js';
import { ROOT } from '../cli/helpers.js';
import { call } from '../helpers.js';

/**
 * Nothing the sandbox records holds a credential: each kind of credential is sent in each place a
 * request can carry it (the query, by name and by shape; a path; headers, by name and by shape; a
 * Referer; JSON and form bodies; the token exchange), over a socket and in process, to the default
 * world and to a world created over HTTP. Then every output is read (the journal API, the code API,
 * the console's requests and report pages, the report as JSON, Markdown and JUnit, the --log lines,
 * the requests file written at stop and the report the command line reads from it) and searched for
 * the bytes of each secret.
 */

const ADMIN = `admin-${randomBytes(12).toString('base64url')}`;
const opaque = (what: string) => `${what}-${randomBytes(9).toString('hex')}`;

let sandbox: RunningSandbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/unified-api-sandbox.ts', ...args],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('what the sandbox records', () => {
  it('holds no credential, wherever it was sent, in any output', async () => {
    dir = await mkdtemp(join(tmpdir(), 'recorded-secrets-'));
    const db = join(dir, 'world.json');
    const log: string[] = [];
    sandbox = await startSandbox({
      seed: 23,
      port: 0,
      db,
      adminToken: ADMIN,
      onRequest: (summary) => log.push(formatRequestLine(summary)),
    });
    const base = sandbox.url;
    const secrets = new Map<string, string>();
    const secret = (what: string, value: string) => {
      secrets.set(value, what);
      return value;
    };
    const admin = { authorization: `Bearer ${ADMIN}` };
    const json = { 'content-type': 'application/json' };
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, init).then((r) => r.text());

    // The credentials a client holds: the key's secret, its token, and a world's.
    const { accountId, sandbox: key } = sandbox.credentials;
    secret('the client secret', key.clientSecret);
    secret('the admin token', ADMIN);
    secret("the console's cookie", sessionValue(ADMIN));
    const exchange = await fetch(`${base}/token`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ accountId, ...key }),
    });
    const apiToken = secret(
      'an API token',
      ((await exchange.json()) as { access_token: string }).access_token,
    );
    secret("an API token's signature", apiToken.split('.')[2] as string);
    const bearer = { authorization: `Bearer ${apiToken}` };
    const world = (await (
      await fetch(`${base}/__sandbox/worlds`, { method: 'POST', headers: admin })
    ).json()) as {
      id: string;
      control_token: string;
      credentials: { account_id: string; sandbox: { client_id: string; client_secret: string } };
    };
    const control = secret("a world's control token", world.control_token);
    const worldSecret = secret("a world's client secret", world.credentials.sandbox.client_secret);
    const worldToken = secret(
      "a world's API token",
      (
        (await (
          await fetch(`${base}/token`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({
              accountId: world.credentials.account_id,
              clientId: world.credentials.sandbox.client_id,
              clientSecret: worldSecret,
            }),
          })
        ).json()) as { access_token: string }
      ).access_token,
    );

    // Credentials recognized by their shape, sent under names that say nothing.
    const shaped = [apiToken, key.clientSecret, ADMIN, control];
    for (const value of shaped) {
      const encoded = encodeURIComponent(value);
      await send(`/consumers?search=${encoded}&page=1`, { headers: bearer });
      await send(`/consumers/${encoded}`, { headers: bearer });
      await send('/consumers', { headers: { ...bearer, 'x-note': `see ${value}` } });
      await send('/consumers', {
        method: 'POST',
        headers: { ...bearer, ...json },
        body: JSON.stringify({ name: `named ${value}` }),
      });
      await call(sandbox.app, 'GET', `/consumers?q=${encoded}`, { token: apiToken });
      // A control endpoint called with the client's token: noted for the report, path and all.
      await send(`/__sandbox/requests/${encoded}`, { headers: bearer });
    }
    // Credentials recognized by their name: query parameters, form fields, headers, JSON fields.
    for (const name of [
      'access_token',
      'token',
      'client_secret',
      'code',
      'refresh_token',
      'password',
      'api_key',
    ]) {
      await send(`/consumers?${name}=${secret(`the query's ${name}`, opaque(name))}`, { headers: bearer });
      await call(sandbox.app, 'GET', `/consumers?${name}=${secret(`${name} in process`, opaque(name))}`, {
        token: apiToken,
      });
    }
    for (const name of [
      'x-api-key',
      'x-access-token',
      'x-client-secret',
      'proxy-authorization',
      'x-auth-token',
    ]) {
      await send('/consumers', {
        headers: { ...bearer, [name]: secret(`the header ${name}`, opaque(name)) },
      });
      await call(sandbox.app, 'GET', '/consumers', {
        token: apiToken,
        headers: { [name]: secret(`${name} in process`, opaque(name)) },
      });
    }
    await send('/consumers', {
      headers: {
        ...bearer,
        cookie: `sandbox_console=${sessionValue(ADMIN)}; other=${secret('a cookie', opaque('c'))}`,
      },
    });
    await send('/consumers', {
      headers: { authorization: `Basic ${secret('a basic credential', opaque('basic'))}` },
    });
    await send('/consumers', {
      headers: {
        ...bearer,
        referer: `http://app.example/cb?code=${secret('a code in a referer', opaque('ref'))}`,
      },
    });
    await send('/consumers', {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=x&client_secret=${secret('a form field', opaque('form'))}`,
    });
    const hook = secret('a token in a webhook url', opaque('hook'));
    await send('/webhooks', {
      method: 'POST',
      headers: { ...bearer, ...json },
      body: JSON.stringify({
        event: 'account.connection.created',
        url: `https://hooks.example/in?token=${hook}`,
      }),
    });
    await send('/webhooks', {
      method: 'POST',
      headers: { ...bearer, ...json },
      body: JSON.stringify({
        event: 'account.connection.updated',
        url: 'https://hooks.example/signed',
        signingsecret: secret('a signing secret', opaque('whsec')),
      }),
    });
    await send('/webhooks', { headers: bearer });
    const consumer = sandbox.ids.verticalConsumers.ACCOUNTING as string;
    await send(`/consumers/${consumer}/connections`, {
      method: 'POST',
      headers: { ...bearer, ...json },
      body: JSON.stringify({
        integrationid: 1,
        name: 'With credentials',
        credentials: [{ key: 'api_key', value: secret("a connection's credential", opaque('cred')) }],
      }),
    });
    // To the world created over HTTP: its own secrets, and the server's admin token.
    const worldBearer = { authorization: `Bearer ${worldToken}` };
    await send(`/consumers?search=${encodeURIComponent(worldSecret)}`, { headers: worldBearer });
    await send(`/consumers?search=${encodeURIComponent(ADMIN)}`, { headers: worldBearer });
    await send(`/consumers?token=${secret('a token to a world', opaque('wt'))}`, { headers: worldBearer });

    // Every output.
    const shown: string[] = [];
    const entries: RequestEntry[] = [];
    for (let page = 1; ; page += 1) {
      const text = await send(`/__sandbox/requests?size=100&page=${page}`, { headers: admin });
      shown.push(text);
      const body = JSON.parse(text) as { items: RequestEntry[]; total: number };
      entries.push(...body.items);
      if (entries.length >= body.total || body.items.length === 0) break;
    }
    expect(entries.length).toBeGreaterThan(40);
    for (const entry of entries)
      shown.push(await send(`/__sandbox/requests/${entry.id}`, { headers: admin }));
    shown.push(JSON.stringify(sandbox.requests()));
    shown.push(
      await send('/__sandbox/requests?size=100', { headers: { authorization: `Bearer ${control}` } }),
    );
    for (const page of ['/console/requests', '/console/requests/rows?after=0', '/console/report']) {
      shown.push(await send(page, { headers: admin }));
    }
    shown.push(await send(`/console/requests/${entries[0]?.id}`, { headers: admin }));
    const report = JSON.parse(await send('/__sandbox/report', { headers: admin })) as {
      tokens: { distinct_used: number };
      findings: { kind: string }[];
    };
    shown.push(JSON.stringify(report));
    for (const format of ['markdown', 'junit'])
      shown.push(await send(`/__sandbox/report?format=${format}`, { headers: admin }));
    shown.push(await send('/__sandbox/report', { headers: { authorization: `Bearer ${control}` } }));
    // The report still reads what it needs: the token's claims, the webhook without a secret.
    expect(report.tokens.distinct_used).toBe(1);
    expect(report.findings.map((finding) => finding.kind)).toEqual(
      expect.arrayContaining(['webhook_without_secret', 'sandbox_only']),
    );
    // What stands instead of a credential: the marker.
    const named = entries.find((entry) => entry.query.access_token !== undefined);
    expect(named?.query.access_token).toBe('redacted');
    expect(entries.some((entry) => entry.request.headers['x-api-key'] === 'redacted')).toBe(true);

    await sandbox.close();
    sandbox = undefined;
    shown.push(log.join('\n'));
    const file = await readFile(`${db}.requests.jsonl`, 'utf8');
    expect(file.split('\n').length).toBeGreaterThan(40);
    shown.push(file);
    const stopped = await Promise.all(
      ['json', 'markdown', 'junit'].map((format) => cli(['report', '--db', db, '--format', format])),
    );
    for (const out of stopped) {
      expect(out.code, out.stderr).toBe(0);
      shown.push(out.stdout, out.stderr);
    }
    expect(JSON.parse(stopped[0]?.stdout ?? '{}').tokens.distinct_used).toBe(1);

    const everything = shown.join('\n');
    for (const [value, what] of secrets) {
      expect(everything.includes(value), `${what} (${value}) is in what was recorded`).toBe(false);
    }
  }, 240_000);
});
