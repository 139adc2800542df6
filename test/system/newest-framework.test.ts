/**
 * The sandbox on the newest hono, @hono/zod-openapi and zod its package.json ranges take: they are
 * installed from the registry into a temporary folder, the sources are bundled against them (the
 * package's bundle holds its dependencies, so a newer release reaches users through a new build),
 * and a process of its own answers a few requests of every kind with that bundle. Nothing of the
 * sandbox reads a private field of these packages (test/architecture/import-rule.test.ts): a minor
 * release must leave every answer and the document as they are.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const FRAMEWORK = ['hono', '@hono/zod-openapi', 'zod'] as const;
const FRAMEWORK_IMPORT = /^(?:hono|@hono\/zod-openapi|zod)(?:\/|$)/;

let work: string;

/** The sandbox's own imports of the framework resolved in `deps` (those of other packages stay theirs). */
const newestFramework = (deps: string): Plugin => ({
  name: 'newest-framework',
  setup(b) {
    b.onResolve({ filter: FRAMEWORK_IMPORT }, async (args) => {
      const ours = [join(ROOT, 'src'), join(ROOT, 'bin')].some((folder) => args.importer.startsWith(folder));
      if (!ours || args.pluginData === 'newest') return undefined;
      return b.resolve(args.path, { kind: args.kind, resolveDir: deps, pluginData: 'newest' });
    });
  },
});

/** What the process answers, with the versions it ran on. */
const PROBE = `
import { createHash } from 'node:crypto';
const { createApp, seedCredentials, seedDirectory } = await import('./' + process.argv[2] + '/core.mjs');
const app = createApp({ seed: 1 });
const creds = seedCredentials(1);
const ids = seedDirectory(1);
const token = (await (await app.request('/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }) })).json()).access_token;
const auth = { authorization: 'Bearer ' + token };
const invoicing = '/consumers/' + ids.verticalConsumers.INVOICING + '/invoicing';
const answer = async (method, path, body) => {
  const res = await app.request(path, { method, headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' }, body });
  return [method, path.replace(ids.verticalConsumers.INVOICING, '{consumer}'), res.status, await res.text()];
};
const answers = [
  await answer('GET', invoicing + '/invoices?size=1'),
  await answer('GET', invoicing + '/invoices?size=0'),
  await answer('POST', invoicing + '/contacts', '{}'),
  await answer('DELETE', invoicing + '/invoices'),
  await answer('GET', '/consumers/' + ids.verticalConsumers.POS + '/pos/locations'),
];
const doc = await createApp({ seed: 1, adminToken: 'root' }).request('/openapi.json');
const text = await doc.text();
console.log(JSON.stringify({
  answers,
  document: { status: doc.status, paths: Object.keys(JSON.parse(text).paths).length, sha256: createHash('sha256').update(text).digest('hex') },
}));
`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sandbox-newest-framework-'));
  const ranges = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies;
  const deps = join(work, 'deps');
  mkdirSync(deps);
  writeFileSync(join(deps, 'package.json'), '{"private":true}');
  const specs = FRAMEWORK.map((name) => `${name}@${ranges[name]}`);
  await run('npm', ['install', '--prefix', deps, '--ignore-scripts', '--no-audit', '--no-fund', ...specs], {
    timeout: 300_000,
  });
  // Two bundles beside the package's files (fixtures/ one level up): on the newest versions, and on
  // those the repository installed.
  const pkg = join(work, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'package.json'), '{"type":"module"}');
  symlinkSync(join(ROOT, 'fixtures'), join(pkg, 'fixtures'), 'dir');
  for (const [folder, plugins] of [
    ['newest', [newestFramework(deps)]],
    ['installed', []],
  ] as const) {
    await build({
      entryPoints: [join(ROOT, 'src/index.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(pkg, folder, 'core.mjs'),
      logLevel: 'silent',
      plugins: [...plugins],
      banner: {
        js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);",
      },
    });
  }
  writeFileSync(join(pkg, 'probe.mjs'), PROBE);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const versionsIn = (modules: string) =>
  Object.fromEntries(
    FRAMEWORK.map((name) => [
      name,
      (JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { version: string }).version,
    ]),
  );

async function probe(folder: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['probe.mjs', folder], {
    cwd: join(work, 'pkg'),
    timeout: 120_000,
  });
  return stdout.trim().split('\n').at(-1) ?? '';
}

describe('the sandbox on the newest hono, @hono/zod-openapi and zod of its ranges', () => {
  it('answers reads, refusals, 405 and the document byte for byte as on the installed versions', async () => {
    const newest = await probe('newest');
    const installed = await probe('installed');
    const answers = JSON.parse(installed) as {
      answers: [string, string, number][];
      document: { paths: number };
    };
    // The probe reaches each kind of answer, and the document lists every path.
    expect(answers.answers.map(([, , status]) => status)).toEqual([200, 422, 400, 405, 200]);
    expect(answers.document.paths).toBeGreaterThan(150);
    expect(
      newest,
      `on ${JSON.stringify(versionsIn(join(work, 'deps/node_modules')))} (installed: ${JSON.stringify(versionsIn(join(ROOT, 'node_modules')))})`,
    ).toBe(installed);
  }, 240_000);
});
