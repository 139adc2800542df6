import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadedModule } from '../../src/platform/lazy-vertical.js';
import { VERTICALS } from '../../src/verticals.js';

/**
 * The import rule of docs/architecture.md, kept by a check: every import of src/ and bin/ (type-only
 * ones included) goes down the layers, and a module is reached from outside its folder only through
 * its index.ts.
 *
 *   lib <- store <- platform <- modules <- control <- surfaces <- app <- server <- index, bin
 *
 * The recording proxy (src/proxy/) stands beside the server: it uses lib, store, platform, control
 * (the readiness report, the scrubber, the file writer) and app (the sandbox world it replays
 * traffic at), and only bin/ and src/index.ts use it.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const LAYERS = [
  'lib',
  'store',
  'platform',
  'modules',
  'control',
  'surfaces',
  'app',
  'proxy',
  'server',
  'entry',
  'bin',
];

/**
 * The arrows the rule lets through, each for a reason. Keep it short: an entry here is a debt, not
 * a design.
 */
const EXCEPTIONS: { from: string; to: string; why: string }[] = [];

function layerOf(file: string): string | null {
  const path = relative(ROOT, file).split('\\').join('/');
  if (path.startsWith('bin/')) return 'bin';
  if (path === 'src/index.ts') return 'entry';
  if (path === 'src/server.ts') return 'server';
  if (path === 'src/app.ts' || path === 'src/worlds.ts') return 'app';
  if (path === 'src/verticals.ts') return 'modules';
  if (path.startsWith('src/proxy/')) return 'proxy';
  const top = path.split('/')[1];
  return path.startsWith('src/') && LAYERS.includes(top ?? '') ? (top as string) : null;
}

/** The module folder a file of src/modules/ belongs to (its first segment), or null. */
function moduleOf(file: string): string | null {
  const path = relative(ROOT, file).split('\\').join('/');
  const match = /^src\/modules\/([^/]+)\//.exec(path);
  return match ? (match[1] as string) : null;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
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

interface Arrow {
  from: string;
  to: string;
  why: string;
}

function arrowsAgainstTheRule(): Arrow[] {
  const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))];
  const wrong: Arrow[] = [];
  for (const file of files) {
    const fromLayer = layerOf(file);
    if (!fromLayer) continue;
    for (const target of importsOf(file)) {
      const toLayer = layerOf(target);
      if (!toLayer) continue;
      const from = relative(ROOT, file);
      const to = relative(ROOT, target);
      if (LAYERS.indexOf(toLayer) > LAYERS.indexOf(fromLayer)) {
        wrong.push({ from, to, why: `${fromLayer} may not import ${toLayer}` });
        continue;
      }
      const targetModule = moduleOf(target);
      if (targetModule && moduleOf(file) !== targetModule && !to.endsWith(`modules/${targetModule}/index.ts`))
        wrong.push({ from, to, why: `module ${targetModule} is reached only through its index.ts` });
    }
  }
  return wrong.filter((arrow) => !EXCEPTIONS.some((e) => e.from === arrow.from && e.to === arrow.to));
}

/**
 * Underscored members the code may read: fields a dependency documents under that name. Each with
 * where it is documented.
 */
const DOCUMENTED_UNDERSCORED = new Map([
  ['_meta', "the MCP protocol's metadata of a message (modelcontextprotocol.io, specification, _meta)"],
]);

/**
 * What only a dependency's own code may touch: its private list of OpenAPI definitions, its
 * underscored members, and the pieces of hono's router and compose (the matched route's index, the
 * app's error handler field, compose's own error): a minor release may change any of them silently.
 */
const INTERNALS: { pattern: RegExp; what: string }[] = [
  { pattern: /\b_definitions\b/, what: "the OpenAPI registry's private _definitions" },
  { pattern: /\.routeIndex\b/, what: "hono's routeIndex (a copied compose)" },
  { pattern: /next\(\) called multiple times/, what: "hono's compose, copied" },
  { pattern: /getOwnPropertySymbols/, what: "a dependency's symbols, looked up by their description" },
  { pattern: /\bas unknown as \{\s*errorHandler\b/, what: "hono's errorHandler field" },
];

/** The code, without its comments (which may name what it must not do). */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function frameworkInternals(): { file: string; what: string }[] {
  const files = ['src', 'bin', 'scripts'].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => join(ROOT, folder, name)),
  );
  const found: { file: string; what: string }[] = [];
  for (const path of files) {
    const file = relative(ROOT, path);
    const code = codeOf(readFileSync(path, 'utf8'));
    for (const { pattern, what } of INTERNALS) if (pattern.test(code)) found.push({ file, what });
    for (const [, member] of code.matchAll(/\.(_[A-Za-z]\w*)/g)) {
      if (!DOCUMENTED_UNDERSCORED.has(member as string))
        found.push({ file, what: `a private member .${member}` });
    }
  }
  return found;
}

describe('the import rule', () => {
  it('every import goes down the layers, and into a module only through its index.ts', () => {
    const wrong = arrowsAgainstTheRule().map((a) => `${a.from} -> ${a.to} (${a.why})`);
    expect(wrong).toEqual([]);
  });

  it('the exceptions are few, and each still needed', () => {
    expect(EXCEPTIONS.length).toBeLessThanOrEqual(5);
    const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))];
    for (const exception of EXCEPTIONS) {
      const file = files.find((f) => relative(ROOT, f) === exception.from);
      expect(file && importsOf(file).map((t) => relative(ROOT, t))).toContain(exception.to);
    }
  });

  it('no file outside a vertical folder imports it, but the list and the verticals built on it', () => {
    const keys = new Set(VERTICALS.map((module) => module.key));
    expect(keys.size).toBe(VERTICALS.length);
    const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))];
    const wrong: string[] = [];
    for (const file of files) {
      const from = relative(ROOT, file);
      const own = moduleOf(file);
      const builtOn = VERTICALS.find((module) => module.key === own)?.builtOn ?? [];
      for (const target of importsOf(file)) {
        const vertical = moduleOf(target);
        if (!vertical || !keys.has(vertical) || vertical === own) continue;
        if (from === 'src/verticals.ts' || builtOn.includes(vertical)) continue;
        wrong.push(`${from} -> ${relative(ROOT, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every vertical folder is a module of the list, and its index.ts exports it', async () => {
    const folders = readdirSync(join(ROOT, 'src/modules'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    for (const module of VERTICALS) {
      expect(folders).toContain(module.key);
      const url = pathToFileURL(join(ROOT, 'src/modules', module.key, 'index.ts')).href;
      const index = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
      expect(Object.values(index)).toContain(loadedModule(module));
    }
  });

  it('the proxy is used by bin/ and src/index.ts alone, and uses neither the server nor the surfaces', () => {
    const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))];
    const wrong: string[] = [];
    for (const file of files) {
      const fromLayer = layerOf(file);
      for (const target of importsOf(file)) {
        const toLayer = layerOf(target);
        const arrow = `${relative(ROOT, file)} -> ${relative(ROOT, target)}`;
        if (toLayer === 'proxy' && fromLayer !== 'proxy' && fromLayer !== 'entry' && fromLayer !== 'bin')
          wrong.push(arrow);
        if (fromLayer === 'proxy' && (toLayer === 'surfaces' || toLayer === 'server')) wrong.push(arrow);
      }
    }
    expect(files.some((file) => layerOf(file) === 'proxy')).toBe(true);
    expect(wrong).toEqual([]);
  });

  it('reads no private field of a dependency and copies none of its internals', () => {
    const wrong = frameworkInternals().map((f) => `${f.file}: ${f.what}`);
    expect(wrong).toEqual([]);
  });

  it('a file of lib imports nothing of src', () => {
    const lib = sourceFiles(join(ROOT, 'src/lib'));
    expect(lib.length).toBeGreaterThan(5);
    const outside = lib.flatMap((file) =>
      importsOf(file)
        .filter((target) => !relative(join(ROOT, 'src/lib'), target).startsWith('..') === false)
        .map((target) => `${relative(ROOT, file)} -> ${relative(ROOT, target)}`),
    );
    expect(outside).toEqual([]);
  });
});
