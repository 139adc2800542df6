/**
 * The pytest plugin of python/ run for real: its example suite, through pytest, against the sandbox
 * built in dist/. Defined only where a python3 has pytest and requests (CI installs Debian's
 * python3-pytest when it is missing); the package's own metadata is checked everywhere.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = join(ROOT, 'python');
const CLI = join(ROOT, 'dist', 'cli.mjs');
/** The tests of python/tests; each must pass (none skipped). */
const EXPECTED_PASSED = 32;

function succeeds(python: string, args: string[]): boolean {
  return spawnSync(python, args, { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

/**
 * The first python3 with pytest and requests: the one on the PATH, else Debian's (where CI installs
 * python3-pytest when the PATH's python3 lacks it).
 */
const PYTHON3 = ['python3', '/usr/bin/python3'].find(
  (python) => succeeds(python, ['-m', 'pytest', '--version']) && succeeds(python, ['-c', 'import requests']),
);

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function runPytest(python: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-m', 'pytest', ...args], { cwd: ROOT, env, timeout: timeoutMs });
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

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe('the Python package', () => {
  it('names its plugin module in its entry point, at the version of the module', () => {
    const pyproject = readFileSync(join(PYTHON, 'pyproject.toml'), 'utf8');
    expect(pyproject).toContain('[project.entry-points.pytest11]');
    expect(pyproject).toContain('unified_api_sandbox = "unified_api_sandbox_pytest.plugin"');
    expect(existsSync(join(PYTHON, 'unified_api_sandbox_pytest', 'plugin.py'))).toBe(true);
    const version = /^version = "([^"]+)"$/m.exec(pyproject)?.[1];
    const init = readFileSync(join(PYTHON, 'unified_api_sandbox_pytest', '__init__.py'), 'utf8');
    expect(init).toContain(`__version__ = "${version}"`);
  });
});

if (PYTHON3 !== undefined) {
  const python = PYTHON3;
  describe('the pytest plugin', () => {
    it('passes its example suite against dist/cli.mjs and stops its server at the end', async () => {
      expect(existsSync(CLI), 'dist/cli.mjs is missing: npm run build').toBe(true);
      const env: NodeJS.ProcessEnv = { ...process.env, PYTHONPATH: PYTHON, SANDBOX_CLI: CLI };
      for (const name of ['SANDBOX_URL', 'SANDBOX_ADMIN_TOKEN', 'PYTEST_ADDOPTS', 'PYTEST_PLUGINS']) {
        delete env[name];
      }
      const run = await runPytest(
        python,
        ['python/tests', '-p', 'unified_api_sandbox_pytest.plugin', '-p', 'no:cacheprovider', '-q'],
        env,
        170_000,
      );
      expect(run.signal, run.output).toBeNull();
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(new RegExp(`^${EXPECTED_PASSED} passed in [\\d.]+s`, 'm'));

      // The plugin reports the server it started; the process is gone once pytest has exited.
      const started = /^unified-api-sandbox: pid (\d+) at (http:\/\/\S+): (.*)$/m.exec(run.output);
      expect(started, run.output).not.toBeNull();
      expect(started?.[3]).toMatch(/^stopped, exit code/);
      expect(isRunning(Number(started?.[1]))).toBe(false);
    }, 180_000);
  });
}
