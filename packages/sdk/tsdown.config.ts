import { defineConfig } from 'tsdown';
import { ownLineJsdocPlugin } from './scripts/own-line-jsdoc.js';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // No Node built-ins: the SDK runs wherever fetch does.
  platform: 'neutral',
  target: 'es2022',
  fixedExtension: true,
  tsconfig: 'tsconfig.build.json',
  // The contract package is private and never published. Its types (packages/contract/src/types.ts,
  // nine tenths of the SDK's declarations) ship once, as a CommonJS declarations file (.d.cts) in
  // dist/ that the ESM and the CommonJS index declarations both import by type: an ES module may import
  // a CommonJS file's types, where a CommonJS file may not import an ES module's types without a
  // resolution-mode attribute. Bundled into each, they were two copies of 0.9 MB. The SDK's code
  // imports no value from the contract, so the JavaScript imports nothing from it. openapi-fetch stays
  // a dependency; bundling anything else is an error.
  deps: {
    neverBundle: ['@content-workspace/contract'],
    onlyBundle: [],
  },
  outputOptions: (options) => ({ ...options, paths: { '@content-workspace/contract': './contract.cjs' } }),
  copy: [{ from: '../contract/src/types.ts', to: 'dist', rename: 'contract.d.cts' }],
  // eager: the declaration emitter must see the contract's sources, which live outside src/.
  dts: { eager: true },
  // The declarations dominate the build's time; that is expected, not worth a warning.
  checks: { pluginTimings: false },
  // Keeps the JSDoc of every property where editors look for it (see the plugin's comment). Added
  // through inputOptions because tsdown leaves `plugins` out of the build of the .d.cts file.
  inputOptions: (options) => ({ ...options, plugins: [options.plugins, ownLineJsdocPlugin()] }),
});
