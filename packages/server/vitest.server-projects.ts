// The server's tests as two vitest projects (docs/decisions.md, "Test suite speed, round 2").
//
// `server`: a worker imports the server's modules once and runs file after file with them
// (`isolate: false`): importing Express, the validator, pg-boss and every area again for each file cost
// a few seconds of CPU per file, ~11 minutes over a CI run. That is sound because what a file changes
// lives on its own: each file starts its own server (its state is the server's AppContext) over its own
// database cloned from the template; spies and stubbed variables are undone after each test
// (`restoreMocks`, `unstubEnvs`); and what stays in a module is read-only data the same for every
// database (the bundled spec, compiled queries, the registry of areas).
//
// `server:isolated`: the files that change what the process itself holds, each in a fresh process.
import { configDefaults, type ViteUserConfig } from 'vitest/config';

/** Files that must not share a process with another file, and why. */
export const ISOLATED_FILES: Record<string, string> = {
  // vi.mock replaces a module for the modules that import it after: a module graph a previous file
  // imported keeps the real one.
  'test/integration/rate-limit.test.ts': 'mocks src/auth/tokens.repository.ts with vi.mock',
  // The process reads the database catalogue once (src/db/catalogue.ts): a table this file creates
  // would be missing from a catalogue read before, or present in one read by the files after it.
  'test/structure/lifecycle-exercise.test.ts': 'adds a table that the per-process catalogue caches',
};

export function serverProject(kind: 'shared' | 'isolated'): NonNullable<ViteUserConfig['test']> {
  const isolated = Object.keys(ISOLATED_FILES);
  return {
    name: kind === 'shared' ? 'server' : 'server:isolated',
    include: kind === 'shared' ? ['src/**/*.test.ts', 'test/**/*.test.ts'] : isolated,
    exclude: kind === 'shared' ? [...configDefaults.exclude, ...isolated] : configDefaults.exclude,
    globalSetup: ['test/global-setup.ts'],
    // Each test file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    isolate: kind === 'isolated',
    fileParallelism: true,
    restoreMocks: true,
    unstubEnvs: true,
    testTimeout: 60_000, // two shared cores in CI: the slowest integration tests take seconds when every file runs at once
    hookTimeout: 60_000,
  };
}
