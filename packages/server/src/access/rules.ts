// The named compound rules an operation's `x-access` may add to its scope and minimum (described for
// readers in the spec's `x-access-rules`). Each rule may:
// - `load` what it decides on (before the minimum check; its result is handed to the handler too),
// - `admit` a caller whose standing is below the minimum (the member acting on themself, an author),
// - `replacesMinimum`: decide alone in its `check` (creating inside a parent),
// - `check` further conditions after the request was validated (`needsBody`: it reads the body), and
//   hand the handler what it resolved (a move's target, a transfer's target organization).
// Areas add their own rules to `accessRuleRegistry` through their descriptor.
import type { AccessRuleName } from '@content-workspace/contract';
import type { Caller } from '../auth/authenticate.js';
import { requireEnabledMember, type OrganizationAccess } from './organization.js';
import { requireUnscopedToken } from '../auth/token-scope.js';
import type { AppContext } from '../context.js';
import { findTeam, type TeamRow } from '../areas/teams/teams.repository.js';
import { forbidden, notFound } from '../errors.js';
import { requireTargetParent, resolveMoveTarget } from '../areas/spaces/placement.service.js';
import { resolveTransferTarget, type TransferTarget } from '../areas/spaces/transfer.service.js';
import type { ChangeRequestAccess, CollectionAccess, Scope, ScopeAccess, SpaceAccess } from './scopes.js';

export type RuleContext = {
  app: AppContext;
  caller: Caller;
  scope: Scope;
  params: Record<string, string>;
  /** The validated body (undefined before validation, for rules without `needsBody`). */
  body: any;
  access: ScopeAccess[Scope];
};

export type AccessRule<Loaded = unknown, Checked = unknown> = {
  load?: (ctx: RuleContext) => Promise<Loaded>;
  admits?: (ctx: RuleContext, loaded: Loaded) => boolean;
  /** How the 403 names who else `admits` lets in, e.g. "or to be the change request’s author". */
  alternative?: string;
  replacesMinimum?: true;
  needsBody?: true;
  check?: (ctx: RuleContext, loaded: Loaded) => Promise<Checked> | Checked;
};

/** What a rule hands the handler, merged into its `access`. Areas extend it for their rules. */
export interface RuleData {
  'move-target': { target: { parentId: string | null } };
  'transfer-target': { target: TransferTarget };
  'team-owner': { team: TeamRow };
}

const spaceOrCollection = (ctx: RuleContext): { item: { organizationId: string; parentCollectionId: string | null }; organizationRole: OrganizationAccess['role'] | undefined } => {
  const access = ctx.access as SpaceAccess | CollectionAccess;
  return { item: 'space' in access ? access.space : access.collection, organizationRole: access.organizationRole };
};

export const coreRules = {
  personal: {
    check: (ctx) => requireUnscopedToken(ctx.caller),
  },

  'sso-enforced': {
    check: (ctx) => {
      if (ctx.scope === 'organization') requireEnabledMember(ctx.access as OrganizationAccess);
    },
  },

  'create-in-parent': {
    replacesMinimum: true,
    needsBody: true,
    check: async (ctx) => {
      if (ctx.scope === 'organization') {
        const access = ctx.access as OrganizationAccess;
        await requireTargetParent(ctx.app.db, ctx.caller, access.organization.id, ctx.body?.parent ?? null, access.role);
      } else {
        // A duplicate goes beside the space.
        const { space, organizationRole } = ctx.access as SpaceAccess;
        await requireTargetParent(ctx.app.db, ctx.caller, space.organizationId, space.parentCollectionId, organizationRole);
      }
    },
  },

  'move-target': {
    needsBody: true,
    check: async (ctx) => {
      const { item, organizationRole } = spaceOrCollection(ctx);
      return { target: { parentId: await resolveMoveTarget(ctx.app.db, ctx.caller, item, organizationRole, ctx.body.parent) } };
    },
  },

  'transfer-target': {
    needsBody: true,
    check: async (ctx) => ({ target: await resolveTransferTarget(ctx.app.db, ctx.caller, ctx.body) }),
  },

  // Handled when the scope is found (a deleted space is then admitted): see access/resolve.ts.
  restorable: {},

  unlocked: {
    check: (ctx) => {
      if ((ctx.access as SpaceAccess).space.editMode === 'locked') throw forbidden('The space is locked: its content cannot be changed');
    },
  },

  'author-or-review': {
    admits: (ctx) => (ctx.access as ChangeRequestAccess).changeRequest.createdBy === ctx.caller.user.id,
    alternative: 'or to be the change request’s author',
  },

  self: {
    admits: (ctx) => ctx.params.userId === ctx.caller.user.id,
    alternative: 'or to be that member',
  },

  'team-owner': {
    load: async (ctx) => {
      const access = ctx.access as OrganizationAccess;
      const team = await findTeam(ctx.app.db, access.organization.id, ctx.params.teamId!, ctx.caller.user.id);
      if (!team) throw notFound('Team');
      return team;
    },
    admits: (_ctx, team: TeamRow) => team.callerTeamRole === 'owner',
    alternative: 'or to own the team',
    check: (_ctx, team: TeamRow) => ({ team }),
  },
} satisfies Record<string, AccessRule<any, any>>;

/** Every rule the spec may name: the core rules and those the areas bring. */
export type AccessRuleRegistry = Record<AccessRuleName, AccessRule<any, any>>;
