/**
 * Regenerates test/reference/facts.json, the facts of the reference OpenAPI description that the
 * contract test compares the served document with (no descriptions, no examples: names, places,
 * required flags, enums, status codes, schema names, MCP scopes).
 *
 *   npx tsx scripts/reference-facts.ts <folder holding openapi.json | path of the file>
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceFacts } from '../test/reference/openapi-facts.js';

const OUT = fileURLToPath(new URL('../test/reference/facts.json', import.meta.url));

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

const [input] = process.argv.slice(2);
if (!input) {
  console.error('usage: npx tsx scripts/reference-facts.ts <folder holding openapi.json | openapi file>');
  process.exit(2);
}
const file = statSync(input).isDirectory() ? join(input, 'openapi.json') : input;
const text = readFileSync(file);
const facts = referenceFacts(JSON.parse(text.toString('utf8')), {
  file: basename(file),
  sha256: createHash('sha256').update(text).digest('hex'),
  operations: 0,
});
facts.reference.operations = facts.operations.length;
writeFileSync(OUT, `${compact(facts, '')}\n`);
// In the project's JSON style, so that `npm run lint` holds.
const BIOME = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));
const formatted = spawnSync(process.execPath, [BIOME, 'format', '--write', OUT], { encoding: 'utf8' });
if (formatted.status !== 0) {
  console.error(formatted.stdout, formatted.stderr);
  process.exit(formatted.status ?? 1);
}
console.log(`${OUT}: ${facts.operations.length} operations from ${file}`);
