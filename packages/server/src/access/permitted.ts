// Whether an operation's declared access (`x-access`) admits a caller, decided from what is already
// known — the scope's resource and the caller's standing on it, what its rules loaded — without the
// database and without a request. The gate (access/resolve.ts) and the permissions objects
// (access/permissions.ts) both decide through `meetsMinimum` and the rules' `admits` and `allows`, so a
// boolean a client reads can never disagree with the answer of the operation it stands for.
import { operationAccess, type AccessRuleName, type OperationAccess } from '@content-workspace/contract';
import type { Caller } from '../auth/authenticate.js';
import { roleAtLeast, type Role } from './roles.js';
import type { AccessRuleRegistry, RuleContext } from './rules.js';
import { standingOf, type Minimum, type Scope, type ScopeAccess } from './scopes.js';

export function meetsMinimum(standing: Role | null | undefined, minimum: Minimum): boolean {
  if (minimum === null || minimum === 'authenticated' || minimum === 'guest') return true;
  if (minimum === 'member') return standing != null;
  return roleAtLeast(standing, minimum);
}

export type OperationName = keyof OperationAccess;

/** What a permissions object knows of the caller and the resource. */
export type PermissionSubject = {
  /** The caller, for rules that compare them with the resource (an author); none needed otherwise. */
  userId?: string;
  /** The scope's resource and the caller's standing, as the gate resolves them (the fields the rules read). */
  access: Partial<ScopeAccess[Scope]>;
  /** What the operation's rules would load (the comment a comment rule reads). */
  loaded?: unknown;
  /** The request the boolean stands for, when a rule reads it (changing a comment's body). */
  body?: unknown;
};

/**
 * True when the operation admits the subject: a standing in its scope, the declared minimum (or a rule's `admits`) and every
 * rule's `allows`. A rule that decides from the request's target (creating inside a parent) is judged
 * where the declared minimum decides (the top level), as it has no `allows`.
 */
export function permitted(rules: AccessRuleRegistry, operationId: OperationName, subject: PermissionSubject): boolean {
  return compilePermitted(rules, operationId)(subject, subject.body);
}

/**
 * `permitted` for one operation, with its declaration read and its rules looked up once: a list's
 * permissions objects decide the same few operations for every row (access/permissions.ts).
 */
export function compilePermitted(rules: AccessRuleRegistry, operationId: OperationName): (subject: PermissionSubject, body: unknown) => boolean {
  const declaration = (operationAccess as Record<string, { scope: Scope; minimum: Minimum; rules: readonly AccessRuleName[] }>)[operationId]!;
  const { scope, minimum } = declaration;
  if (scope === 'public' || scope === 'user') return () => true;
  const named = declaration.rules.map((name) => rules[name]);
  const admitting = named.filter((rule) => rule.admits);
  const allowing = named.filter((rule) => rule.allows);
  return (subject, body) => {
    const access = subject.access as ScopeAccess[Scope];
    const standing = standingOf(scope, access);
    // No standing at all: the scope's resource does not exist for the caller (the gate's 404).
    if (scope === 'organization' ? standing === undefined : standing == null) return false;
    const meets = meetsMinimum(standing, minimum);
    if (admitting.length === 0 && allowing.length === 0) return meets;
    const context = { caller: { user: { id: subject.userId ?? '' } } as Caller, scope, params: {}, body, access } as RuleContext;
    if (!meets && !admitting.some((rule) => rule.admits!(context, subject.loaded) === true)) return false;
    return allowing.every((rule) => rule.allows!(context, subject.loaded));
  };
}
