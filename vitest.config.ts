import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tools/vitest-sequencer.js';

export default defineConfig({
  test: {
    // The server's tests are two projects: `server` and `server:isolated` (packages/server/vitest.server-projects.ts).
    projects: ['packages/server', 'packages/server/vitest.isolated.config.ts', 'packages/sdk', 'tools'],
    // The server's tests mostly wait on PostgreSQL: more workers than cores keeps both cores busy
    // (~40% faster on 2 cores).
    maxWorkers: 4,
    // The longest files first, across projects, so the workers finish together (tools/vitest-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
  },
});
