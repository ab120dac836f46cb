// The named compound rules an operation's `x-access` may add to its scope and minimum (described for
// readers in the spec's `x-access-rules`). Each rule may:
// - `load` what it decides on (before the minimum check; its result is handed to the handler too),
// - `admit` a caller whose standing is below the minimum (the member acting on themself, an author),
// - `replacesMinimum`: decide alone in its `check` (creating inside a parent),
// - `check` further conditions after the request was validated (`needsBody`: it reads the body), and
//   hand the handler what it resolved (a move's target, a transfer's target organization).
// The rules of access itself are here; areas bring theirs through their descriptor (`rules`).
import type { AccessRuleName } from '@content-workspace/contract';
import type { Caller } from '../auth/authenticate.js';
import { isEnabledMember, SSO_REQUIRED, type OrganizationAccess } from './organization.js';
import { requireUnscopedToken } from '../auth/token-scope.js';
import type { AppContext } from '../context.js';
import type { ChangeRequestAccess, Scope, ScopeAccess, SpaceAccess } from './scopes.js';

export type RuleContext = {
  app: AppContext;
  caller: Caller;
  scope: Scope;
  params: Record<string, string>;
  /** The validated body (undefined before validation, for rules without `needsBody`); each rule knows its operations' shapes. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a rule serves several operations whose bodies differ
  body: any;
  access: ScopeAccess[Scope];
};

export type AccessRule<Loaded = unknown, Checked = unknown> = {
  load?: (ctx: RuleContext) => Promise<Loaded>;
  admits?: (ctx: RuleContext, loaded: Loaded) => boolean;
  /**
   * A condition decided from what the gate resolved (the resource, the caller, what `load` returned;
   * with `needsBody`, the body): the gate answers 403 with `refusal` when it is false, and the
   * permissions objects read it (access/permitted.ts). Synchronous and without the database.
   */
  allows?: (ctx: RuleContext, loaded: Loaded) => boolean;
  refusal?: string;
  /** How the 403 names who else `admits` lets in, e.g. "or to be the change request’s author". */
  alternative?: string;
  replacesMinimum?: true;
  needsBody?: true;
  check?: (ctx: RuleContext, loaded: Loaded) => Promise<Checked> | Checked;
};

/**
 * What a rule hands the handler, merged into its `access`. Areas add their rules' data by declaration
 * merging: `declare module '../../access/rules.js' { interface RuleData { 'my-rule': { … } } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas through declaration merging
export interface RuleData {}

/**
 * A rule of any shape, as registries hold them: what `load` returns is what `admits` and `check`
 * receive, which a registry cannot express per entry.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the registry erases each rule's own types
export type AnyAccessRule = AccessRule<any, any>;

/** Every rule the spec may name: the core rules and those the areas bring. */
export type AccessRuleRegistry = Record<AccessRuleName, AnyAccessRule>;

/** The rules that concern access itself; the areas bring the rest (areas/<area>/index.ts `rules`). */
export const coreRules = {
  personal: {
    check: (ctx) => requireUnscopedToken(ctx.caller),
  },

  'sso-enforced': {
    allows: (ctx) => ctx.scope !== 'organization' || isEnabledMember(ctx.access as OrganizationAccess),
    refusal: SSO_REQUIRED,
  },

  // Handled when the scope is found (a deleted space is then admitted): see access/resolve.ts.
  restorable: {},

  unlocked: {
    allows: (ctx) => (ctx.access as SpaceAccess).space.editMode !== 'locked',
    refusal: 'The space is locked: its content cannot be changed',
  },

  'author-or-review': {
    // A space's permissions name no change request: only the role counts there.
    admits: (ctx) => (ctx.access as Partial<ChangeRequestAccess>).changeRequest?.createdBy === ctx.caller.user.id,
    alternative: 'or to be the change request’s author',
  },

  self: {
    admits: (ctx) => ctx.params.userId === ctx.caller.user.id,
    alternative: 'or to be that member',
  },
} satisfies Record<string, AnyAccessRule>;
