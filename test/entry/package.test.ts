/**
 * The package as a newcomer gets it: `npm pack`, then `npm install <tarball>` into an empty project.
 * It catches what the unit tests cannot see: a file the tarball lacks, types pointing at nothing, a
 * module the built code needs that is only a dev dependency, a bin that does not start. The
 * dependencies come from the npm cache the repository's own install filled.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWAGGER_UI_ASSETS, SWAGGER_UI_FOLDER, SWAGGER_UI_NOTICES } from '../../src/surfaces/docs/built.js';
import { escapeRegExp, manifest, npm, npmEnv, printedUrl, ROOT, run, stopGroup } from './npm.js';

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

/** dist/ is missing, or older than what it is built from (CI's `npm ci` builds it through `prepare`). */
function distIsStale(): boolean {
  const inputs = ['src', 'bin', 'fixtures', 'scripts/bundle.mjs', 'scripts/prebuilt-openapi.mjs'];
  const outputs = ['dist/cli.mjs', 'dist/index.mjs', 'dist/openapi.prebuilt', 'dist/src/index.d.ts'];
  try {
    const built = Math.min(...outputs.map((file) => statSync(join(ROOT, file)).mtimeMs));
    return Math.max(...inputs.map((input) => newest(join(ROOT, input)))) > built;
  } catch {
    return true;
  }
}

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

interface PackedFile {
  path: string;
  size: number;
}

let work: string;
let project: string;
let packed: { filename: string; size: number; unpackedSize: number; files: PackedFile[] };
/** What `npm install <tarball>` printed. */
let installed: { stdout: string; stderr: string };

beforeAll(async () => {
  if (distIsStale()) await npm(['run', 'build'], ROOT, 240_000);
  work = mkdtempSync(join(tmpdir(), 'sandbox-package-'));
  // Scripts off: dist/ is fresh now, and `prepare` would build it a second time.
  const { stdout } = await npm(
    ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
    ROOT,
    120_000,
  );
  const [info] = JSON.parse(stdout) as (typeof packed)[];
  if (!info) throw new Error(`npm pack printed no tarball: ${stdout}`);
  packed = info;
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'newcomer', version: '1.0.0', private: true, type: 'module' }),
  );
  installed = await npm(
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, packed.filename)],
    project,
    180_000,
  );
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the built code, its types and the fixtures, nothing to build and no sources, tests or maps', () => {
    const paths = packed.files.map((file) => file.path);
    const exported = Object.values(manifest.exports).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : Object.values(entry),
    );
    for (const file of [manifest.main, manifest.types, ...Object.values(manifest.bin), ...exported]) {
      expect(paths, file).toContain(file.replace(/^\.\//, ''));
    }
    expect(paths).toContain('dist/openapi.prebuilt');
    // Swagger UI's files the /docs page loads, with their license notices (src/surfaces/docs/built.ts).
    for (const name of [...Object.keys(SWAGGER_UI_ASSETS), ...SWAGGER_UI_NOTICES]) {
      expect(paths).toContain(`dist/${SWAGGER_UI_FOLDER}/${name}`);
    }
    // The bundle both entries load (bin/core-loader.ts).
    expect(paths.filter((path) => /^dist\/core-[0-9a-f]+\.cjs$/.test(path))).toHaveLength(1);
    expect(paths).toContain('LICENSE');
    expect(paths.some((path) => path.startsWith('fixtures/'))).toBe(true);
    const unexpected = paths.filter(
      (path) =>
        !/^dist\/[^/]+\.mjs$/.test(path) &&
        !/^dist\/core-[0-9a-f]+\.cjs$/.test(path) &&
        path !== 'dist/index.cjs' &&
        !path.startsWith(`dist/${SWAGGER_UI_FOLDER}/`) &&
        !/^dist\/src\/.+\.d\.ts$/.test(path) &&
        !/^fixtures\/[^/]+\.json$/.test(path) &&
        !/^docs\/([a-z0-9-]+\.md|[a-z0-9-]+\/[a-z0-9-]+\.png)$/.test(path) &&
        !['dist/openapi.prebuilt', 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(path),
    );
    expect(unexpected).toEqual([]);
    // A bound that catches a folder packed by mistake (the tarball is ~1 MB, ~8 MB unpacked).
    expect(packed.unpackedSize).toBeLessThan(20 * 1024 * 1024);
  });
});

describe('installed from the tarball into an empty project', () => {
  it('installs with no warning and runs no install script: none of its own, none of a dependency', () => {
    // npm lists there the scripts of the package (a `prepare` of a tarball) and of its dependencies
    // (Swagger UI's reported each install over the network) that no one approved.
    expect(installed.stderr).not.toMatch(/warn/i);
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript);
    expect(withScripts.map(([path]) => path)).toEqual([]);
    const scripts = JSON.parse(
      readFileSync(join(project, 'node_modules', manifest.name, 'package.json'), 'utf8'),
    ).scripts as Record<string, string>;
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(scripts).not.toHaveProperty(name);
  });

  it('installs only the dependencies, and builds nothing', () => {
    // Exactly the packed files: an install-time build would have left tsc's output beside them.
    const installed = join(project, 'node_modules', manifest.name);
    expect(filesUnder(installed).sort()).toEqual(packed.files.map((file) => file.path).sort());
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    for (const name of ['typescript', 'esbuild', 'vitest', 'tsx', 'swagger-ui-dist']) {
      expect(Object.keys(lock.packages), name).not.toContain(`node_modules/${name}`);
    }
  });

  it('is imported from an ES module: createApp answers /openapi.json, a YAML fixture loads', async () => {
    writeFileSync(join(project, 'world.yaml'), 'consumers:\n  - name: Packaged Bakery\n    ref: bakery\n');
    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { createApp, DEFAULT_SEED } from '${manifest.name}';
const app = createApp({ fixtures: 'world.yaml' });
const res = await app.request('/openapi.json');
const doc = await res.json();
console.log(JSON.stringify({ seed: DEFAULT_SEED, status: res.status, openapi: doc.openapi, paths: Object.keys(doc.paths).length }));
`,
    );
    const { stdout } = await run(process.execPath, ['smoke.mjs'], { cwd: project, timeout: 30_000 });
    const answer = JSON.parse(stdout) as { seed: number; status: number; openapi: string; paths: number };
    expect(answer).toMatchObject({ seed: 1, status: 200 });
    expect(answer.openapi).toMatch(/^3\./);
    expect(answer.paths).toBeGreaterThan(100);
  });

  it('serves the guides it holds, with no network: /guides/readiness, where report findings link', async () => {
    writeFileSync(
      join(project, 'guides.mjs'),
      `import { createApp } from '${manifest.name}';
const res = await createApp().request('/guides/readiness');
console.log(JSON.stringify({ status: res.status, anchor: (await res.text()).includes('id="token_not_reused"') }));
`,
    );
    const { stdout } = await run(process.execPath, ['guides.mjs'], { cwd: project, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ status: 200, anchor: true });
  });

  it('is required from CommonJS: the same sandbox as the ES module entry, without a warning', async () => {
    writeFileSync(
      join(project, 'smoke.cjs'),
      `const sandbox = require('${manifest.name}');
import('${manifest.name}').then(async (esm) => {
  const res = await sandbox.createApp().request('/openapi.json');
  const names = (entry) => Object.keys(entry).filter((name) => name !== 'default').sort();
  console.log(JSON.stringify({ status: res.status, same: esm.createApp === sandbox.createApp, required: names(sandbox), imported: names(esm) }));
});
`,
    );
    const { stdout, stderr } = await run(process.execPath, ['smoke.cjs'], { cwd: project, timeout: 30_000 });
    const answer = JSON.parse(stdout) as {
      status: number;
      same: boolean;
      required: string[];
      imported: string[];
    };
    expect(answer).toMatchObject({ status: 200, same: true });
    expect(answer.required).toContain('startSandbox');
    expect(answer.required).toEqual(answer.imported);
    expect(stderr).toBe('');
  });

  it('type-checks a TypeScript file importing its types, every declaration file included', async () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import { createApp, type RunningSandbox, type SandboxApp, type StartOptions, startSandbox } from '${manifest.name}';

const app: SandboxApp = createApp({ seed: 7 });
const res: Response = await app.request('/openapi.json');
const options: StartOptions = { port: 0 };
const start: (options?: StartOptions) => Promise<RunningSandbox> = startSandbox;
// @ts-expect-error a seed is a number (were the types missing, everything would be any, and this no error)
createApp({ seed: 'seven' });
export { options, res, start };
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          // The MCP SDK's declarations name fetch types (HeadersInit) that only the DOM library declares.
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          // Checked too: a declaration file importing a package that is no dependency fails here.
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['check.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    await expect(
      run(tsc, ['-p', join(project, 'tsconfig.json')], { cwd: project, timeout: 120_000 }).catch(
        (error: { stdout?: string; message: string }) => {
          throw new Error(error.stdout || error.message);
        },
      ),
    ).resolves.toBeDefined();
  }, 150_000);

  it("keeps the compiled code in Node's own compile cache where Node has one, and never runs code a cache file holds for other code", async () => {
    writeFileSync(
      join(project, 'answer.mjs'),
      `import { createApp } from '${manifest.name}';
const res = await createApp().request('/openapi.json');
console.log(res.status);
`,
    );
    const installed = join(project, 'node_modules', manifest.name, 'dist');
    const [core] = readdirSync(installed).filter((name) => /^core-[0-9a-f]+\.cjs$/.test(name));
    const coreFile = join(installed, core as string);
    const importOnce = async (setting: string) => {
      const { stdout, stderr } = await run(process.execPath, ['answer.mjs'], {
        cwd: project,
        timeout: 30_000,
        env: {
          ...process.env,
          NODE_DEBUG: 'unified-api-sandbox',
          NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
          UNIFIED_API_SANDBOX_CODE_CACHE: setting,
        },
      });
      return { answer: stdout.trim(), log: stderr };
    };
    const folder = join(work, 'code-cache');
    mkdirSync(folder, { mode: 0o700 });
    // A file the loader did not write stays, whatever its name: the loader deletes nothing.
    writeFileSync(join(folder, 'core-0000000000-v20.0.0-x64-lib.bin'), 'not ours');
    // Whoever can write the folder makes a cache from other code of the same length at the same path.
    const original = readFileSync(coreFile, 'utf8');
    // A comment at the top level of the bundle, made a statement of the same length.
    const marker = '\n// dist/src/lib/clock.js\n';
    const plant = `\n${'console.log``;//'.padEnd(marker.length - 2, '/')}\n`;
    expect(original.split(marker)).toHaveLength(2);
    writeFileSync(coreFile, original.replace(marker, plant));
    try {
      expect((await importOnce(folder)).answer).toBe("[ '' ]\n200");
    } finally {
      writeFileSync(coreFile, original);
    }
    const first = await importOnce(folder);
    expect(first.answer).toBe('200');
    expect(readFileSync(join(folder, 'core-0000000000-v20.0.0-x64-lib.bin'), 'utf8')).toBe('not ours');
    if (!('enableCompileCache' in (await import('node:module')).default)) {
      // Node 20: no compile cache, nothing written, and it says so.
      expect(first.log).toMatch(/no code cache: node v20\.\d+\.\d+ has no compile cache/);
      expect(readdirSync(folder)).toEqual(['core-0000000000-v20.0.0-x64-lib.bin']);
    } else {
      // Node checks the source's hash, refuses the planted cache and writes the right one.
      expect(first.log).toMatch(/code cache enabled: /);
      expect(first.log).toMatch(/code hash mismatch/);
      const again = await importOnce(folder);
      expect(again.answer).toBe('200');
      // Node's words change between versions: `cache for <file>`, `cache for CommonJS <file>`.
      expect(again.log.split('\n')).toContainEqual(
        expect.stringMatching(new RegExp(`cache for (?:CommonJS )?${escapeRegExp(coreFile)} was accepted`)),
      );
    }
    // Off: nothing read, nothing written.
    const off = await importOnce('off');
    expect(off.answer).toBe('200');
    expect(off.log).not.toMatch(/code cache/);
  }, 120_000);

  it("runs a vertical's code only when a process first needs it, and answers as the sources do", async () => {
    // The requests, written once: run by a process importing the package, and here on the sources.
    writeFileSync(
      join(project, 'answers.mjs'),
      `export async function answers({ createApp, seedCredentials, seedDirectory }, mark) {
  const app = createApp({ seed: 7 });
  const creds = seedCredentials(7);
  const tokenRes = await app.request('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
  });
  const auth = { authorization: 'Bearer ' + (await tokenRes.json()).access_token };
  const ids = seedDirectory(7).verticalConsumers;
  const out = [];
  const ask = async (marker, path, init = {}) => {
    mark(marker);
    const res = await app.request(path, { ...init, headers: { ...auth, ...init.headers } });
    out.push([res.status, await res.text()]);
  };
  await ask('-- platform', '/consumers/' + ids.INVOICING);
  await ask('-- invoicing', '/consumers/' + ids.INVOICING + '/invoicing/invoices?size=3');
  await ask('-- invoicing again', '/consumers/' + ids.INVOICING + '/invoicing/contacts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"first_name": 7}',
  });
  await ask('-- pms', '/consumers/' + ids.PMS + '/pms/locations');
  mark('-- end');
  return out;
}
`,
    );
    writeFileSync(
      join(project, 'lazy.mjs'),
      `import * as lib from '${manifest.name}';
import { answers } from './answers.mjs';
console.log(JSON.stringify(await answers(lib, (marker) => console.error(marker))));
`,
    );
    const { stdout, stderr } = await run(process.execPath, ['lazy.mjs'], {
      cwd: project,
      timeout: 30_000,
      env: { ...process.env, NODE_DEBUG: 'unified-api-sandbox', UNIFIED_API_SANDBOX_CODE_CACHE: 'off' },
    });
    const lines = stderr.split('\n');
    /** The verticals loaded between a marker line and the next. */
    const loadedAfter = (marker: string) => {
      const from = lines.indexOf(marker);
      expect(from, marker).toBeGreaterThanOrEqual(0);
      const to = lines.findIndex((line, i) => i > from && line.startsWith('-- '));
      return lines.slice(from + 1, to).flatMap((line) => /vertical (\w+) loaded/.exec(line)?.[1] ?? []);
    };
    // Importing, a new app, the token and a consumer's read load no vertical; a request to a vertical
    // loads it (the PMS is built on the POS's code, which it runs without loading the POS vertical).
    expect(stderr.split('-- platform\n')[0]).not.toMatch(/vertical \w+ loaded/);
    expect(loadedAfter('-- platform')).toEqual([]);
    expect(loadedAfter('-- invoicing')).toEqual(['invoicing']);
    expect(loadedAfter('-- invoicing again')).toEqual([]);
    expect(loadedAfter('-- pms')).toEqual(['pms']);

    // The same answers as the sources give.
    const { answers } = (await import(
      /* @vite-ignore */ pathToFileURL(join(project, 'answers.mjs')).href
    )) as {
      answers: (lib: object, mark: (marker: string) => void) => Promise<[number, string][]>;
    };
    const sources = {
      ...(await import('../../src/app.js')),
      ...(await import('../../src/platform/credentials.js')),
      ...(await import('../../src/control/seeded-world.js')),
    };
    const expected = await answers(sources, () => {});
    expect(expected.map(([status]) => status)).toEqual([200, 200, 422, 200]);
    expect(JSON.parse(stdout)).toEqual(expected);
  }, 60_000);

  it('generates the document it serves from the build, its verticals loaded to generate it', async () => {
    const prebuilt = join(project, 'node_modules', manifest.name, 'dist', 'openapi.prebuilt');
    writeFileSync(
      join(project, 'document.mjs'),
      `import { createApp } from '${manifest.name}';
const app = createApp({ adminToken: 'root' });
const service = await (await app.request('/openapi.json')).text();
const sandbox = await (await app.request('/__sandbox/openapi.json')).text();
process.stdout.write(JSON.stringify([service, sandbox]));
`,
    );
    const documents = async () => {
      const { stdout, stderr } = await run(process.execPath, ['document.mjs'], {
        cwd: project,
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NODE_DEBUG: 'unified-api-sandbox', UNIFIED_API_SANDBOX_CODE_CACHE: 'off' },
      });
      const loaded = [...stderr.matchAll(/vertical (\w+) loaded/g)].map((match) => match[1]).sort();
      return { served: JSON.parse(stdout) as [string, string], loaded };
    };
    // As the build wrote it: no vertical loaded.
    const built = await documents();
    expect(built.loaded).toEqual([]);
    // Without the prebuilt document, the process generates it from its routes: every vertical.
    const kept = readFileSync(prebuilt);
    rmSync(prebuilt);
    try {
      const generated = await documents();
      expect(generated.loaded).toEqual([
        'accounting',
        'banking',
        'commerce',
        'invoicing',
        'payment',
        'pms',
        'pos',
      ]);
      expect(generated.served[0]).toBe(built.served[0]);
      expect(generated.served[1]).toBe(built.served[1]);
      expect(built.served[0]).toContain('"/consumers/{consumer_id}/invoicing/invoices"');
    } finally {
      writeFileSync(prebuilt, kept);
    }
  }, 90_000);

  it('serves from `npx unified-api-sandbox --port 0 --quiet`, answering within seconds', async () => {
    const started = performance.now();
    // Its own process group: npx runs the bin in a child that a signal to npx alone would leave running.
    const child = spawn('npx', [...Object.keys(manifest.bin), '--port', '0', '--quiet'], {
      cwd: project,
      env: npmEnv,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await printedUrl(child, 20_000);
      const res = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(10_000) });
      const firstAnswer = performance.now() - started;
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      // Generous: a loaded CI machine, and npx's own start. The measured figure is in docs/benchmarks.md.
      expect(firstAnswer).toBeLessThan(5_000);
      // The API reference's assets come from a dependency resolved at run time.
      const css = await fetch(`${url}/docs/assets/swagger-ui.css`, { signal: AbortSignal.timeout(10_000) });
      expect(css.status).toBe(200);
      await css.arrayBuffer();
    } finally {
      await stopGroup(child);
    }
  }, 60_000);
});
