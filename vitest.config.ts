import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/server', 'packages/sdk', 'tools'],
    // The server's tests mostly wait on PostgreSQL: more workers than cores keeps both cores busy
    // (~40% faster on 2 cores).
    maxWorkers: 4,
  },
});
