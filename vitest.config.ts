import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Four projects:
 * - `unit` (npm test): the modules through HTTP in process, the contract, the store, the surfaces;
 *   it needs nothing but Node.
 * - `latency` (npm test, after `unit`): the reads of other worlds timed while heavy work runs.
 * - `system` (npm run test:system, run by .ci/run after npm test): what starts processes, browsers
 *   and routers, or lives through months of the clock: the built package, the command line, the
 *   pytest plugin's wheel, nginx in front of two sandboxes, the browser pages, crashes, memory after
 *   many worlds, the nightly sync.
 * - `release` (npm run test:release): the package published to a private registry on loopback and
 *   installed from it; it needs the npm registry, so it is a step of its own.
 *
 * The unit files share one test process (`isolate: false`): the sources are imported once, not once
 * per file, which was a third of the run. A test restores whatever global it changes (process.env,
 * spies, fake timers). One process, its heap held to 512 MB (it keeps ~100 MB alive), keeps the run
 * under 1.2 GB with the processes the tests start; a second one would double the memory for less than
 * half the time.
 */
const SYSTEM = [
  'test/system/**/*.test.ts',
  'test/python/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/entry/package.test.ts',
  'test/**/*.browser.test.ts',
  'test/store/crash.test.ts',
  'test/control/worlds-memory.test.ts',
  'test/control/recorded-secrets.test.ts',
  'test/living/**/*.test.ts',
  // Each vertical's business lived day by day over weeks and months of the clock.
  'test/modules/*/living.test.ts',
  // A test that runs the command line, split from the unit tests of its feature.
  'test/**/*.system.test.ts',
];
const RELEASE = ['test/release/**/*.test.ts'];
/**
 * The tests that time the reads of other worlds while heavy work runs (p99 under 100 ms): each in a
 * process of its own, with V8's own heap limit, after the unit project. In the unit project's shared
 * process, its heap capped, the collections of what earlier files left took the p99 past its bound.
 */
const LATENCY = ['test/control/*-turns.test.ts', 'test/modules/datalab/large-world.test.ts'];

const shared = { testTimeout: 20_000, hookTimeout: 30_000, pool: 'forks' } as const;
/** Each unit run gets a temporary directory of its own, and fails on a stack trace it prints. */
const checks = { globalSetup: ['test/setup/temp-dir.ts', 'test/setup/quiet-output.ts'] };
const unitFiles = {
  include: ['test/**/*.test.ts'],
  exclude: [...configDefaults.exclude, ...SYSTEM, ...RELEASE, ...LATENCY],
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          ...checks,
          name: 'unit',
          ...unitFiles,
          isolate: false,
          maxWorkers: 1,
          execArgv: ['--max-old-space-size=512'],
        },
      },
      { test: { ...shared, ...checks, name: 'latency', include: LATENCY, maxWorkers: 1 } },
      { test: { ...shared, name: 'system', include: SYSTEM } },
      { test: { ...shared, name: 'release', include: RELEASE, testTimeout: 300_000, hookTimeout: 900_000 } },
    ],
  },
});
