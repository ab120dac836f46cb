import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each test file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
