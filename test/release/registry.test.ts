/**
 * The release, proven against a real registry: a private Verdaccio on loopback, installed for the
 * test into a temporary prefix (it is no dependency of the project), the package published to it as
 * a release publishes it (`npm publish`, which builds it), then used from empty folders whose only
 * registry is that one: `npx unified-api-sandbox`, `npm install --save-dev unified-api-sandbox`,
 * `import` and `require`, and its types. Verdaccio takes the package's dependencies from the
 * registry npm is configured with here (its uplink), so the test needs that registry, and nothing
 * else: it runs as its own step (`npm run test:release`), not within `npm test`.
 *
 * The npm commands of the newcomer run with a user configuration and a cache of their own, in the
 * temporary folder: nothing of this machine's configuration or cache takes part.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifest, npm, npmEnv, printedUrl, ROOT, run, stopGroup } from '../entry/npm.js';

/** The Verdaccio of the test: 6.8 runs on Node 20 (6.10 needs 22). */
const VERDACCIO = 'verdaccio@6.8';

let work: string;
let registry: string;
let verdaccio: ChildProcess | undefined;
/** The environment of a newcomer's npm: this registry, an empty user configuration, a cache of its own. */
let newcomer: NodeJS.ProcessEnv;
/** What `npm publish` printed. */
let published: { stdout: string; stderr: string };
/** What `npm install --save-dev unified-api-sandbox` printed, in `project`. */
let installed: { stdout: string; stderr: string };
let project: string;

/** npm's environment without the configuration an outer npm passes down (`npm_config_*`), but proxies and CAs. */
function bareEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(npmEnv).filter(
      ([key]) => !/^npm_config_/i.test(key) || /proxy|^npm_config_(?:cafile|ca|strict_ssl)$/i.test(key),
    ),
  );
}

/** Starts Verdaccio on a free loopback port and resolves with its url. */
async function startVerdaccio(prefix: string, config: string): Promise<string> {
  const runner = join(work, 'verdaccio-runner.cjs');
  writeFileSync(
    runner,
    `const { runServer } = require(process.argv[2]);
runServer(process.argv[3]).then((server) => {
  server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/'));
});
`,
  );
  verdaccio = spawn(process.execPath, [runner, join(prefix, 'node_modules', 'verdaccio'), config], {
    cwd: work,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return printedUrl(verdaccio, 60_000);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sandbox-release-'));
  const prefix = join(work, 'verdaccio');
  mkdirSync(prefix);
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ private: true }));
  await npm(['install', '--no-audit', '--no-fund', VERDACCIO], prefix, 300_000);
  const { stdout: uplink } = await npm(['config', 'get', 'registry'], work, 30_000);
  const config = join(work, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(work, 'storage'))}`,
      'auth:',
      `  htpasswd: { file: ${JSON.stringify(join(work, 'htpasswd'))}, max_users: 1 }`,
      'uplinks:',
      `  upstream: { url: ${JSON.stringify(uplink.trim())}, timeout: 60s }`,
      'packages:',
      // The package itself only from this registry: never a package of its name upstream.
      `  ${JSON.stringify(manifest.name)}: { access: $all, publish: $authenticated }`,
      "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
      'web: { enable: false }',
      'log: { type: stdout, format: json, level: error }',
      '',
    ].join('\n'),
  );
  registry = await startVerdaccio(prefix, config);

  // A release's publisher: a user of the registry and its token.
  const user = await fetch(new URL('-/user/org.couchdb.user:release', registry), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: 'release-of-the-test' }),
  });
  const { token } = (await user.json()) as { token: string };
  const publisher = join(work, 'publisher.npmrc');
  const host = registry.replace(/^https?:/, '');
  writeFileSync(publisher, `registry=${registry}\n${host}:_authToken=${token}\n`);
  published = await npm(['publish', '--access', 'public'], ROOT, 300_000, {
    ...bareEnv(),
    npm_config_userconfig: publisher,
    npm_config_cache: join(work, 'publisher-cache'),
  });

  writeFileSync(join(work, 'empty.npmrc'), '');
  newcomer = {
    ...bareEnv(),
    npm_config_userconfig: join(work, 'empty.npmrc'),
    npm_config_cache: join(work, 'cache'),
  };
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, '.npmrc'), `registry=${registry}\n`);
}, 900_000);

afterAll(async () => {
  if (verdaccio) await stopGroup(verdaccio);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('published to a registry', () => {
  it('is published by `npm publish` without a warning, built from the sources', async () => {
    expect(published.stderr).not.toMatch(/warn/i);
    // prepack ran the build: npm printed its command.
    expect(published.stdout).toMatch(/> npm run build/);
    const packument = (await (await fetch(new URL(manifest.name, registry))).json()) as {
      versions: Record<string, { scripts?: Record<string, string> }>;
    };
    expect(Object.keys(packument.versions)).toEqual([manifest.version]);
    // No script that an install would run or list: prepack ran at publish, not at install.
    const scripts = Object.keys(packument.versions[manifest.version]?.scripts ?? {});
    expect(scripts).toContain('prepack');
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(scripts).not.toContain(name);
  });

  it('answers from `npx unified-api-sandbox --port 0` in an empty folder, and says its version', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, '.npmrc'), `registry=${registry}\n`);
    // --yes: npx asks before it installs, and a run without a terminal cannot answer.
    const { stdout: version } = await run('npx', ['--yes', manifest.name, '--version'], {
      cwd: empty,
      env: newcomer,
      timeout: 300_000,
    });
    expect(version).toBe(`${manifest.version}\n`);
    const child = spawn('npx', ['--yes', manifest.name, '--port', '0', '--quiet'], {
      cwd: empty,
      env: newcomer,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await printedUrl(child, 60_000);
      const document = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(30_000) });
      expect(document.status).toBe(200);
      expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
      const swagger = await fetch(`${url}/docs/assets/swagger-ui-bundle.js`, {
        signal: AbortSignal.timeout(30_000),
      });
      expect(swagger.status).toBe(200);
      expect((await swagger.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    } finally {
      await stopGroup(child);
    }
  }, 400_000);

  describe('npm install --save-dev unified-api-sandbox', () => {
    beforeAll(async () => {
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'newcomer', version: '1.0.0', private: true }),
      );
      installed = await npm(['install', '--save-dev', manifest.name], project, 300_000, newcomer);
    }, 400_000);

    it('prints no warning, and no dependency has an install script', async () => {
      expect(installed.stderr).not.toMatch(/warn/i);
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }>;
      };
      const withScripts = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript);
      expect(withScripts.map(([path]) => path)).toEqual([]);
      const { stdout, stderr } = await npm(['install-scripts', 'ls'], project, 60_000, newcomer);
      expect(`${stdout}${stderr}`.trim()).toBe('No packages with unreviewed install scripts.');
      // Its dependencies, none of its dev dependencies, and nothing built at install.
      expect(lock.packages[`node_modules/${manifest.name}`]?.dev).toBe(true);
      for (const name of Object.keys(manifest.devDependencies)) {
        expect(Object.keys(lock.packages), name).not.toContain(`node_modules/${name}`);
      }
      for (const name of Object.keys(manifest.dependencies)) {
        expect(Object.keys(lock.packages), name).toContain(`node_modules/${name}`);
      }
      expect(existsSync(join(project, 'node_modules', manifest.name, 'dist', 'bin'))).toBe(false);
      expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies).toEqual({
        [manifest.name]: `^${manifest.version}`,
      });
    });

    it.each([
      ['an ES module', 'smoke.mjs', `import { createApp, DEFAULT_SEED } from '${manifest.name}';`],
      ['CommonJS', 'smoke.cjs', `const { createApp, DEFAULT_SEED } = require('${manifest.name}');`],
    ])('is loaded from %s: createApp answers /openapi.json, with no warning', async (_, file, load) => {
      writeFileSync(
        join(project, file),
        `${load}
createApp().request('/openapi.json').then(async (res) => {
  const document = await res.json();
  console.log(JSON.stringify({ seed: DEFAULT_SEED, status: res.status, paths: Object.keys(document.paths).length }));
});
`,
      );
      const { stdout, stderr } = await run(process.execPath, [file], { cwd: project, timeout: 60_000 });
      const answer = JSON.parse(stdout) as { seed: number; status: number; paths: number };
      expect(answer).toMatchObject({ seed: 1, status: 200 });
      expect(answer.paths).toBeGreaterThan(100);
      expect(stderr).toBe('');
    });

    it('type-checks an ES module and a CommonJS TypeScript file of the project', async () => {
      const check = `const app: SandboxApp = createApp({ seed: 7 });
const started: Promise<RunningSandbox> = startSandbox({ port: 0 });
// @ts-expect-error a seed is a number (were the types missing, everything would be any, and this no error)
createApp({ seed: 'seven' });
export { app, started };
`;
      writeFileSync(
        join(project, 'check.mts'),
        `import { createApp, type RunningSandbox, type SandboxApp, startSandbox } from '${manifest.name}';\n${check}`,
      );
      writeFileSync(
        join(project, 'check.cts'),
        `import { createApp, type RunningSandbox, type SandboxApp, startSandbox } from '${manifest.name}';\n${check}`,
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
            skipLibCheck: false,
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules', '@types')],
          },
          files: ['check.mts', 'check.cts'],
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

    it('answers from `npx unified-api-sandbox`, the installed one', async () => {
      const { stdout } = await run('npx', [manifest.name, '--version'], {
        cwd: project,
        env: newcomer,
        timeout: 60_000,
      });
      expect(stdout).toBe(`${manifest.version}\n`);
    }, 90_000);
  });
});
