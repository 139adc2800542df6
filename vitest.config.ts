import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The release's test needs the npm registry: `npm run test:release` (vitest.release.config.ts).
    exclude: [...configDefaults.exclude, 'test/release/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
