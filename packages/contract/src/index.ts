// The contract package: types generated from spec/ (see ./types.ts) and the bundled document.
export type { paths, components, operations, webhooks } from './types.js';
