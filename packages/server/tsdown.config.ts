// `pnpm build`: the server and its CLI as plain JavaScript for `node` (no tsx at run time).
import { defineConfig } from 'tsdown';

export default defineConfig({
  // The parse pool's worker is an entry of its own, beside main.js in dist/: src/parsing/parse-pool.ts
  // loads it by address from the bundle (its task modules are chunks loaded on first use);
  // test/deploy/built-server.test.ts checks every file the bundle loads by address is there.
  entry: { main: 'src/main.ts', cli: 'src/cli/main.ts', 'parse.worker': 'src/parsing/parse.worker.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outDir: 'dist',
  clean: true,
  fixedExtension: false,
  dts: false,
  // Stack traces point into src/ when node runs with --enable-source-maps (docs/deploy.md).
  sourcemap: true,
  // The contract package is TypeScript source (generated, never built on its own): its runtime part
  // (each operation's declared access) is bundled in; its openapi.json is read from the package at run
  // time. Every npm dependency stays an import resolved from node_modules; bundling one is an error.
  deps: { alwaysBundle: ['@content-workspace/contract'], onlyBundle: [] },
  checks: { pluginTimings: false },
});
