// Grants on spaces and collections: the same six operations for both kinds of item. Reading and
// changing grants needs `admin` on the item (declared in the spec, enforced before the handlers).
import type { OrganizationRole } from '../../access/permissions.js';
import type { CollectionAccess, SpaceAccess } from '../../access/scopes.js';
import type { Caller } from '../../auth/authenticate.js';
import { findGrant, grantsOfItemQuery, type GrantTarget, type GrantViewRow, type Principal } from './grants.repository.js';
import { keysetPage } from '../../db/pagination.js';
import type { Role } from '../../db/schema.js';
import type { AreaHandlers } from '../../http/handler.js';
import { toApiGrant } from './grant.mapper.js';
import type { AppContext } from '../../context.js';
import { addGrant, changeGrant, revokeGrant } from './grants.service.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';
import { notFound } from '../../errors.js';

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

/** Records `type` for the grant in `trx` (the change's transaction), as an organization admin sees it. */
async function recordGrantEvent(trx: Executor, app: AppContext, caller: Caller, type: 'grant.created' | 'grant.updated' | 'grant.revoked', target: GrantTarget, row: GrantViewRow) {
  await recordEvent(trx, {
    type,
    organizationId: target.organizationId,
    spaceId: target.kind === 'space' ? target.id : null,
    actor: actorOf(caller, app.urls),
    data: { object: toApiGrant(row, 'admin', app.urls), item: { type: target.kind, id: target.id } },
  });
}

async function grant(app: AppContext, caller: Caller, { target, organizationRole }: Item, body: { user?: string; team?: string; role: Role }) {
  // The schema admits exactly one of `user` and `team`.
  const principal: Principal = body.user !== undefined ? { kind: 'user', id: body.user } : { kind: 'team', id: body.team! };
  const row = await inTransaction(app.db, async (trx) => {
    const added = await addGrant(trx, target, principal, body.role, caller.user.id);
    await recordGrantEvent(trx, app, caller, 'grant.created', target, added);
    return added;
  });
  return { status: 201 as const, body: toApiGrant(row, organizationRole, app.urls) };
}

async function change(app: AppContext, caller: Caller, { target, organizationRole }: Item, principal: Principal, role: Role) {
  const row = await inTransaction(app.db, async (trx) => {
    const changed = await changeGrant(trx, target, principal, role, caller.user.id);
    await recordGrantEvent(trx, app, caller, 'grant.updated', target, changed);
    return changed;
  });
  return { status: 200 as const, body: toApiGrant(row, organizationRole, app.urls) };
}

async function revoke(app: AppContext, caller: Caller, { target }: Item, principal: Principal) {
  await inTransaction(app.db, async (trx) => {
    const row = await findGrant(trx, target, principal, caller.user.id);
    if (!row) throw notFound('Grant');
    await revokeGrant(trx, target, principal);
    await recordGrantEvent(trx, app, caller, 'grant.revoked', target, row);
  });
  return { status: 205 as const };
}

export const grantHandlers = {
  listSpacePermissions: ({ app, caller, access, query }) => listGrants(app, caller, spaceItem(access), query),
  grantSpacePermission: ({ app, caller, access, body }) => grant(app, caller, spaceItem(access), body),
  updateSpaceUserPermission: ({ app, caller, access, params, body }) => change(app, caller, spaceItem(access), { kind: 'user', id: params.userId }, body.role),
  revokeSpaceUserPermission: ({ app, caller, access, params }) => revoke(app, caller, spaceItem(access), { kind: 'user', id: params.userId }),
  updateSpaceTeamPermission: ({ app, caller, access, params, body }) => change(app, caller, spaceItem(access), { kind: 'team', id: params.teamId }, body.role),
  revokeSpaceTeamPermission: ({ app, caller, access, params }) => revoke(app, caller, spaceItem(access), { kind: 'team', id: params.teamId }),

  listCollectionPermissions: ({ app, caller, access, query }) => listGrants(app, caller, collectionItem(access), query),
  grantCollectionPermission: ({ app, caller, access, body }) => grant(app, caller, collectionItem(access), body),
  updateCollectionUserPermission: ({ app, caller, access, params, body }) =>
    change(app, caller, collectionItem(access), { kind: 'user', id: params.userId }, body.role),
  revokeCollectionUserPermission: ({ app, caller, access, params }) => revoke(app, caller, collectionItem(access), { kind: 'user', id: params.userId }),
  updateCollectionTeamPermission: ({ app, caller, access, params, body }) =>
    change(app, caller, collectionItem(access), { kind: 'team', id: params.teamId }, body.role),
  revokeCollectionTeamPermission: ({ app, caller, access, params }) => revoke(app, caller, collectionItem(access), { kind: 'team', id: params.teamId }),
} satisfies AreaHandlers;
