import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // No Node built-ins: the SDK runs wherever fetch does.
  platform: 'neutral',
  target: 'es2022',
  fixedExtension: true,
  tsconfig: 'tsconfig.build.json',
  // The contract package is private and never published: its types are inlined into the .d.ts
  // files. openapi-fetch stays a dependency. Bundling anything else is an error.
  deps: {
    alwaysBundle: ['@content-workspace/contract'],
    onlyBundle: [],
  },
  // eager: the declaration emitter must see the contract's sources, which live outside src/.
  dts: { eager: true },
});
