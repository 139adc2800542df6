import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, errors } from '../../src/lib/errors.js';
import { automationDirectory } from '../../src/modules/syncs/automation.seed.js';
import { type AccessPolicy, accessPolicies, grantsScope, type Scopes } from '../../src/platform/openapi.js';
import {
  call,
  everyOperationDocument,
  expectError,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../helpers.js';

const auto = automationDirectory(SEED);

/** An MCP token of the seeded key, bound to `consumerId`, with the scopes asked for (default: all). */
async function mcpToken(s: TestSandbox, consumerId: string, scopes?: string[]): Promise<string> {
  const res = await call(s.app, 'POST', '/mcp-token', {
    token: await sandboxToken(s),
    body: { accountId: s.ids.accountId, ...s.ids.sandbox, consumerId, ...(scopes ? { scopes } : {}) },
  });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

const NEW_SYNC = {
  name: 'Made by a restricted key',
  connections: [{ one_api: 3, connection_type: 1 }],
  flows: [
    {
      name: 'Hourly check',
      execution: { type: 'module', data: { name: 'check' } },
      triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['0 * * * *'] }],
    },
  ],
};

describe('a key restricted to consumers changes nothing of the account as a whole', () => {
  it('cannot remove a flow that consumers it does not see have enabled', async () => {
    const s = sandbox();
    const full = await sandboxToken(s);
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const setup = `/consumers/${s.ids.syncConsumerId}/syncs/${s.ids.syncId}`;
    expectError(await call(s.app, 'GET', setup, { token: restricted }), errors.consumerNotFound());

    const removed = await call(s.app, 'DELETE', `/syncs/${s.ids.syncId}/flows/${auto.paymentsFlowId}`, {
      token: restricted,
    });
    expectError(removed, errors.restrictedKey());
    const after = await call(s.app, 'GET', setup, { token: full });
    expect(after.body.enabled_flows.map((f: { id: string }) => f.id)).toEqual([
      auto.invoicesFlowId,
      auto.paymentsFlowId,
    ]);
  });

  it('cannot create a sync, nor add or change a flow of one', async () => {
    const s = sandbox();
    const full = await sandboxToken(s);
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const before = (await call(s.app, 'GET', '/syncs', { token: full })).body;

    expectError(
      await call(s.app, 'POST', '/syncs', { token: restricted, body: NEW_SYNC }),
      errors.restrictedKey(),
    );
    const flow = NEW_SYNC.flows[0];
    expectError(
      await call(s.app, 'POST', `/syncs/${s.ids.syncId}/flows`, { token: restricted, body: flow }),
      errors.restrictedKey(),
    );
    expect((await call(s.app, 'GET', '/syncs', { token: full })).body).toEqual(before);
  });

  it('is refused before its input is read, as POST /consumers refuses it', async () => {
    const s = sandbox();
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    for (const [method, path] of [
      ['POST', '/consumers'],
      ['POST', '/syncs'],
      ['POST', `/syncs/${s.ids.syncId}/flows`],
      ['DELETE', `/syncs/not-an-id/flows/${auto.paymentsFlowId}`],
    ] as const) {
      const res = await call(s.app, method, path, { token: restricted, body: {} });
      expectError(res, errors.restrictedKey());
    }
  });

  it('MCP tokens are refused as before: a scope the operation does not accept, or any consumer', async () => {
    const s = sandbox();
    const mcp = await mcpToken(s, s.ids.syncConsumerId);
    expectError(
      await call(s.app, 'DELETE', `/syncs/${s.ids.syncId}/flows/${auto.paymentsFlowId}`, { token: mcp }),
      errors.scopeDenied([]),
    );
    expectError(await call(s.app, 'POST', '/syncs', { token: mcp, body: NEW_SYNC }), errors.scopeDenied([]));
    expectError(
      await call(s.app, 'POST', '/consumers', { token: mcp, body: { name: 'x' } }),
      errors.mcpConsumerDenied(),
    );
    const readOnly = await mcpToken(s, s.ids.syncConsumerId, ['consumers.read']);
    expectError(
      await call(s.app, 'POST', '/consumers', { token: readOnly, body: { name: 'x' } }),
      errors.scopeDenied(['consumers']),
    );
  });
});

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any;

const ADMIN = 'access-policy-admin-token';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  method: string;
  path: string;
  op: Json;
  scopes: Scopes;
}

/**
 * The operations of a served document, reads first and deletes last, longest paths first (what a
 * consumer holds is deleted before the consumer itself).
 */
function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const mcp = (op.security ?? []).find((r: Json) => 'mcp_auth' in r);
      out.push({ method: method.toUpperCase(), path, op, scopes: mcp ? mcp.mcp_auth : null });
    }
  }
  const rank = (o: Operation) => METHODS.indexOf(o.method.toLowerCase() as (typeof METHODS)[number]);
  return out.sort((a, b) => rank(a) - rank(b) || (a.method === 'DELETE' ? b.path.length - a.path.length : 0));
}

const keyOf = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

/** A fresh app's served document, its operations, and the policies its routes declare. */
async function served() {
  const s = sandbox();
  const doc: Json = await everyOperationDocument(s.app);
  return { doc, operations: operationsOf(doc), policies: accessPolicies(s.app) };
}

describe('every operation of the served document declares its access policy', () => {
  let operations: Operation[];
  let policies: Map<string, AccessPolicy>;
  beforeAll(async () => {
    ({ operations, policies } = await served());
  });

  it('has one, consistent with its security requirement and its path', () => {
    expect(operations.length).toBeGreaterThan(200);
    const wrong: string[] = [];
    for (const o of operations) {
      const policy = policies.get(keyOf(o));
      const schemes = (o.op.security ?? []).flatMap((r: Json) => Object.keys(r));
      const expected: AccessPolicy[] = schemes.includes('sandboxAdmin')
        ? ['admin']
        : schemes.includes('bearerAuth')
          ? o.path.startsWith('/consumers/{consumer_id}')
            ? ['consumer']
            : ['account', 'account-wide']
          : ['public'];
      if (policy === undefined) wrong.push(`${keyOf(o)}: no access policy declared`);
      else if (!expected.includes(policy)) wrong.push(`${keyOf(o)}: ${policy}, expected one of ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it('classes these operations as changing the account as a whole', () => {
    const wide = operations.filter((o) => policies.get(keyOf(o)) === 'account-wide').map(keyOf);
    expect(wide.sort()).toEqual([
      'DELETE /syncs/{syncid}/flows/{flowid}',
      'POST /consumers',
      'POST /syncs',
      'POST /syncs/{syncid}/flows',
    ]);
  });
});

type Who =
  | 'no token'
  | 'full key'
  | 'restricted key'
  | 'other account'
  | 'other environment'
  | 'MCP token with the scope'
  | 'MCP token without it';

const PRINCIPALS: Who[] = [
  'no token',
  'full key',
  'restricted key',
  'other account',
  'other environment',
  'MCP token with the scope',
  'MCP token without it',
];

/** The one scope of the narrow MCP token: it grants a few reads, so both outcomes of the rule are met. */
const NARROW_SCOPES = ['consumers.read'];

/** The seeded consumer each group of consumer operations is called on (none of them the restricted key's). */
function consumerFor(s: TestSandbox, path: string): string {
  const area = /^\/consumers\/\{consumer_id\}\/([^/]+)/.exec(path)?.[1];
  const vertical: Record<string, string> = {
    accounting: 'ACCOUNTING',
    pos: 'POS',
    commerce: 'ECOMMERCE',
    invoicing: 'INVOICING',
    banking: 'BANKING',
    payment: 'PAYMENT',
    pms: 'PMS',
  };
  if (area === 'syncs') return s.ids.syncConsumerId;
  return s.ids.verticalConsumers[vertical[area ?? ''] ?? 'ACCOUNTING'] as string;
}

/** A value of a parameter's schema: its first enum value, a date, a number, or a random uuid. */
function sample(doc: Json, schema: Json): string {
  const resolve = (x: Json): Json =>
    x?.$ref ? doc.components.schemas[String(x.$ref).split('/').pop() as string] : x;
  let sch = resolve(schema);
  sch = resolve(sch?.allOf?.[0] ?? sch?.anyOf?.[0] ?? sch);
  if (sch?.enum) return String(sch.enum[0]);
  if (sch?.format === 'date') return '2025-01-01';
  if (sch?.format === 'date-time') return '2025-01-01T00:00:00Z';
  if (sch?.type === 'integer') return '1';
  if (sch?.type === 'boolean') return 'true';
  return randomUUID();
}

/** The request of an operation: path parameters from the seeded world where cheap, required queries, {} as body. */
function requestOf(s: TestSandbox, doc: Json, o: Operation): { url: string; consumer: string | null } {
  const world = s.app.services.store.world;
  const consumer = o.path.startsWith('/consumers/{consumer_id}') ? consumerFor(s, o.path) : null;
  const mine = (r: { accountid: string; envid: string }) =>
    r.accountid === s.ids.accountId && r.envid === s.ids.sandboxEnvId;
  const connection = Object.values(world.connections).find((c) => c.consumerid === consumer);
  const known: Record<string, string | undefined> = {
    consumer_id: consumer ?? undefined,
    syncid: s.ids.syncId,
    flowid: auto.invoicesFlowId,
    issue_id: auto.openErrorIssueId,
    webhookid: Object.values(world.webhooks).find(mine)?.webhookid,
    datastoreid: Object.values(world.datastores).find((d) => d.accountid === s.ids.accountId)?.datastoreid,
    connectionid: connection?.connectionid,
    connection_id: connection?.connectionid,
    integrationid: '1000',
    custom_path: 'records',
  };
  const params: Json[] = o.op.parameters ?? [];
  let url = o.path;
  for (const p of params.filter((p) => p.in === 'path')) {
    url = url.replace(`{${p.name}}`, encodeURIComponent(known[p.name] ?? sample(doc, p.schema)));
  }
  const query = params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(sample(doc, p.schema))}`);
  return { url: query.length ? `${url}?${query.join('&')}` : url, consumer };
}

/** What a principal must be answered, by the operation's policy; null when anything but a 5xx will do. */
function rule(who: Who, policy: AccessPolicy, scopes: Scopes, granted: readonly string[]): Expected | null {
  if (policy === 'public') return who === 'no token' ? { not: errors.missingToken() } : null;
  if (policy === 'admin') return { is: errors.adminTokenRequired() };
  if (who === 'no token') return { is: errors.missingToken() };
  const mcp = who.startsWith('MCP');
  if (mcp && !grantsScope(granted, scopes)) return { is: errors.scopeDenied(scopes ?? []) };
  if (policy === 'account-wide') {
    if (mcp) return { is: errors.mcpConsumerDenied() };
    if (who === 'restricted key') return { is: errors.restrictedKey() };
  }
  if (policy === 'consumer' && (who === 'restricted key' || who.startsWith('other'))) {
    // The consumer is not one the caller may see: as for a missing consumer (or a validation error
    // of the input, read first), never an answer.
    return { oneOf: [401, 404, 422] };
  }
  if (who === 'full key') return { noneOf: [401, 403] };
  return null;
}

type Expected = { is: ApiError } | { not: ApiError } | { oneOf: number[] } | { noneOf: number[] };

function breaks(expected: Expected | null, status: number, body: Json): string | null {
  if (status >= 500) return `a ${status}`;
  if (expected === null) return null;
  if ('is' in expected) {
    const e = expected.is;
    return status === e.status && body?.message === e.message && body?.detail === e.detail
      ? null
      : `expected ${e.status} "${e.message}" (${e.detail})`;
  }
  if ('not' in expected) return body?.message === expected.not.message ? `"${expected.not.message}"` : null;
  if ('oneOf' in expected)
    return expected.oneOf.includes(status) ? null : `expected one of ${expected.oneOf}`;
  return expected.noneOf.includes(status) ? `not expected: ${status}` : null;
}

describe('every operation, called by every kind of caller, answers as its policy says', () => {
  let doc: Json;
  let operations: Operation[];
  let policies: Map<string, AccessPolicy>;
  beforeAll(async () => {
    ({ doc, operations, policies } = await served());
  });

  it.each(PRINCIPALS)('%s', async (who) => {
    // A fresh app per caller: the writes of one do not change what the next one meets. The admin
    // token makes the control endpoints refuse every caller here.
    const s = sandbox({ adminToken: ADMIN });
    expect(Object.values(s.ids.verticalConsumers)).not.toContain(s.ids.restricted.consumerId);
    expect(s.ids.syncConsumerId).not.toBe(s.ids.restricted.consumerId);
    const full = await sandboxToken(s);
    const mcpTokens = new Map<string, string>();
    const mcpFor = async (consumerId: string) => {
      let token = mcpTokens.get(consumerId);
      if (!token) {
        const scopes = who === 'MCP token without it' ? NARROW_SCOPES : undefined;
        const res = await call(s.app, 'POST', '/mcp-token', {
          token: full,
          body: { accountId: s.ids.accountId, ...s.ids.sandbox, consumerId, ...(scopes ? { scopes } : {}) },
        });
        token = res.body.access_token as string;
        mcpTokens.set(consumerId, token);
      }
      return token;
    };
    const apiToken: Partial<Record<Who, string>> = {
      'full key': full,
      'restricted key': await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted }),
      'other account': await tokenFor(s.app, s.ids.otherAccount),
      'other environment': await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production }),
    };
    // The scopes the MCP token carries: all (the seeded key holds '*'), or the narrow ones.
    const granted = who === 'MCP token without it' ? NARROW_SCOPES : ['*'];

    const wrong: string[] = [];
    for (const o of operations) {
      const policy = policies.get(keyOf(o));
      if (policy === undefined) continue; // reported by the test above
      const { url, consumer } = requestOf(s, doc, o);
      const token = who.startsWith('MCP')
        ? await mcpFor(consumer ?? (s.ids.verticalConsumers.ACCOUNTING as string))
        : apiToken[who];
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      const hasBody = o.op.requestBody !== undefined;
      if (hasBody) headers['content-type'] = 'application/json';
      const res = await s.app.request(url, { method: o.method, headers, body: hasBody ? '{}' : undefined });
      const text = await res.text();
      let body: Json = null;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON (a page, an image): only the status is checked
      }
      const problem = breaks(rule(who, policy, o.scopes, granted), res.status, body);
      if (problem)
        wrong.push(`${keyOf(o)} [${policy}] ${url} -> ${res.status} ${text.slice(0, 160)}: ${problem}`);
    }
    expect(wrong).toEqual([]);
  });
});
