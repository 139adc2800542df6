import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { errors } from '../../src/lib/errors.js';
import { automationDirectory } from '../../src/modules/syncs/automation.seed.js';
import { startSandbox } from '../../src/server.js';
import { call, tokenFor } from '../helpers.js';
import { tempDir } from '../temp-dir.js';

/**
 * Isolation between accounts, environments, keys and consumers, driven by the served /openapi.json:
 * every operation that names a consumer is tried with the wrong caller, so operations added later are
 * covered without new code. Each test has a fresh app.
 */

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any;

const SEED = 7;
const ids = seedDirectory(SEED);
const victim = ids.verticalConsumers.ACCOUNTING as string;

let app: SandboxApp;
let doc: Json;
let tokens: Record<string, string>;

interface ConsumerOperation {
  method: string;
  path: string;
  body: string | undefined;
}

let consumerOperations: ConsumerOperation[] = [];

beforeEach(async () => {
  app = createApp({ seed: SEED });
  doc = await (await app.request('/openapi.json')).json();
  tokens = {};
  tokens.main = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
  tokens.other = await tokenFor(app, ids.otherAccount);
  tokens.production = await tokenFor(app, { accountId: ids.accountId, ...ids.production });
  tokens.restricted = await tokenFor(app, { accountId: ids.accountId, ...ids.restricted });
  const mcp = await call(app, 'POST', '/mcp-token', {
    token: tokens.main,
    body: { accountId: ids.accountId, ...ids.sandbox, consumerId: ids.verticalConsumers.POS },
  });
  tokens.mcpOther = mcp.body.access_token;
  consumerOperations = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    if (!template.startsWith('/consumers/{consumer_id}')) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const path = template
        .replace('{consumer_id}', victim)
        .replace(/\{(\w+)\}/g, '00000000-0000-4000-8000-000000000001');
      const query = (op.parameters ?? [])
        .filter((p: Json) => p.in === 'query' && p.required)
        .map((p: Json) => `${p.name}=${encodeURIComponent(queryValue(p.schema))}`)
        .join('&');
      const hasBody = Boolean(op.requestBody);
      consumerOperations.push({
        method: method.toUpperCase(),
        path: query ? `${path}?${query}` : path,
        body: hasBody ? '{}' : undefined,
      });
    }
  }
});

function queryValue(schema: Json): string {
  const s = schema?.anyOf?.[0] ?? schema ?? {};
  if (s.format === 'date-time') return '2025-01-01T00:00:00Z';
  if (s.format === 'date') return '2025-01-01';
  if (s.type === 'integer') return '1';
  if (s.type === 'boolean') return 'true';
  const ref = s.$ref ? doc.components.schemas[String(s.$ref).split('/').pop() as string] : null;
  if (ref?.enum) return String(ref.enum[0]);
  return 'x';
}

const send = (op: ConsumerOperation, token: string) =>
  app.request(op.path, {
    method: op.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(op.body !== undefined ? { body: op.body } : {}),
  });

describe('isolation, over every operation that names a consumer', () => {
  it('covers the consumer-scoped operations of the document', () => {
    expect(consumerOperations.length).toBeGreaterThanOrEqual(8);
  });

  it("another account's token reaches none of the consumer's data: 404 as for a missing consumer", async () => {
    const leaks: string[] = [];
    for (const op of consumerOperations) {
      const res = await send(op, tokens.other as string);
      const text = await res.text();
      // A body that fails validation may be refused before the lookup; it still reveals nothing.
      if (res.status !== 404 && res.status !== 422)
        leaks.push(`${op.method} ${op.path} -> ${res.status} ${text.slice(0, 120)}`);
      if (text.includes(victim)) leaks.push(`${op.method} ${op.path} echoed the consumer id`);
    }
    expect(leaks).toEqual([]);
  });

  it('a key of the other environment gets 401 on every operation', async () => {
    const wrong: string[] = [];
    for (const op of consumerOperations) {
      const res = await send(op, tokens.production as string);
      if (res.status !== 401 && res.status !== 422) wrong.push(`${op.method} ${op.path} -> ${res.status}`);
      if (res.status === 401) {
        const body = (await res.json()) as { error_code?: string };
        if (body.error_code !== 'ERROR_SERVICE_AUTHENTICATION_ERROR')
          wrong.push(`${op.method} ${op.path}: no error code`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a key restricted to another consumer gets 404 on every operation', async () => {
    const wrong: string[] = [];
    for (const op of consumerOperations) {
      const res = await send(op, tokens.restricted as string);
      if (res.status !== 404 && res.status !== 422) wrong.push(`${op.method} ${op.path} -> ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('an MCP token bound to another consumer gets 401 on every operation', async () => {
    const wrong: string[] = [];
    for (const op of consumerOperations) {
      const res = await send(op, tokens.mcpOther as string);
      if (res.status !== 401) wrong.push(`${op.method} ${op.path} -> ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("another account's webhooks are invisible", async () => {
    const created = await call(app, 'POST', '/webhooks', {
      token: tokens.main,
      body: {
        event: 'account.connection.created',
        url: 'https://vendor.example/secret-hook',
        signingsecret: 'hush',
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.webhookid as string;
    for (const [method, path] of [
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`],
      ['DELETE', `/webhooks/${id}`],
      ['GET', `/webhooks/${id}/logs`],
    ] as const) {
      const res = await call(app, method, path, {
        token: tokens.other,
        body: method === 'PATCH' ? { status: 'inactive' } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe(errors.webhookNotFound().message);
    }
    const list = await call(app, 'GET', '/webhooks', { token: tokens.other });
    expect(list.text).not.toContain(id);
  });
});

describe('account-level resources of another account', () => {
  const auto = automationDirectory(SEED);

  it('syncs, flows, executions, issues and datastores answer 404 as if missing, and lists leave them out', async () => {
    const other = tokens.other as string;
    const sync = await call(app, 'GET', `/syncs/${auto.syncId}`, { token: other });
    expect(sync.status).toBe(404);
    expect(sync.body.message).toBe(errors.syncNotFound().message);
    const event = await call(app, 'POST', `/syncs/${auto.syncId}/flows/${auto.invoicesFlowId}/event`, {
      token: other,
      body: {},
    });
    expect(event.status).toBe(404);
    const executions = await call(app, 'GET', `/syncs/${auto.syncId}/executions`, { token: other });
    expect(executions.status).toBe(404);
    const issue = await call(app, 'GET', `/issues/${auto.openErrorIssueId}`, { token: other });
    expect(issue.status).toBe(404);
    expect(issue.body.message).toBe(errors.issueNotFound().message);
    for (const [path, hidden] of [
      ['/syncs', auto.syncId],
      ['/issues', auto.openErrorIssueId],
      ['/webhooks', ''],
    ] as const) {
      const list = await call(app, 'GET', path, { token: other });
      expect(list.status).toBe(200);
      if (hidden) expect(list.text).not.toContain(hidden);
    }
    const mine = await call(app, 'GET', '/datastores', { token: tokens.main });
    const theirs = await call(app, 'GET', '/datastores', { token: other });
    const mineIds = (mine.body as { id: string }[]).map((d) => d.id);
    for (const id of mineIds) expect(theirs.text).not.toContain(id);
    const data = await call(
      app,
      'GET',
      `/consumers/${ids.otherAccountConsumerId}/datastore/${mineIds[0]}/data`,
      { token: other },
    );
    expect(data.status).toBe(404);
  });
});

describe('secrets', () => {
  const secrets = [
    ids.sandbox.clientSecret,
    ids.production.clientSecret,
    ids.restricted.clientSecret,
    ids.otherAccount.clientSecret,
  ];

  it('no answer of any read operation carries a key secret or a signing secret', async () => {
    await call(app, 'POST', '/webhooks', {
      token: tokens.main,
      body: {
        event: 'account.connection.updated',
        url: 'https://vendor.example/h2',
        signingsecret: 'signing-secret-value',
      },
    });
    const found: string[] = [];
    for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
      if (!item.get) continue;
      const path = template.replace('{consumer_id}', victim).replace(/\{(\w+)\}/g, '1');
      const res = await app.request(path, { headers: { authorization: `Bearer ${tokens.main}` } });
      const text = await res.text();
      for (const secret of [...secrets, 'signing-secret-value'])
        if (text.includes(secret)) found.push(`${path} carries a secret`);
    }
    expect(found).toEqual([]);
  });

  it('the world file holds no key secret, only hashes', async () => {
    const dir = tempDir('sandbox-secrets-');
    const sandbox = await startSandbox({ seed: SEED, port: 0, db: join(dir, 'world.json') });
    await sandbox.close();
    const text = readFileSync(join(dir, 'world.json'), 'utf8');
    for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  });

  it('nothing is logged with a secret, even when requests fail', async () => {
    const spies = (['log', 'error', 'warn', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m));
    try {
      await call(app, 'POST', '/token', {
        body: {
          accountId: ids.accountId,
          clientId: ids.sandbox.clientId,
          clientSecret: `${ids.sandbox.clientSecret}x`,
        },
      });
      await call(app, 'POST', '/token', { body: { accountId: ids.accountId, ...ids.sandbox } });
      await call(app, 'POST', '/token', {
        rawBody: `{"clientSecret":"${ids.sandbox.clientSecret}"`,
        headers: { 'content-type': 'application/json' },
      });
      const logged = spies.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' ')));
      for (const line of logged) for (const secret of secrets) expect(line.includes(secret)).toBe(false);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('control endpoints beyond loopback', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;

  beforeEach(async () => {
    sandbox = await startSandbox({ seed: SEED, port: 0, host: '0.0.0.0', adminToken: 'admin-secret' });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('refuse requests without the admin token', async () => {
    const base = `http://127.0.0.1:${sandbox.port}`;
    for (const [method, path] of [
      ['GET', '/__sandbox/clock'],
      ['POST', '/__sandbox/reset'],
    ]) {
      const refused = await fetch(`${base}${path}`, { method });
      expect(refused.status).toBe(401);
      const wrong = await fetch(`${base}${path}`, { method, headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
    }
    const ok = await fetch(`${base}/__sandbox/clock`, { headers: { authorization: 'Bearer admin-secret' } });
    expect(ok.status).toBe(200);
  });

  it('refuse to start beyond loopback without an admin token', async () => {
    await expect(startSandbox({ seed: SEED, port: 0, host: '0.0.0.0' })).rejects.toThrow(/admin-token/);
  });
});
