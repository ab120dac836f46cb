// Grants on spaces and collections: the same six operations for both kinds of item. Reading and
// changing grants needs `admin` on the item (declared in the spec, enforced before the handlers).
import type { OrganizationRole } from '../../access/permissions.js';
import type { CollectionAccess, SpaceAccess } from '../../access/scopes.js';
import type { Caller } from '../../auth/authenticate.js';
import { grantsOfItemQuery, type GrantTarget, type Principal } from './grants.repository.js';
import { keysetPage } from '../../db/pagination.js';
import type { Role } from '../../db/schema.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiGrant } from './grant.mapper.js';
import type { AppContext } from '../../context.js';
import { addGrant, changeGrant, revokeGrant } from './grants.service.js';

type Item = { target: GrantTarget; organizationRole: OrganizationRole };

const spaceItem = ({ space, organizationRole }: SpaceAccess): Item => ({ target: { kind: 'space', organizationId: space.organizationId, id: space.id }, organizationRole });
const collectionItem = ({ collection, organizationRole }: CollectionAccess): Item => ({
  target: { kind: 'collection', organizationId: collection.organizationId, id: collection.id },
  organizationRole,
});

async function listGrants(app: AppContext, caller: Caller, { target, organizationRole }: Item, query: { page?: string; limit?: number }) {
  const page = await keysetPage(app.db, grantsOfItemQuery(app.db, target, caller.user.id), {
    keys: [
      { column: 'g.grantedAt', direction: 'desc', value: (row) => row.grantedAt },
      { column: 'g.principalKind', direction: 'desc', value: (row) => row.principalKind },
      { column: 'g.principalId', direction: 'desc', value: (row) => row.principalId },
    ],
    request: query,
    list: { operation: 'listGrants', within: `${target.kind}:${target.id}` },
    cursors: app.cursors,
  });
  return { status: 200 as const, body: { ...page, items: page.items.map((row) => toApiGrant(row, organizationRole, app.urls)) } };
}

async function grant(app: AppContext, caller: Caller, { target, organizationRole }: Item, body: { user?: string; team?: string; role: Role }) {
  // The schema admits exactly one of `user` and `team`.
  const principal: Principal = body.user !== undefined ? { kind: 'user', id: body.user } : { kind: 'team', id: body.team! };
  const row = await addGrant(app.db, target, principal, body.role, caller.user.id);
  return { status: 201 as const, body: toApiGrant(row, organizationRole, app.urls) };
}

async function change(app: AppContext, caller: Caller, { target, organizationRole }: Item, principal: Principal, role: Role) {
  const row = await changeGrant(app.db, target, principal, role, caller.user.id);
  return { status: 200 as const, body: toApiGrant(row, organizationRole, app.urls) };
}

async function revoke(app: AppContext, { target }: Item, principal: Principal) {
  await revokeGrant(app.db, target, principal);
  return { status: 205 as const };
}

export const grantHandlers = {
  listSpacePermissions: ({ app, caller, access, query }) => listGrants(app, caller, spaceItem(access), query),
  grantSpacePermission: ({ app, caller, access, body }) => grant(app, caller, spaceItem(access), body),
  updateSpaceUserPermission: ({ app, caller, access, params, body }) => change(app, caller, spaceItem(access), { kind: 'user', id: params.userId }, body.role),
  revokeSpaceUserPermission: ({ app, access, params }) => revoke(app, spaceItem(access), { kind: 'user', id: params.userId }),
  updateSpaceTeamPermission: ({ app, caller, access, params, body }) => change(app, caller, spaceItem(access), { kind: 'team', id: params.teamId }, body.role),
  revokeSpaceTeamPermission: ({ app, access, params }) => revoke(app, spaceItem(access), { kind: 'team', id: params.teamId }),

  listCollectionPermissions: ({ app, caller, access, query }) => listGrants(app, caller, collectionItem(access), query),
  grantCollectionPermission: ({ app, caller, access, body }) => grant(app, caller, collectionItem(access), body),
  updateCollectionUserPermission: ({ app, caller, access, params, body }) =>
    change(app, caller, collectionItem(access), { kind: 'user', id: params.userId }, body.role),
  revokeCollectionUserPermission: ({ app, access, params }) => revoke(app, collectionItem(access), { kind: 'user', id: params.userId }),
  updateCollectionTeamPermission: ({ app, caller, access, params, body }) =>
    change(app, caller, collectionItem(access), { kind: 'team', id: params.teamId }, body.role),
  revokeCollectionTeamPermission: ({ app, access, params }) => revoke(app, collectionItem(access), { kind: 'team', id: params.teamId }),
} satisfies AreaHandlers;
