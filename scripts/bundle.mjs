/**
 * The second half of `npm run build`, after tsc has written dist/:
 *
 * - dist/cli.mjs, the command line (the package's bin), and dist/index.mjs, the library (the
 *   package's entry point), bundled by esbuild: loading some two hundred modules one by one cost
 *   ~140 ms of the command line's cold start and ~300 ms of the library's import. The code both
 *   share is one chunk beside them (dist/chunk-*.mjs), not a copy in each: two copies made the
 *   published package 3 MB larger for nothing. Chunks stay in dist/ itself, since the code finds
 *   the fixtures and the prebuilt document relative to its own file;
 * - dist/openapi.prebuilt, the served OpenAPI document, so that a process serves it without
 *   generating it (see scripts/prebuilt-openapi.mjs).
 *
 * Both bundles leave out zod's translations of its messages but the English one, which the sandbox
 * uses (its own messages are the service's): they are a seventh of the bundle, parsed at every start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  // Some bundled CommonJS dependencies require node's modules.
  banner: {
    js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);",
  },
};

// Chunk names change with their content: the chunks of an earlier build would otherwise be left
// behind, and packed. Every .mjs file directly in dist/ is this script's (tsc writes .js files).
for (const name of readdirSync(join(ROOT, 'dist'))) {
  if (name.endsWith('.mjs')) rmSync(join(ROOT, 'dist', name));
}

await build({
  ...common,
  entryPoints: { cli: join(ROOT, 'dist/bin/unified-api-sandbox.js'), index: join(ROOT, 'dist/src/index.js') },
  outdir: join(ROOT, 'dist'),
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: '[name]-[hash]',
});

const prebuilt = spawnSync(process.execPath, [join(ROOT, 'scripts/prebuilt-openapi.mjs')], { stdio: 'inherit' });
if (prebuilt.status !== 0) process.exit(prebuilt.status ?? 1);
