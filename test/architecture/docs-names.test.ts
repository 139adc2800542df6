import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The pages written for whoever changes the code name files and folders of the repository: each
 * name they cite must exist, so that a page cannot go on describing a module that moved or left.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['docs/architecture.md', 'docs/contributing.md'];
/** Where the repository's code lives: a bare file name cited by a page is looked for there. */
const CODE = ['src', 'bin', 'scripts', 'test', 'bench'];
/** Folders of the repository a cited path may start with (dist/ is built, not kept). */
const KEPT = /^(src|bin|scripts|test|bench|fixtures|docs|python)\//;

function filesUnder(folder: string, into: Set<string>): Set<string> {
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) filesUnder(path, into);
    else into.add(entry.name);
  }
  return into;
}

/** The names in backquotes that look like a file or a folder of the repository. */
function citedNames(text: string): string[] {
  const names = new Set<string>();
  for (const [, name] of text.matchAll(/`([^`\s]+)`/g)) {
    if (!name || /[<>*{}]|\.\.\./.test(name)) continue; // a pattern, not a name
    if (KEPT.test(name) || /^[\w.-]+\.(ts|mjs|cjs|json|md)$/.test(name)) names.add(name);
  }
  return [...names];
}

function missing(names: string[]): string[] {
  const basenames = CODE.reduce((all, folder) => filesUnder(folder, all), new Set<string>());
  for (const top of ['README.md', 'CHANGELOG.md', 'package.json', 'tsconfig.json', 'biome.json'])
    basenames.add(top);
  return names.filter((name) => {
    if (name.includes('/')) return !existsSync(join(ROOT, name.replace(/#.*$/, '')));
    return (
      !basenames.has(name) && !['', 'docs', 'fixtures'].some((folder) => existsSync(join(ROOT, folder, name)))
    );
  });
}

describe('the pages for contributors', () => {
  for (const page of PAGES) {
    it(`${page} cites only files and folders that exist`, () => {
      const names = citedNames(readFileSync(join(ROOT, page), 'utf8'));
      // Not a check that passes by finding no name.
      expect(names.length).toBeGreaterThan(20);
      expect(missing(names)).toEqual([]);
    });
  }

  it('finds a name that does not exist', () => {
    expect(missing(['src/lib/nowhere.ts', 'nowhere.ts', 'src/lib/errors.ts', 'errors.ts'])).toEqual([
      'src/lib/nowhere.ts',
      'nowhere.ts',
    ]);
  });
});
