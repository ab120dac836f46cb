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
  // The contract package is private and never published: its types are inlined into the .d.ts
  // files. openapi-fetch stays a dependency. Bundling anything else is an error.
  deps: {
    alwaysBundle: ['@content-workspace/contract'],
    onlyBundle: [],
  },
  // eager: the declaration emitter must see the contract's sources, which live outside src/.
  dts: { eager: true },
  // The declarations dominate the build's time; that is expected, not worth a warning.
  checks: { pluginTimings: false },
  // Keeps the JSDoc of every property where editors look for it (see the plugin's comment). Added
  // through inputOptions because tsdown leaves `plugins` out of the build of the .d.cts file.
  inputOptions: (options) => ({ ...options, plugins: [options.plugins, ownLineJsdocPlugin()] }),
});
