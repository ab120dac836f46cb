// The access rules of creating, moving and transferring spaces and collections (described in the spec's
// `x-access-rules`): where the item goes decides, with the placement rules of placement.service.ts.
import type { AnyAccessRule, RuleContext } from '../../access/rules.js';
import type { CollectionAccess, OrganizationAccess, SpaceAccess } from '../../access/scopes.js';
import { requireTargetParent, resolveMoveTarget } from './placement.service.js';
import { resolveTransferTarget, type TransferTarget } from './transfer.service.js';

declare module '../../access/rules.js' {
  interface RuleData {
    'move-target': { target: { parentId: string | null } };
    'transfer-target': { target: TransferTarget };
  }
}

const spaceOrCollection = (ctx: RuleContext) => {
  const access = ctx.access as SpaceAccess | CollectionAccess;
  return { item: 'space' in access ? access.space : access.collection, organizationRole: access.organizationRole };
};

export const placementRules = {
  'create-in-parent': {
    replacesMinimum: true,
    needsBody: true,
    check: async (ctx) => {
      if (ctx.scope === 'organization') {
        const access = ctx.access as OrganizationAccess;
        await requireTargetParent(ctx.app, ctx.caller, access.organization.id, ctx.body?.parent ?? null, access.role);
      } else {
        // A duplicate goes beside the space.
        const { space, organizationRole } = ctx.access as SpaceAccess;
        await requireTargetParent(ctx.app, ctx.caller, space.organizationId, space.parentCollectionId, organizationRole);
      }
    },
  },

  'move-target': {
    needsBody: true,
    check: async (ctx) => {
      const { item, organizationRole } = spaceOrCollection(ctx);
      return { target: { parentId: await resolveMoveTarget(ctx.app, ctx.caller, item, organizationRole, ctx.body.parent) } };
    },
  },

  'transfer-target': {
    needsBody: true,
    check: async (ctx) => ({ target: await resolveTransferTarget(ctx.app, ctx.caller, ctx.body) }),
  },
} satisfies Record<string, AnyAccessRule>;
