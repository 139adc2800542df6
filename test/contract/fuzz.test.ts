import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { everyOperationDocument, tokenFor } from '../helpers.js';

/**
 * Hostile input for every operation of the served /openapi.json: generated from the document itself,
 * so operations added later come under it without new code. A fixed seed makes the few thousand
 * requests the same on every run, whatever the order of the tests: each has a fresh app and a fresh
 * generator. Asserted: no 5xx, every error body in a documented shape, nothing written by a refused
 * write (digest of the world), and the server still answers afterwards.
 */

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any;

const SEED = 7;
const ids = seedDirectory(SEED);
const PER_OPERATION = 20;

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let app: SandboxApp;
let token: string;
let doc: Json;
let random: () => number;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const resolve = (schema: Json): Json => {
  let current = schema;
  for (let i = 0; i < 20 && current?.$ref; i++) {
    current = doc.components.schemas[String(current.$ref).split('/').pop() as string];
  }
  return current ?? {};
};

/** A plausible valid value of a schema (required fields, first enum value, formats honoured). */
function sample(schema: Json, depth = 0): Json {
  const s = resolve(schema);
  if (depth > 6) return null;
  if (s.anyOf || s.oneOf) {
    const options = (s.anyOf ?? s.oneOf) as Json[];
    return sample(options.find((o) => resolve(o).type !== 'null') ?? options[0], depth + 1);
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map((p: Json) => sample(p, depth + 1)));
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const name of s.required ?? []) out[name] = sample(s.properties?.[name] ?? {}, depth + 1);
      return out;
    }
    case 'array':
      return [sample(s.items ?? {}, depth + 1)];
    case 'integer':
      return s.minimum ?? 1;
    case 'number':
      return 10.5;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000001';
      if (s.format === 'date-time') return '2025-06-01T10:00:00Z';
      if (s.format === 'date') return '2025-06-01';
      return 'fuzz';
    default:
      return null;
  }
}

const HOSTILE_VALUES: Json[] = [
  null,
  '',
  ' ',
  'x'.repeat(70_000),
  '\u0000\u0001\u001f',
  'ünïcødé ✓ 𝔘 \u202e',
  '../../etc/passwd',
  "'; DROP TABLE consumers; --",
  -1,
  0,
  1e308,
  -1e308,
  // biome-ignore lint/correctness/noPrecisionLoss: a number past what a double holds exactly is the point
  12345678901234567890,
  2.5,
  true,
  false,
  [],
  [[]],
  {},
  { $ref: '#/x' },
  { __proto__: { polluted: true } },
  'not-a-uuid',
  '2025-13-45T99:99:99Z',
  'NaN',
];

const HOSTILE_PARAMS = [
  'not-a-uuid',
  '0',
  '-1',
  '99999999999999999999',
  'x'.repeat(5000),
  '%00',
  '%E2%9C%93',
  "'",
  '..',
  '00000000-0000-0000-0000-000000000000',
  'null',
  'true',
];

/** Known ids so that requests reach the domain rules, not only the validators. */
function pathValue(name: string, schema: Json): string {
  const known: Record<string, string> = {
    consumer_id: ids.verticalConsumers.ACCOUNTING ?? '',
    syncid: ids.syncId,
    integrationid: '1000',
    image_type: 'logo',
  };
  if (known[name]) return known[name] as string;
  const value = sample(schema);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : 'x';
}

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function mutate(method: string, template: string, op: Json): Request {
  const params = (op.parameters ?? []) as Json[];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const query = new URLSearchParams();
  for (const p of queryParams)
    if (p.required || random() < 0.5) query.append(p.name, String(sample(p.schema)));
  let path = template;
  const pathValues: Record<string, string> = {};
  for (const p of pathParams) pathValues[p.name] = pathValue(p.name, p.schema);
  let body: Json = bodySchema ? sample(bodySchema) : undefined;
  let rawBody: string | undefined;

  const kind = pick([
    'path',
    'query',
    'query-dup',
    'body-field',
    'body-extra',
    'body-whole',
    'raw',
    'content-type',
  ]);
  if (kind === 'path' && pathParams.length) {
    const p = pick(pathParams);
    pathValues[p.name] = pick(HOSTILE_PARAMS);
  } else if (kind === 'query' && queryParams.length) {
    const p = pick(queryParams);
    query.set(p.name, String(pick(HOSTILE_VALUES)));
  } else if (kind === 'query-dup' && queryParams.length) {
    const p = pick(queryParams);
    query.append(p.name, String(sample(p.schema)));
    query.append(p.name, 'second');
  } else if (kind === 'body-field' && body && typeof body === 'object' && !Array.isArray(body)) {
    const target = resolve(bodySchema);
    const fields = Object.keys(target.properties ?? {});
    if (fields.length) {
      const field = pick(fields);
      if (random() < 0.3) delete body[field];
      else body[field] = pick(HOSTILE_VALUES);
    }
  } else if (kind === 'body-extra' && body && typeof body === 'object') {
    body = Array.isArray(body)
      ? [...body, pick(HOSTILE_VALUES)]
      : { ...body, unexpected_field: pick(HOSTILE_VALUES) };
  } else if (kind === 'body-whole' && method !== 'get') {
    body = pick([null, [], [body], 'string', 42, { deep: { deeper: [body] } }]);
  } else if (kind === 'raw' && method !== 'get') {
    rawBody = pick(['{', '{"a":', '[1,2', 'nul', '\u0000', '{"a":1}}', '', '   ', '{"a":"\ud800"}']);
  } else if (kind === 'content-type' && method !== 'get') {
    headers['content-type'] = pick([
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
    ]);
    rawBody = 'a=1&b=2';
  }
  for (const [name, value] of Object.entries(pathValues)) {
    path = path.replace(`{${name}}`, encodeURIComponent(value).replace(/%25/g, '%'));
  }
  const qs = query.toString();
  const request: Request = { method: method.toUpperCase(), path: qs ? `${path}?${qs}` : path, headers };
  if (rawBody !== undefined) {
    request.body = rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (body !== undefined && method !== 'get') {
    request.body = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  return request;
}

const digest = () => createHash('sha256').update(JSON.stringify(app.services.store.world)).digest('hex');

function documentedShape(status: number, body: Json): string | null {
  if (body === null || typeof body !== 'object') return 'not a JSON object';
  if (body.status !== 'error' || typeof body.message !== 'string') return 'no message/status';
  if (status === 422 && Array.isArray(body.detail)) {
    const ok = body.detail.every(
      (d: Json) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string',
    );
    return ok && body.message === 'Validation error' ? null : 'malformed validation entries';
  }
  return typeof body.detail === 'string' || body.detail === null ? null : 'detail is neither text nor null';
}

/** Every operation of the document with its method, in the document's order. */
function operationsOf(): { method: string; template: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([template, item]) =>
    ['get', 'post', 'put', 'patch', 'delete'].flatMap((method) =>
      item[method] ? [{ method, template, op: item[method] }] : [],
    ),
  );
}

describe('fuzz: every operation of /openapi.json under hostile input', () => {
  beforeEach(async () => {
    app = createApp({ seed: SEED });
    random = prng(SEED);
    token = await tokenFor(app, { accountId: ids.accountId, ...ids.sandbox });
    // From an app of its own: reading the examples of a document builds datasets in its world,
    // which would make every digest of this one slower.
    doc = await everyOperationDocument(createApp({ seed: SEED }));
  });

  it('answers no 5xx, documented error bodies, and writes nothing when it refuses', async () => {
    // Warm up: first reads may build data lazily (deterministically); do them before the digests.
    for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
      if (!item.get) continue;
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
        pathValue(name, item.get.parameters?.find((p: Json) => p.name === name)?.schema ?? {}),
      );
      await app.request(path, { headers: { authorization: `Bearer ${token}` } });
    }
    const failures: string[] = [];
    let sent = 0;
    let operations = 0;
    for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op) continue;
        operations++;
        for (let i = 0; i < PER_OPERATION; i++) {
          const request = mutate(method, template, op);
          const isWrite = request.method !== 'GET';
          const before = isWrite ? digest() : '';
          const res = await app.request(request.path, {
            method: request.method,
            headers: request.headers,
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
          sent++;
          const text = await res.text();
          const where = `${request.method} ${request.path.slice(0, 120)} -> ${res.status}`;
          if (res.status >= 500) {
            failures.push(`${where}: ${text.slice(0, 200)}`);
            continue;
          }
          if (res.status >= 400) {
            let body: Json = null;
            try {
              body = JSON.parse(text);
            } catch {
              // reported below
            }
            const problem = documentedShape(res.status, body);
            if (problem) failures.push(`${where}: ${problem}: ${text.slice(0, 200)}`);
            if (isWrite && digest() !== before) failures.push(`${where}: a refused write changed the world`);
          }
        }
      }
    }
    expect(operations).toBeGreaterThan(20);
    expect(sent).toBe(operations * PER_OPERATION);
    expect(failures).toEqual([]);
  });

  it('a body over the size limit gets 413 on every operation that takes a body', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const failures: string[] = [];
    for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of ['post', 'put', 'patch']) {
        if (!item[method]) continue;
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => pathValue(name, {}));
        const res = await app.request(path, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: big,
        });
        if (res.status !== 413) failures.push(`${method} ${template} -> ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('still answers after a round of hostile input', async () => {
    let sent = 0;
    for (const { method, template, op } of operationsOf()) {
      const request = mutate(method, template, op);
      const res = await app.request(request.path, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      await res.text();
      sent++;
    }
    expect(sent).toBeGreaterThan(20);
    const res = await app.request('/consumers', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });
});
