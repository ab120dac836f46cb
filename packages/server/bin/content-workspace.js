#!/usr/bin/env node
// The development CLI (`pnpm cli`): the TypeScript sources through tsx, no build step. The build's
// CLI is `node dist/cli.js`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/dev.ts');
