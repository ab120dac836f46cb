import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each test file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    fileParallelism: true,
    testTimeout: 60_000, // two shared cores in CI: the slowest integration tests take seconds when every file runs at once
    hookTimeout: 60_000,
  },
});
