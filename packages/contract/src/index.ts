// The contract package: types generated from spec/ (see ./types.ts), each operation's declared access
// (./access.ts) and the bundled document.
export type { paths, components, operations, webhooks } from './types.js';
export { accessRules, operationAccess, type AccessRuleName, type OperationAccess } from './access.js';
