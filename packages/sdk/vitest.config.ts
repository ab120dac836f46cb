import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The examples import the package by its name, as users do; run them against the source.
    alias: { '@content-workspace/sdk': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'sdk',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The packed package's tests run in `check:package`, after packing (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**'],
    // The type-level tests (test/**/*.test-d.ts) are checked by `tsc`: `pnpm typecheck` (tsc -b, the
    // package's tsconfig.json includes them), which `pnpm test` runs before vitest. vitest's typecheck
    // mode ran the same tsc on the same files once more, alone after every other test file (~10 s).
  },
});
