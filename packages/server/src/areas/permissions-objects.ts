// The permissions objects the areas' mappers return, decided by the registry's access rules (the same
// the gate enforces: access/permissions.ts). The registry (areas/index.ts) hands its rules over once it
// is built; a mapper importing the registry itself would close an import cycle through every area.
import { createPermissions, type Permissions } from '../access/permissions.js';
import type { AccessRuleRegistry } from '../access/rules.js';

let current: Permissions | undefined;

/** Called once by the registry with every access rule. */
export function decidePermissionsWith(rules: AccessRuleRegistry): void {
  current = createPermissions(rules);
}

export function permissions(): Permissions {
  if (!current) throw new Error('The area registry (areas/index.ts) is not loaded: permissions have no rules');
  return current;
}
