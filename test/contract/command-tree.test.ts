import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import {
  type Json,
  type OperationFacts,
  operationFacts,
  operationsOf,
  type ReferenceFacts,
} from './reference/openapi-facts.js';

/**
 * Clients that build their commands (or tools) from the served document: an OpenAPI-driven command
 * line takes a group per first tag and a command per summary, in the document's order; the official
 * command line classifies each operation by its MCP scopes (then its tags, then its path), walks the
 * paths in sorted order and names each command after its verb (list, get, create, update, delete),
 * falling back to the summary when the verb is taken. Both trees, built from the served document,
 * must be those of the published document (test/reference/facts.json).
 */

const FACTS_FILE = new URL('./reference/facts.json', import.meta.url);

const slugify = (value: string) => {
  const kebab = value
    .replace(/_/g, '-')
    .replace(/(?<!^)(?=[A-Z])/g, '-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  return kebab === 'pos' ? 'point-of-sale' : kebab;
};

/** group → commands, in order: the first tag and the summary, in document order. */
function tagTree(operations: OperationFacts[]): Record<string, string[]> {
  const tree: Record<string, string[]> = {};
  for (const op of operations) {
    const group = slugify(op.tags[0] ?? 'default');
    tree[group] ??= [];
    tree[group].push(`${slugify(op.summary)} → ${op.method.toUpperCase()} ${op.path}`);
  }
  return tree;
}

function classify(op: OperationFacts): [string, string] {
  const counts = new Map<string, [number, number]>();
  for (const scope of op.mcpScopes ?? []) {
    const parts = scope.split('.');
    if (parts.length < 2 || !parts[0]) continue;
    const entityParts = ['read', 'write'].includes(parts.at(-1) as string)
      ? parts.slice(1, -1)
      : parts.slice(1);
    if (entityParts.length === 0 || !entityParts.some(Boolean)) continue;
    const key = `${slugify(parts[0])}\u0000${slugify(entityParts.join('.'))}`;
    const [count, specificity] = counts.get(key) ?? [0, 0];
    counts.set(key, [count + 1, Math.max(specificity, parts.length)]);
  }
  if (counts.size > 0) {
    const [best] = [...counts.entries()].sort(
      (a, b) => b[1][0] - a[1][0] || b[1][1] - a[1][1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
    );
    return (best as [string, unknown])[0].split('\u0000') as [string, string];
  }
  const tags = op.tags.map(slugify).filter(Boolean);
  const parts = op.path
    .split('/')
    .filter((p) => p && !p.startsWith('{'))
    .map(slugify);
  if (tags.length >= 2) return [tags[0] as string, tags[1] as string];
  if (tags.length === 1) return [tags[0] as string, parts.at(-1) ?? 'root'];
  if (parts.length === 0) return ['root', 'root'];
  if (parts.length === 1) return [parts[0] as string, parts[0] as string];
  if (parts[0] === 'consumers' && parts.length >= 3) return [parts[1] as string, parts.at(-1) as string];
  return [parts[0] as string, parts.at(-1) as string];
}

const isCollection = (op: OperationFacts) =>
  op.response?.kind === 'array' ||
  (op.response?.kind === 'object' &&
    ['items', 'page', 'size', 'total'].every((f) =>
      (op.response as { properties: string[] }).properties.includes(f),
    ));

/** `vertical entity command` → `METHOD path`, as the official command line builds it. */
function cliTree(operations: OperationFacts[]): Record<string, string> {
  const sorted = [...operations].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.method < b.method ? -1 : a.method > b.method ? 1 : 0,
  );
  const used = new Map<string, Set<string>>();
  const tree: Record<string, string> = {};
  for (const op of sorted) {
    const [vertical, entity] = classify(op);
    const key = `${vertical} ${entity}`;
    const taken = used.get(key) ?? new Set<string>();
    used.set(key, taken);
    const read = (op.mcpScopes ?? []).some((s) => s.split('.').at(-1) === 'read');
    const verb =
      read || op.method === 'get'
        ? isCollection(op)
          ? 'list'
          : 'get'
        : ({ post: 'create', patch: 'update', put: 'replace', delete: 'delete' }[op.method] ?? op.method);
    let name = verb;
    if (taken.has(name)) {
      const summary = slugify(op.summary || op.operationId || op.method);
      name = summary;
      for (let i = 2; taken.has(name); i++) name = `${summary}-${i}`;
    }
    taken.add(name);
    tree[`${key} ${name}`] = `${op.method.toUpperCase()} ${op.path}`;
  }
  return tree;
}

describe('the command tree a client builds from GET /openapi.json', () => {
  let reference: OperationFacts[];
  let served: OperationFacts[];
  let sandboxDocument: Json;

  beforeAll(async () => {
    reference = (JSON.parse(readFileSync(FACTS_FILE, 'utf8')) as ReferenceFacts).operations;
    const app = createApp();
    const document = await (await app.request('/openapi.json')).json();
    served = operationsOf(document).map((o) => operationFacts(document, o));
    sandboxDocument = await (await app.request('/__sandbox/openapi.json')).json();
  });

  it('groups and commands by first tag and summary are the published ones, in order', () => {
    expect(tagTree(served)).toEqual(tagTree(reference));
    expect(JSON.stringify(tagTree(served))).toBe(JSON.stringify(tagTree(reference)));
  });

  it('the official command line builds the published tree: every command reaches the published operation', () => {
    const expected = cliTree(reference);
    expect(Object.keys(expected)).toHaveLength(reference.length);
    expect(cliTree(served)).toEqual(expected);
    expect(expected['accounting invoices create']).toBe('POST /consumers/{consumer_id}/accounting/invoices');
  });

  it('serves the published names: operationId, every tag in order, summary, parameters, order of paths and methods', () => {
    const names = (ops: OperationFacts[]) =>
      ops.map(({ method, path, operationId, tags, summary, parameters }) => ({
        method,
        path,
        operationId,
        tags,
        summary,
        parameters: parameters.map((p) => `${p.in}:${p.name}`),
      }));
    expect(names(served)).toEqual(names(reference));
  });

  it('what the sandbox adds is in a document of its own, every operation marked x-sandbox', () => {
    const added = operationsOf(sandboxDocument);
    expect(added.length).toBeGreaterThan(0);
    for (const { op } of added) expect(op['x-sandbox']).toBe(true);
    const published = new Set(reference.map((o) => `${o.method} ${o.path}`));
    expect(added.filter((o) => published.has(`${o.method} ${o.path}`))).toEqual([]);
    const paths = added.map((o) => o.path);
    expect(paths).toContain('/__sandbox/reset');
    expect(paths).toContain('/consumers/{consumer_id}/accounting/batch/invoices');
  });
});
