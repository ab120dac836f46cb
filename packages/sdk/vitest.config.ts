import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The examples import the package by its name, as users do; run them against the source.
    alias: { '@content-workspace/sdk': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'sdk',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
