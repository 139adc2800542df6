/**
 * The second half of `npm run build`, after tsc has written dist/:
 *
 * - dist/core-<hash>.cjs, the whole sandbox (src/ and the command line of bin/cli.ts) in one bundle
 *   made by esbuild: loading some two hundred modules one by one cost ~140 ms of the command line's
 *   cold start and ~300 ms of the library's import. It is a CommonJS bundle, loaded with `require`
 *   (bin/core-loader.ts), so that both entries load it synchronously: a CommonJS project can
 *   `require()` the ES module entry only when that entry has no top-level await. Its name changes with
 *   its content. It stays in dist/ itself, since the code finds the fixtures and the prebuilt
 *   document relative to its own file;
 * - dist/index.mjs, the library (the package's entry point for `import`), dist/index.cjs, the same
 *   for `require` (both load the one bundle, so a process that does both has one sandbox), and
 *   dist/cli.mjs, the command line (the package's bin): the loader and the names each takes from the
 *   bundle;
 * - dist/openapi.prebuilt, the served OpenAPI document, so that a process serves it without
 *   generating it (see scripts/prebuilt-openapi.mjs);
 * - dist/swagger-ui/, the files of Swagger UI the /docs page loads and their license notices,
 *   copied from the swagger-ui-dist dev dependency (src/surfaces/docs/built.ts says which): the
 *   package then depends on nothing of Swagger UI's, whose own dependency runs an install script
 *   that reports each install over the network.
 *
 * The bundle leaves out zod's translations of its messages but the English one, which the sandbox
 * uses (its own messages are the service's): they are a seventh of it, compiled at every start.
 *
 * The verticals are loaded on first use (src/platform/lazy-vertical.ts): each vertical's manifest is
 * read off its module in tsc's output, and the bundle has src/verticals.ts turned from imports into
 * `require()` calls that esbuild makes lazy, each with its manifest, so that a vertical's code runs
 * only when a process first needs it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** zod's `locales` namespace reduced to the English locale (when zod's files are where they were). */
const englishZodOnly = {
  name: 'english-zod-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      const dir = join(dirname(args.importer), dirname(args.path));
      if (!existsSync(join(dir, 'en.js'))) return undefined;
      return { path: join(dir, 'index.js'), namespace: 'english-zod-only', pluginData: dir };
    });
    b.onLoad({ filter: /.*/, namespace: 'english-zod-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.pluginData,
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
  plugins: [englishZodOnly],
};

// The bundle's name changes with its content: the bundles of an earlier build would otherwise be left
// behind, and packed. Every .mjs and .cjs file directly in dist/ is this script's (tsc writes .js).
for (const name of readdirSync(join(ROOT, 'dist'))) {
  if (name.endsWith('.mjs') || name.endsWith('.cjs')) rmSync(join(ROOT, 'dist', name));
}

// The manifests of the verticals, read off their modules as tsc wrote them, in the order of the list.
const { VERTICALS } = await import(pathToFileURL(join(ROOT, 'dist/src/verticals.js')).href);
const { loadedModule, manifestOf } = await import(pathToFileURL(join(ROOT, 'dist/src/platform/lazy-vertical.js')).href);
const manifests = VERTICALS.map((vertical) => manifestOf(loadedModule(vertical)));

/**
 * src/verticals.ts with each `lazyVertical(() => <name>)` turned into
 * `lazyVertical(() => require(<its index>).<name>, <manifest>)` and the imports of the names dropped.
 */
const lazyVerticals = {
  name: 'lazy-verticals',
  setup(b) {
    const file = join(ROOT, 'dist/src/verticals.js');
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]verticals\.js$/ }, (args) => {
      if (args.path !== file) return undefined;
      const source = readFileSync(file, 'utf8');
      const indexOf = new Map();
      const withoutImports = source.replace(
        /^import \{ (\w+) \} from '(\.\/modules\/[\w-]+\/index\.js)';\n/gm,
        (_, name, path) => {
          indexOf.set(name, path);
          return '';
        },
      );
      let count = 0;
      const contents = withoutImports.replace(/lazyVertical\(\(\) => (\w+)\)/g, (whole, name) => {
        const path = indexOf.get(name);
        const manifest = manifests[count++];
        if (!path || !manifest) throw new Error(`src/verticals.ts: no vertical index for ${whole}`);
        return `lazyVertical(() => require(${JSON.stringify(path)}).${name}, ${JSON.stringify(manifest)})`;
      });
      if (count !== manifests.length || count !== indexOf.size) {
        throw new Error('src/verticals.ts no longer lists each vertical as lazyVertical(() => <name>)');
      }
      return { contents, resolveDir: dirname(file), loader: 'js' };
    });
  },
};

const core = await build({
  ...common,
  plugins: [...common.plugins, lazyVerticals],
  format: 'cjs',
  write: false,
  stdin: {
    contents: "export * from './dist/src/index.js';\nexport { runCli } from './dist/bin/cli.js';\n",
    resolveDir: ROOT,
    sourcefile: 'core.js',
  },
  outfile: join(ROOT, 'dist/core.cjs'),
  // What the sources ask of import.meta: the bundle's own url. The sources are ES modules, strict:
  // so is the bundle (a write to a frozen shared dataset must throw, not pass silently).
  define: { 'import.meta.url': '__coreUrl' },
  banner: { js: "'use strict';\nvar __coreUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const [output] = core.outputFiles;
if (!output) throw new Error('esbuild wrote no bundle');
const hash = createHash('sha256').update(output.contents).digest('hex').slice(0, 10);
const coreName = `core-${hash}.cjs`;
writeFileSync(join(ROOT, 'dist', coreName), output.contents);

// The names the library exports: those of src/index.ts, as the bundle has them.
const exported = Object.keys(createRequire(import.meta.url)(join(ROOT, 'dist', coreName))).filter(
  (name) => name !== 'runCli',
);
const loader = join(ROOT, 'dist/bin/core-loader.js');
await build({
  ...common,
  stdin: {
    contents: [
      `import { loadCore } from ${JSON.stringify(loader)};`,
      `const core = loadCore(new URL('./${coreName}', import.meta.url));`,
      `export const { ${exported.join(', ')} } = core;`,
    ].join('\n'),
    resolveDir: ROOT,
    sourcefile: 'index.js',
  },
  outfile: join(ROOT, 'dist/index.mjs'),
});
await build({
  ...common,
  format: 'cjs',
  stdin: {
    contents: [
      `const { loadCore } = require(${JSON.stringify(loader)});`,
      `const core = loadCore(new URL('./${coreName}', require('node:url').pathToFileURL(__filename)));`,
      ...exported.map((name) => `exports.${name} = core.${name};`),
    ].join('\n'),
    resolveDir: ROOT,
    sourcefile: 'index.cjs',
  },
  outfile: join(ROOT, 'dist/index.cjs'),
});
await build({
  ...common,
  stdin: {
    contents: [
      `import { loadCore } from ${JSON.stringify(loader)};`,
      `loadCore(new URL('./${coreName}', import.meta.url)).runCli(process.argv.slice(2));`,
    ].join('\n'),
    resolveDir: ROOT,
    sourcefile: 'cli.js',
  },
  outfile: join(ROOT, 'dist/cli.mjs'),
  banner: { js: '#!/usr/bin/env node' },
});

// Swagger UI's files, from the dev dependency, as the sources read them there.
const { SWAGGER_UI_ASSETS, SWAGGER_UI_FOLDER, SWAGGER_UI_NOTICES, swaggerUiPackageFolder } = await import(
  pathToFileURL(join(ROOT, 'dist/src/surfaces/docs/built.js')).href
);
const swaggerUi = join(ROOT, 'dist', SWAGGER_UI_FOLDER);
rmSync(swaggerUi, { recursive: true, force: true });
mkdirSync(swaggerUi);
for (const name of [...Object.keys(SWAGGER_UI_ASSETS), ...SWAGGER_UI_NOTICES]) {
  copyFileSync(join(swaggerUiPackageFolder(), name), join(swaggerUi, name));
}

const prebuilt = spawnSync(process.execPath, [join(ROOT, 'scripts/prebuilt-openapi.mjs')], { stdio: 'inherit' });
if (prebuilt.status !== 0) process.exit(prebuilt.status ?? 1);
