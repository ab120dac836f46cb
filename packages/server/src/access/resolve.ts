// Enforces an operation's declared access (`x-access`, generated into the contract's operationAccess)
// before its handler runs, in two steps:
// 1. `resolve`, before the body is read: the scope the path names and the caller's standing on it (404
//    without one), the minimum (403 below it unless a rule admits the caller), and the rules that need
//    no body — so an outsider's or a reader's large upload is refused without being read;
// 2. `complete`, after the request was validated: the rules that read the body.
// The handler then receives the resolved resource and role (and what the rules resolved) as `access`.
import { operationAccess, type AccessRuleName } from '@content-workspace/contract';
import type { Caller } from '../auth/authenticate.js';
import { meetsMinimum } from './permitted.js';
import type { AppContext } from '../context.js';
import { forbidden } from '../errors.js';
import type { AccessRuleRegistry, AnyAccessRule, RuleContext } from './rules.js';
import { findScope, standingOf, type Minimum, type Scope, type ScopeAccess, type ScopeLookups } from './scopes.js';

type Declaration = { scope: Scope; minimum: Minimum; rules: readonly AccessRuleName[] };

/** The access being resolved for one request, between its two steps. */
export type PendingAccess = { context: RuleContext; loaded: unknown[]; data: Record<string, unknown> };

function belowMinimum(scope: Scope, minimum: Minimum, rules: AnyAccessRule[]): Error {
  if (minimum === 'member') return forbidden('Guests may not do this');
  const what = scope === 'organization' ? `the organization role "${minimum}"` : `the "${minimum}" role on the ${scope === 'change-request' ? 'space' : scope}`;
  const alternatives = rules.flatMap((rule) => (rule.alternative ? [rule.alternative] : []));
  return forbidden(`This needs ${[what, ...alternatives].join(', ')}`);
}

export type AccessResolver = {
  resolve(operationId: string, caller: Caller | undefined, params: Record<string, string>): Promise<PendingAccess>;
  complete(operationId: string, pending: PendingAccess, body: unknown): Promise<Record<string, unknown>>;
};

export function createAccessResolver(app: AppContext, registry: AccessRuleRegistry, lookups: ScopeLookups): AccessResolver {
  // Each operation's declaration with its rules, looked up once (this runs twice on every request).
  const declarations = new Map<string, { declaration: Declaration; rules: AnyAccessRule[] }>();
  const declarationOf = (operationId: string): { declaration: Declaration; rules: AnyAccessRule[] } => {
    let known = declarations.get(operationId);
    if (!known) {
      const declaration = (operationAccess as Record<string, Declaration>)[operationId];
      if (!declaration) throw new Error(`No declared access for ${operationId}`);
      declarations.set(operationId, (known = { declaration, rules: declaration.rules.map((name) => registry[name]) }));
    }
    return known;
  };
  // Fail at start-up, not on the first request, when a declared rule has no implementation.
  for (const [operationId, declaration] of Object.entries(operationAccess as Record<string, Declaration>)) {
    for (const name of declaration.rules) if (!registry[name]) throw new Error(`${operationId}: access rule "${name}" has no implementation`);
  }

  return {
    async resolve(operationId, caller, params) {
      const { declaration, rules } = declarationOf(operationId);
      const { scope, minimum } = declaration;
      if (scope === 'public' || !caller) {
        return { context: { app, caller: caller!, scope, params, body: undefined, access: {} }, loaded: [], data: {} };
      }
      const restorable = declaration.rules.includes('restorable');
      const access = await findScope(app, caller, scope, params, { restorable, lookups });
      const context: RuleContext = { app, caller, scope, params, body: undefined, access };
      const loaded: unknown[] = [];
      for (const rule of rules) loaded.push(rule.load ? await rule.load(context) : undefined);
      const replaced = rules.some((rule) => rule.replacesMinimum);
      if (!replaced && !meetsMinimum(standingOf(scope, access), minimum)) {
        const admitted = rules.some((rule, i) => rule.admits?.(context, loaded[i]) === true);
        if (!admitted) throw belowMinimum(scope, minimum, rules);
      }
      const pending: PendingAccess = { context, loaded, data: {} };
      await runChecks(rules, pending, false);
      return pending;
    },

    async complete(operationId, pending, body) {
      const { rules } = declarationOf(operationId);
      pending.context.body = body;
      await runChecks(rules, pending, true);
      return { ...(pending.context.access as ScopeAccess[Scope]), ...pending.data };
    },
  };
}

async function runChecks(rules: AnyAccessRule[], pending: PendingAccess, withBody: boolean): Promise<void> {
  for (const [i, rule] of rules.entries()) {
    if ((rule.needsBody === true) !== withBody) continue;
    // The same condition the permissions objects read (access/permitted.ts).
    if (rule.allows && !rule.allows(pending.context, pending.loaded[i])) throw forbidden(rule.refusal ?? 'You may not do this');
    if (!rule.check) continue;
    const data = await rule.check(pending.context, pending.loaded[i]);
    if (data && typeof data === 'object') Object.assign(pending.data, data);
  }
}
