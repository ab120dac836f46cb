// The tests of the packed package (test/package/), run by `check:package` after
// scripts/pack-clean.mjs has packed and unpacked it into .pack/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sdk-package',
    include: ['test/package/**/*.test.ts'],
    // Type-checking the consumer projects against the packed declarations takes a few seconds, and
    // over two minutes on two cores shared with other work.
    testTimeout: 300_000,
  },
});
