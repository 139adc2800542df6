/**
 * The pytest plugin of python/ run for real: its example suite, through pytest, against the sandbox
 * built in dist/. Defined only where a python3 has pytest and requests (CI installs Debian's
 * python3-pytest when it is missing); the package's own metadata is checked everywhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SUITE_SUMMARY, PYTHON_PACKAGE, PYTHON3, ROOT, runExampleSuite } from './pytest.js';

const CLI = join(ROOT, 'dist', 'cli.mjs');

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
    const pyproject = readFileSync(join(PYTHON_PACKAGE, 'pyproject.toml'), 'utf8');
    expect(pyproject).toContain('[project.entry-points.pytest11]');
    expect(pyproject).toContain('unified_api_sandbox = "unified_api_sandbox_pytest.plugin"');
    expect(existsSync(join(PYTHON_PACKAGE, 'unified_api_sandbox_pytest', 'plugin.py'))).toBe(true);
    const version = /^version = "([^"]+)"$/m.exec(pyproject)?.[1];
    const init = readFileSync(join(PYTHON_PACKAGE, 'unified_api_sandbox_pytest', '__init__.py'), 'utf8');
    expect(init).toContain(`__version__ = "${version}"`);
  });
});

if (PYTHON3 !== undefined) {
  const python = PYTHON3;
  describe('the pytest plugin', () => {
    it('passes its example suite against dist/cli.mjs and stops its server at the end', async () => {
      expect(existsSync(CLI), 'dist/cli.mjs is missing: npm run build').toBe(true);
      const run = await runExampleSuite(python, { SANDBOX_CLI: CLI }, 170_000);
      expect(run.signal, run.output).toBeNull();
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(EXAMPLE_SUITE_SUMMARY);

      // The plugin reports the server it started; the process is gone once pytest has exited.
      const started = /^unified-api-sandbox: pid (\d+) at (http:\/\/\S+): (.*)$/m.exec(run.output);
      expect(started, run.output).not.toBeNull();
      expect(started?.[3]).toMatch(/^stopped, exit code/);
      expect(isRunning(Number(started?.[1]))).toBe(false);
    }, 180_000);
  });
}
