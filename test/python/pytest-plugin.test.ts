/**
 * The pytest plugin of python/ as its users get it: a wheel built from python/ with its build backend,
 * installed into a fresh virtual environment, its example suite (python/tests, copied away from the
 * source package) run once for each way of finding a server: an installed package, SANDBOX_URL, npx.
 *
 * Defined only where a python3 can run the suite (pytest, requests, venv) and one can build the wheel
 * offline (pip, setuptools, wheel): the probes are can-run-suite.py and can-build-wheel.py, which
 * .ci/run also reads to install Debian's packages where they are missing. The package's own metadata
 * is checked everywhere.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PYTHON = join(ROOT, 'python');
const CLI = join(ROOT, 'dist', 'cli.mjs');
/** The tests of python/tests; each must pass (none skipped). */
const EXPECTED_PASSED = 40;
const VERSION = /^__version__ = "([^"]+)"$/m.exec(
  readFileSync(join(PYTHON, 'unified_api_sandbox_pytest', '__init__.py'), 'utf8'),
)?.[1];
/** pip, quiet, writing nothing outside the temporary folder (no cache, no version check). */
const PIP = ['-m', 'pip', '--quiet', '--no-cache-dir', '--disable-pip-version-check'];
/** Where the source tree keeps what a build or a run leaves behind: not copied. */
const LEFTOVERS = new Set(['__pycache__', '.pytest_cache', 'build', 'dist']);

function succeeds(python: string, args: string[]): boolean {
  return spawnSync(python, args, { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

/** The PATH's python3, then Debian's (where .ci/run installs what the PATH's lacks). */
const CANDIDATES = ['python3', '/usr/bin/python3'];
const RUNNER = CANDIDATES.find((python) => succeeds(python, [join(HERE, 'can-run-suite.py')]));
const BUILDER =
  RUNNER === undefined
    ? undefined
    : [RUNNER, ...CANDIDATES].find((python) => succeeds(python, [join(HERE, 'can-build-wheel.py')]));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: 170_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, output }));
  });
}

async function mustRun(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, { cwd });
  expect(result.code, `${command} ${args.join(' ')}\n${result.output}`).toBe(0);
  return result.output;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether anything still answers at a url. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

/** The environment of a user's shell: nothing of this repository's, nothing that names a server. */
function userEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  for (const name of Object.keys(env)) {
    if (name.startsWith('SANDBOX_') || name.startsWith('PYTEST_') || name === 'PYTHONPATH') delete env[name];
  }
  return { ...env, ...extra };
}

/** A server of the build (`--quiet` prints its url alone), as someone else runs it. */
function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^(http:\/\/\S+)\n/.exec(out)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    // Read to the end, so that the server never blocks on a full pipe; shown if it does not start.
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4_000);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code} before its url: ${err}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('the Python package', () => {
  it('names its plugin module in its entry point, and takes its version from the module', () => {
    const pyproject = readFileSync(join(PYTHON, 'pyproject.toml'), 'utf8');
    expect(pyproject).toContain('build-backend = "setuptools.build_meta"');
    expect(pyproject).toContain('[project.entry-points.pytest11]');
    expect(pyproject).toContain('unified_api_sandbox = "unified_api_sandbox_pytest.plugin"');
    expect(pyproject).toContain('version = { attr = "unified_api_sandbox_pytest.__version__" }');
    expect(existsSync(join(PYTHON, 'unified_api_sandbox_pytest', 'plugin.py'))).toBe(true);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('starts its README with the install of a Python-only team', () => {
    const readme = readFileSync(join(PYTHON, 'README.md'), 'utf8');
    // Everything before the first section: the title, a sentence, the install.
    const head = readme.slice(0, readme.indexOf('\n## '));
    expect(head).toMatch(/^pip install unified-api-sandbox-pytest\b/m);
    expect(head).toMatch(/^npm install --save-dev unified-api-sandbox\b/m);
    expect(head).toContain('SANDBOX_URL');
  });
});

if (RUNNER !== undefined && BUILDER !== undefined) {
  const runner = RUNNER;
  const builder = BUILDER;

  describe('the pytest plugin as a wheel', () => {
    let tmp = '';
    let venvPython = '';

    beforeAll(async () => {
      expect(existsSync(CLI), 'dist/cli.mjs is missing: npm run build').toBe(true);
      tmp = mkdtempSync(join(tmpdir(), 'pytest-wheel-'));
      // Built from a copy: the backend writes build/ and *.egg-info beside the sources.
      const source = join(tmp, 'source');
      cpSync(PYTHON, source, {
        recursive: true,
        filter: (path) => !LEFTOVERS.has(basename(path)) && !path.endsWith('.egg-info'),
      });
      await mustRun(
        builder,
        [...PIP, 'wheel', '--no-deps', '--no-build-isolation', '--no-index', source, '-w', 'wheels'],
        tmp,
      );
      await mustRun(runner, ['-m', 'venv', '--system-site-packages', 'venv'], tmp);
      venvPython = join(tmp, 'venv', 'bin', 'python');
      const wheels = readdirSync(join(tmp, 'wheels'));
      await mustRun(
        venvPython,
        [...PIP, 'install', '--no-deps', '--no-index', join('wheels', wheels[0] ?? '')],
        tmp,
      );
    }, 170_000);

    afterAll(() => {
      const link = join(tmp, 'installed', 'node_modules', 'unified-api-sandbox');
      if (existsSync(link)) unlinkSync(link); // a link to this repository: removed, never followed
      if (tmp !== '') rmSync(tmp, { recursive: true, force: true });
    });

    /** A folder with a copy of the example suite, and nothing of the package's sources. */
    function suite(name: string): string {
      const folder = join(tmp, name);
      cpSync(join(PYTHON, 'tests'), join(folder, 'tests'), {
        recursive: true,
        filter: (path) => !LEFTOVERS.has(basename(path)),
      });
      return folder;
    }

    async function runSuite(
      folder: string,
      env: NodeJS.ProcessEnv,
    ): Promise<{ output: string; source: string[] }> {
      // pytest's temporary folders beside the suite's (not under it: the suite's test of npx wants no
      // node_modules above its own), removed with the rest.
      const basetemp = `${folder}-basetemp`;
      const result = await run(
        venvPython,
        ['-m', 'pytest', 'tests', '-p', 'no:cacheprovider', `--basetemp=${basetemp}`],
        {
          cwd: folder,
          env: userEnv(env),
        },
      );
      expect(result.signal, result.output).toBeNull();
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(new RegExp(`^=+ ${EXPECTED_PASSED} passed in [\\d.]+s`, 'm'));
      // The plugin that ran is the wheel's, loaded by its entry point.
      expect(result.output).toMatch(new RegExp(`^plugins: .*unified-api-sandbox-pytest-${VERSION}`, 'm'));
      const source = result.output.split('\n').filter((line) => /^unified-api-sandbox: (?!pid )/.test(line));
      return { output: result.output, source };
    }

    /** The server the session started: reported stopped, and gone (npx's grandchild included). */
    async function expectStopped(output: string): Promise<void> {
      const started = /^unified-api-sandbox: pid (\d+) at (http:\/\/\S+): (.*)$/m.exec(output);
      expect(started, output).not.toBeNull();
      expect(started?.[3]).toMatch(/^stopped, exit code/);
      expect(isRunning(Number(started?.[1]))).toBe(false);
      expect(await answers(started?.[2] ?? '')).toBe(false);
    }

    it('is built at the version of its module and installed into the virtual environment', async () => {
      expect(readdirSync(join(tmp, 'wheels'))).toEqual([
        `unified_api_sandbox_pytest-${VERSION}-py3-none-any.whl`,
      ]);
      const where = await mustRun(
        venvPython,
        ['-c', 'import unified_api_sandbox_pytest as p; print(p.__file__, p.__version__)'],
        tmp,
      );
      const [file, version] = where.trim().split(' ');
      expect(file?.startsWith(join(tmp, 'venv', 'lib'))).toBe(true);
      expect(file).toMatch(/\/site-packages\/unified_api_sandbox_pytest\/__init__\.py$/);
      expect(version).toBe(VERSION);
    }, 60_000);

    it('starts the installed package found from the rootdir up, and says so', async () => {
      const folder = suite('installed');
      mkdirSync(join(folder, 'node_modules'));
      symlinkSync(ROOT, join(folder, 'node_modules', 'unified-api-sandbox'), 'dir');
      const { output, source } = await runSuite(folder, {});
      const cli = join(folder, 'node_modules', 'unified-api-sandbox', 'dist', 'cli.mjs');
      expect(source).toEqual([
        `unified-api-sandbox: installed package: node ${cli} (found from the rootdir up)`,
      ]);
      await expectStopped(output);
    }, 180_000);

    it('uses the server of SANDBOX_URL, with its admin token, and starts none', async () => {
      const folder = suite('url');
      const server = await serve(['--admin-token', 'wheel-admin']);
      try {
        const { output, source } = await runSuite(folder, {
          SANDBOX_URL: server.url,
          SANDBOX_ADMIN_TOKEN: 'wheel-admin',
        });
        expect(source).toEqual([
          `unified-api-sandbox: SANDBOX_URL: ${server.url} (running already; nothing started)`,
        ]);
        expect(output).not.toMatch(/^unified-api-sandbox: pid /m);
        // Every world the suite made is gone.
        const worlds = await fetch(`${server.url}/__sandbox/worlds`, {
          headers: { authorization: 'Bearer wheel-admin' },
        });
        expect(((await worlds.json()) as { items: unknown[] }).items).toEqual([]);
      } finally {
        await stop(server.child);
      }
    }, 180_000);

    it('runs npx --yes unified-api-sandbox when nothing is installed, and stops its grandchild', async () => {
      const folder = suite('npx');
      // npx as it runs a package: the server is a child of the process started, not that process.
      const npx = join(folder, 'bin', 'npx');
      mkdirSync(join(folder, 'bin'));
      writeFileSync(
        npx,
        [
          '#!/bin/sh',
          '[ "$1" = --yes ] && [ "$2" = unified-api-sandbox ] || { echo "npx: unexpected $*" >&2; exit 64; }',
          'shift 2',
          `"${process.execPath}" "${CLI}" "$@"`,
          '',
        ].join('\n'),
      );
      chmodSync(npx, 0o755);
      const { output, source } = await runSuite(folder, {
        PATH: `${join(folder, 'bin')}${delimiter}${process.env.PATH}`,
      });
      const rootdir = /^rootdir: (\S+)/m.exec(output)?.[1];
      expect(rootdir?.startsWith(folder), output).toBe(true);
      expect(source).toEqual([
        `unified-api-sandbox: npx: npx --yes unified-api-sandbox (no installed package from ${rootdir} up)`,
      ]);
      await expectStopped(output);
    }, 180_000);
  });
}
