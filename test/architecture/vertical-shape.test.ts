import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERTICALS } from '../../src/verticals.js';

/**
 * One shape for every vertical folder (docs/contributing.md, "Adding a vertical"): at its root only
 * index.ts, api/ (what serves the API), world/ (what makes the data) and, where it has one, model/
 * (the records' shapes and the rules both sides share). Inside a vertical the arrows go one way:
 * nothing under world/ imports anything under api/, and model/ imports neither (type-only imports
 * count: a type moves the knowledge of the wire all the same).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ALLOWED_AT_ROOT = ['index.ts', 'api', 'world', 'model'];

/** Every vertical of the list (src/verticals.ts). */
const SHAPED = VERTICALS.map((module) => module.key);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(directory, name));
}

/** Every relative import of a file (static, dynamic, type-only and re-exports), resolved to a file. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] as string);
  return specifiers.map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

/** The part of a vertical a path belongs to (api, world, model, index.ts), or null outside it. */
function partOf(folder: string, path: string): string | null {
  const inside = relative(folder, path).split('\\').join('/');
  return inside.startsWith('..') ? null : (inside.split('/')[0] as string);
}

/** What a file of a part may not import from its own vertical. */
const FORBIDDEN: Record<string, string[]> = { world: ['api'], model: ['api', 'world'] };

/** The arrows against the rule in a vertical folder. */
function wrongArrows(folder: string): string[] {
  const wrong: string[] = [];
  for (const file of sourceFiles(folder)) {
    const from = partOf(folder, file) as string;
    for (const target of importsOf(file)) {
      const to = partOf(folder, target);
      if (to && FORBIDDEN[from]?.includes(to))
        wrong.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)} (${from}/ may not import ${to}/)`);
    }
  }
  return wrong;
}

describe('the shape of a vertical folder', () => {
  it('is checked for every vertical', () => {
    expect([...SHAPED].sort()).toEqual([
      'accounting',
      'banking',
      'commerce',
      'invoicing',
      'payment',
      'pms',
      'pos',
    ]);
  });

  for (const key of SHAPED) {
    const folder = join(ROOT, 'src/modules', key);

    it(`${key}: index.ts, api/ and world/ at its root (and model/ where it has one), nothing else`, () => {
      const entries = readdirSync(folder, { withFileTypes: true });
      const names = entries.map((entry) => entry.name);
      expect(names.filter((name) => !ALLOWED_AT_ROOT.includes(name))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(['index.ts', 'api', 'world']));
      for (const entry of entries) expect(entry.isDirectory()).toBe(entry.name !== 'index.ts');
    });

    it(`${key}: world/ imports nothing of api/, model/ nothing of api/ or world/`, () => {
      expect(wrongArrows(folder)).toEqual([]);
    });
  }

  it('finds an import against the rule, type-only and dynamic ones included', () => {
    const folder = join(ROOT, 'test/architecture/vertical-shape');
    expect(wrongArrows(folder).sort()).toEqual([
      'test/architecture/vertical-shape/model/rule.ts -> test/architecture/vertical-shape/world/seed.ts (model/ may not import world/)',
      'test/architecture/vertical-shape/world/seed.ts -> test/architecture/vertical-shape/api/schemas.ts (world/ may not import api/)',
    ]);
  });
});
