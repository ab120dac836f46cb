import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'tools',
    include: ['**/*.test.ts'],
    // The git-backed spec:diff tests start tsx processes and copy spec/: give them time on 2 cores.
    testTimeout: 60_000,
  },
});
