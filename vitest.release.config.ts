import { defineConfig } from 'vitest/config';

/**
 * `npm run test:release`: the package published to a private registry and installed from it
 * (test/release/). It needs the npm registry, so it is a step of its own, never part of `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/release/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 900_000,
    pool: 'forks',
  },
});
