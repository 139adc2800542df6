import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects:
 * - `unit` (npm test): the modules through HTTP in process, the contract, the store, the surfaces;
 *   it needs nothing but Node.
 * - `system` (npm run test:system, run by .ci/run after npm test): what starts processes, browsers
 *   and routers, or lives through months of the clock: the built package, the command line, the
 *   pytest plugin's wheel, nginx in front of two sandboxes, the browser pages, crashes, memory after
 *   many worlds, the nightly sync.
 * - `release` (npm run test:release): the package published to a private registry on loopback and
 *   installed from it; it needs the npm registry, so it is a step of its own.
 */
const SYSTEM = [
  'test/system/**/*.test.ts',
  'test/python/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/entry/package.test.ts',
  'test/**/*.browser.test.ts',
  'test/store/crash.test.ts',
  'test/control/worlds-memory.test.ts',
  'test/living/**/*.test.ts',
];
const RELEASE = ['test/release/**/*.test.ts'];

const shared = { testTimeout: 20_000, hookTimeout: 30_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SYSTEM, ...RELEASE],
        },
      },
      { test: { ...shared, name: 'system', include: SYSTEM } },
      { test: { ...shared, name: 'release', include: RELEASE, testTimeout: 300_000, hookTimeout: 900_000 } },
    ],
  },
});
