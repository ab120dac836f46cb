// Grants on spaces and collections: the same six operations for both kinds of item. Reading and
// changing grants needs `admin` on the item (DESIGN.md §6).
import { requireCollection, requireSpace } from '../auth/access.js';
import type { Caller } from '../auth/authenticate.js';
import type { OrganizationRole } from '../auth/permissions.js';
import type { Executor } from '../db/database.js';
import { grantsOfItemQuery, type GrantTarget, type Principal } from '../db/repositories/grants.repository.js';
import { keysetPage } from '../db/pagination.js';
import type { Role } from '../db/schema.js';
import type { AreaHandlers } from '../http/handler.js';
import { toApiGrant } from '../mappers/grant.mapper.js';
import type { AppContext } from '../context.js';
import { addGrant, changeGrant, revokeGrant } from '../services/grants.service.js';

type ItemKind = GrantTarget['kind'];
type Admin = { target: GrantTarget; organizationRole: OrganizationRole };

/** The item, when the caller is `admin` on it (404 without a role, 403 below admin). */
async function requireItemAdmin(db: Executor, caller: Caller, kind: ItemKind, id: string): Promise<Admin> {
  if (kind === 'space') {
    const { space, organizationRole } = await requireSpace(db, caller, id, 'admin');
    return { target: { kind, organizationId: space.organizationId, id: space.id }, organizationRole };
  }
  const { collection, organizationRole } = await requireCollection(db, caller, id, 'admin');
  return { target: { kind, organizationId: collection.organizationId, id: collection.id }, organizationRole };
}

async function listGrants(app: AppContext, caller: Caller, kind: ItemKind, id: string, query: { page?: string; limit?: number }) {
  const { target, organizationRole } = await requireItemAdmin(app.db, caller, kind, id);
  const page = await keysetPage(app.db, grantsOfItemQuery(app.db, target, caller.user.id), {
    keys: [
      { column: 'g.grantedAt', direction: 'desc', value: (row) => row.grantedAt },
      { column: 'g.principalKind', direction: 'desc', value: (row) => row.principalKind },
      { column: 'g.principalId', direction: 'desc', value: (row) => row.principalId },
    ],
    request: query,
    queryKey: `listGrants:${kind}:${target.id}`,
    cursors: app.cursors,
  });
  return { status: 200 as const, body: { ...page, items: page.items.map((row) => toApiGrant(row, organizationRole, app.urls)) } };
}

async function grant(app: AppContext, caller: Caller, kind: ItemKind, id: string, body: { user?: string; team?: string; role: Role }) {
  const { target, organizationRole } = await requireItemAdmin(app.db, caller, kind, id);
  // The schema admits exactly one of `user` and `team`.
  const principal: Principal = body.user !== undefined ? { kind: 'user', id: body.user } : { kind: 'team', id: body.team! };
  const row = await addGrant(app.db, target, principal, body.role, caller.user.id);
  return { status: 201 as const, body: toApiGrant(row, organizationRole, app.urls) };
}

async function change(app: AppContext, caller: Caller, kind: ItemKind, id: string, principal: Principal, role: Role) {
  const { target, organizationRole } = await requireItemAdmin(app.db, caller, kind, id);
  const row = await changeGrant(app.db, target, principal, role, caller.user.id);
  return { status: 200 as const, body: toApiGrant(row, organizationRole, app.urls) };
}

async function revoke(app: AppContext, caller: Caller, kind: ItemKind, id: string, principal: Principal) {
  const { target } = await requireItemAdmin(app.db, caller, kind, id);
  await revokeGrant(app.db, target, principal);
  return { status: 205 as const };
}

export const grantHandlers = {
  listSpacePermissions: ({ app, caller, params, query }) => listGrants(app, caller, 'space', params.spaceId, query),
  grantSpacePermission: ({ app, caller, params, body }) => grant(app, caller, 'space', params.spaceId, body),
  updateSpaceUserPermission: ({ app, caller, params, body }) =>
    change(app, caller, 'space', params.spaceId, { kind: 'user', id: params.userId }, body.role),
  revokeSpaceUserPermission: ({ app, caller, params }) => revoke(app, caller, 'space', params.spaceId, { kind: 'user', id: params.userId }),
  updateSpaceTeamPermission: ({ app, caller, params, body }) =>
    change(app, caller, 'space', params.spaceId, { kind: 'team', id: params.teamId }, body.role),
  revokeSpaceTeamPermission: ({ app, caller, params }) => revoke(app, caller, 'space', params.spaceId, { kind: 'team', id: params.teamId }),

  listCollectionPermissions: ({ app, caller, params, query }) => listGrants(app, caller, 'collection', params.collectionId, query),
  grantCollectionPermission: ({ app, caller, params, body }) => grant(app, caller, 'collection', params.collectionId, body),
  updateCollectionUserPermission: ({ app, caller, params, body }) =>
    change(app, caller, 'collection', params.collectionId, { kind: 'user', id: params.userId }, body.role),
  revokeCollectionUserPermission: ({ app, caller, params }) =>
    revoke(app, caller, 'collection', params.collectionId, { kind: 'user', id: params.userId }),
  updateCollectionTeamPermission: ({ app, caller, params, body }) =>
    change(app, caller, 'collection', params.collectionId, { kind: 'team', id: params.teamId }, body.role),
  revokeCollectionTeamPermission: ({ app, caller, params }) =>
    revoke(app, caller, 'collection', params.collectionId, { kind: 'team', id: params.teamId }),
} satisfies AreaHandlers;
