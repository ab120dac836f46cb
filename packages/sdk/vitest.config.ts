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
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
