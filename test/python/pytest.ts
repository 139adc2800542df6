/**
 * The pytest plugin's example suite (python/tests), run by a python3 of the machine: for the tests
 * that run it against a sandbox they start themselves, or one behind a router.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PYTHON_PACKAGE = join(ROOT, 'python');
/** The tests of python/tests; each must pass (none skipped). */
export const EXAMPLE_SUITE_PASSED = 40;
/** What pytest prints last when the whole example suite passed. */
export const EXAMPLE_SUITE_SUMMARY = new RegExp(`^${EXAMPLE_SUITE_PASSED} passed in [\\d.]+s`, 'm');

function succeeds(python: string, args: string[]): boolean {
  return spawnSync(python, args, { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

/**
 * The first python3 with pytest and requests: the one on the PATH, else Debian's (where CI installs
 * python3-pytest when the PATH's python3 lacks it); undefined when there is none.
 */
export const PYTHON3 = ['python3', '/usr/bin/python3'].find(
  (python) => succeeds(python, ['-m', 'pytest', '--version']) && succeeds(python, ['-c', 'import requests']),
);

export interface PytestRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/**
 * Runs the example suite with the plugin of python/, its server chosen by `sandbox` (SANDBOX_CLI, or
 * SANDBOX_URL and SANDBOX_ADMIN_TOKEN); no other SANDBOX_ or PYTEST_ setting of this process leaks in.
 */
export function runExampleSuite(
  python: string,
  sandbox: Record<string, string>,
  timeoutMs: number,
): Promise<PytestRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONPATH: PYTHON_PACKAGE };
  for (const name of [
    'SANDBOX_CLI',
    'SANDBOX_URL',
    'SANDBOX_ADMIN_TOKEN',
    'PYTEST_ADDOPTS',
    'PYTEST_PLUGINS',
  ]) {
    delete env[name];
  }
  Object.assign(env, sandbox);
  const args = [
    '-m',
    'pytest',
    'python/tests',
    '-p',
    'unified_api_sandbox_pytest.plugin',
    '-p',
    'no:cacheprovider',
    '-q',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { cwd: ROOT, env, timeout: timeoutMs });
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
