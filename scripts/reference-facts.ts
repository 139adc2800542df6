/**
 * Regenerates test/contract/reference/facts.json, the facts of the reference OpenAPI description that the
 * contract test compares the served document with (no descriptions, no examples: names, places,
 * required flags, enums, status codes, schema names, MCP scopes).
 *
 *   npx tsx scripts/reference-facts.ts <folder holding openapi.json | path of the file>
 *
 * It also writes fixtures/published-operations.json: the operations of the published document in its
 * order, with their names (operationId, tags, summary), which the served /openapi.json follows; and
 * fixtures/published-bodies.json: the facts of its request bodies' schemas (types, properties,
 * required, enums, bounds, patterns; no descriptions), which the readiness report checks bodies with;
 * and test/contract/reference/published-answers.json: the facts of the JSON answers of its writes
 * (status and schema), which the contract test checks the sandbox's answers against.
 *
 * With --newer-than, it writes test/contract/reference/facts-newer.json instead: the facts of the operations
 * that a newer published version (its date in its file name) adds to the reference version, which
 * the sandbox serves marked as that version's (NEWER_REFERENCE_MARKER, src/lib/client-routes.ts), and
 * test/contract/reference/published-answers-newer.json, the answers of the writes among them.
 *
 *   npx tsx scripts/reference-facts.ts <newer file, e.g. openapi-2026-08-21.json> --newer-than <reference file>
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NewerReferenceFacts, referenceFacts } from '../test/contract/reference/openapi-facts.js';

const OUT = fileURLToPath(new URL('../test/contract/reference/facts.json', import.meta.url));
const OUT_NEWER = fileURLToPath(new URL('../test/contract/reference/facts-newer.json', import.meta.url));
const OUT_PUBLISHED = fileURLToPath(new URL('../fixtures/published-operations.json', import.meta.url));
const OUT_BODIES = fileURLToPath(new URL('../fixtures/published-bodies.json', import.meta.url));
const OUT_ANSWERS = fileURLToPath(new URL('../test/contract/reference/published-answers.json', import.meta.url));
const OUT_ANSWERS_NEWER = fileURLToPath(
  new URL('../test/contract/reference/published-answers-newer.json', import.meta.url),
);

/** The keywords of a schema that are facts (no titles, descriptions or examples). */
const SCHEMA_FACTS = new Set([
  'type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'allOf',
  'additionalProperties', 'maxLength', 'minLength', 'pattern', 'minimum', 'maximum', 'format', '$ref',
]);
const PUBLISHED_PREFIX = 'published:';

/** A schema with its facts only; `$ref`s point at the same names under PUBLISHED_PREFIX. */
function schemaFacts(schema: unknown, refs: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => schemaFacts(item, refs));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (!SCHEMA_FACTS.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') {
      const name = value.replace('#/components/schemas/', '');
      refs.add(name);
      out.$ref = `#/components/schemas/${PUBLISHED_PREFIX}${name}`;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, sub]) => [name, schemaFacts(sub, refs)]),
      );
    } else {
      out[key] = schemaFacts(value, refs);
    }
  }
  return out;
}

/** The facts of every component `refs` names, and of those they name in turn, under PUBLISHED_PREFIX. */
function componentFacts(document: Record<string, any>, refs: Set<string>): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const all = document.components?.schemas ?? {};
  const pending = [...refs];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    const key = `${PUBLISHED_PREFIX}${name}`;
    if (Object.hasOwn(schemas, key) || !Object.hasOwn(all, name)) continue;
    const more = new Set<string>();
    schemas[key] = schemaFacts(all[name], more);
    for (const next of more) if (!Object.hasOwn(schemas, `${PUBLISHED_PREFIX}${next}`)) pending.push(next);
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The operations of the document that change something (every method but GET), by operationId. */
function writes(document: Record<string, any>): [string, string, Record<string, any>][] {
  const out: [string, string, Record<string, any>][] = [];
  for (const [path, item] of Object.entries(document.paths ?? {}) as [string, Record<string, any>][]) {
    for (const method of ['post', 'put', 'patch', 'delete']) {
      if (item[method]?.operationId) out.push([method, path, item[method]]);
    }
  }
  return out;
}

/**
 * The request bodies of the published document, their facts only, by operationId, and the schemas
 * they name: what the readiness report checks bodies against (the sandbox's own document takes some
 * forms the published one does not).
 */
function publishedBodies(document: Record<string, any>, reference: object) {
  const refs = new Set<string>();
  const bodies: Record<string, unknown> = {};
  for (const [, , op] of writes(document)) {
    const schema = op.requestBody?.content?.['application/json']?.schema;
    if (schema) bodies[op.operationId] = schemaFacts(schema, refs);
  }
  return { reference, bodies, schemas: componentFacts(document, refs) };
}

/**
 * The JSON answers of the published document's writes: for each, its method, path, success status
 * and the facts of that answer's schema, and the schemas they name. The contract test checks what
 * the sandbox answers to each write against them.
 */
function publishedAnswers(document: Record<string, any>, reference: object, only?: Set<string>) {
  const refs = new Set<string>();
  const answers: Record<string, unknown> = {};
  for (const [method, path, op] of writes(document)) {
    if (only && !only.has(op.operationId)) continue;
    for (const [status, response] of Object.entries(op.responses ?? {}) as [string, any][]) {
      const schema = response?.content?.['application/json']?.schema;
      if (!status.startsWith('2') || !schema) continue;
      answers[op.operationId] = { method, path, status, schema: schemaFacts(schema, refs) };
    }
  }
  return { reference, answers, schemas: componentFacts(document, refs) };
}

/** A value on one line, spaced as the project's JSON formatter spaces it. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

/** JSON with each value on one line when it fits in 100 characters. */
function compact(value: unknown, indent: string): string {
  const flat = inline(value);
  if (value === null || typeof value !== 'object' || indent.length + flat.length <= 100) return flat;
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${compact(item, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${compact(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${items.join(',\n')}\n${indent}${close}`;
}

const [input, flag, olderInput] = process.argv.slice(2);
if (!input || (flag !== undefined && (flag !== '--newer-than' || !olderInput))) {
  console.error(
    'usage: npx tsx scripts/reference-facts.ts <folder holding openapi.json | openapi file> [--newer-than <reference file>]',
  );
  process.exit(2);
}
const file = statSync(input).isDirectory() ? join(input, 'openapi.json') : input;
const text = readFileSync(file);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const facts = referenceFacts(JSON.parse(text.toString('utf8')), {
  file: basename(file),
  sha256: sha256(text),
  operations: 0,
});
let out = OUT;
let written: object = facts;
if (olderInput) {
  const version = /(\d{4}-\d{2}-\d{2})/.exec(basename(file))?.[1];
  if (!version) {
    console.error(`${file}: the newer version's date (YYYY-MM-DD) must be in its file name`);
    process.exit(2);
  }
  const olderText = readFileSync(olderInput);
  const older = referenceFacts(JSON.parse(olderText.toString('utf8')), {
    file: basename(olderInput),
    sha256: sha256(olderText),
    operations: 0,
  });
  const known = new Set(older.operations.map((o) => `${o.method} ${o.path}`));
  const added = facts.operations.filter((o) => !known.has(`${o.method} ${o.path}`));
  const newer: NewerReferenceFacts = {
    reference: {
      ...facts.reference,
      operations: added.length,
      version,
      newerThan: { file: older.reference.file, sha256: older.reference.sha256 },
    },
    operations: added,
  };
  out = OUT_NEWER;
  written = newer;
  facts.operations = added;
  const addedIds = new Set(added.map((o) => o.operationId));
  const answers = publishedAnswers(JSON.parse(text.toString('utf8')), newer.reference, addedIds);
  writeFileSync(OUT_ANSWERS_NEWER, `${compact(answers, '')}\n`);
}
facts.reference.operations = facts.operations.length;
writeFileSync(out, `${compact(written, '')}\n`);
const outputs = olderInput ? [out, OUT_ANSWERS_NEWER] : [out];
if (!olderInput) {
  const published = {
    reference: facts.reference,
    operations: facts.operations.map(({ method, path, operationId, tags, summary, parameters }) => ({
      method,
      path,
      operationId,
      tags,
      summary,
      parameters: parameters.map((p) => `${p.in}:${p.name}`),
    })),
  };
  writeFileSync(OUT_PUBLISHED, `${compact(published, '')}\n`);
  outputs.push(OUT_PUBLISHED);
  writeFileSync(OUT_BODIES, `${compact(publishedBodies(JSON.parse(text.toString('utf8')), facts.reference), '')}\n`);
  outputs.push(OUT_BODIES);
  writeFileSync(OUT_ANSWERS, `${compact(publishedAnswers(JSON.parse(text.toString('utf8')), facts.reference), '')}\n`);
  outputs.push(OUT_ANSWERS);
}
// In the project's JSON style, so that `npm run lint` holds.
const BIOME = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));
const formatted = spawnSync(process.execPath, [BIOME, 'format', '--write', ...outputs], {
  encoding: 'utf8',
});
if (formatted.status !== 0) {
  console.error(formatted.stdout, formatted.stderr);
  process.exit(formatted.status ?? 1);
}
console.log(`${out}: ${facts.operations.length} operations from ${file}`);
