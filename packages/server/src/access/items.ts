// The one place that turns the caller's effective role on a space or collection into a decision:
// no role → 404 (the item does not exist for them), a role below the operation's minimum → 403.
import type { Executor } from '../db/database.js';
import {
  findCollectionWithStanding,
  findSpaceGrantRank,
  findSpaceWithStanding,
  findStanding,
  type CollectionRow,
  type SpaceRow,
  type Standing,
} from './standing.repository.js';
import type { Viewer } from './listing.repository.js';
import { forbidden, notFound } from '../errors.js';
import type { Caller } from '../auth/authenticate.js';
import { roleAtLeast, type Role } from './roles.js';
import { outsideScope } from '../auth/token-scope.js';
import { collectionRank, spaceRank, viewerFor } from './viewer.js';

const RANKED: Array<Role | null> = [null, 'read', 'comment', 'edit', 'review', 'create', 'admin'];

export function rankToRole(rank: number): Role | null {
  return RANKED[rank] ?? null;
}

export type ItemAccess = {
  /** The caller's effective role on the item. */
  role: Role;
  /** The caller's organization role (null: guest; undefined: not a member). */
  organizationRole: Role | null | undefined;
};

export type SpaceAccess = ItemAccess & { space: SpaceRow };
export type CollectionAccess = ItemAccess & { collection: CollectionRow };

export const DELETED_SPACE_RETENTION_DAYS = 7;

function decide(rank: number, ssoBlocked: boolean, what: string, minimum: Role, organizationRole: Role | null | undefined): ItemAccess {
  const role = rankToRole(rank);
  if (!role) throw notFound(what);
  if (ssoBlocked) throw forbidden('This organization requires single sign-on: sign in through its SAML provider');
  if (!roleAtLeast(role, minimum)) throw forbidden(`This needs the "${minimum}" role on the ${what.toLowerCase()}`);
  return { role, organizationRole };
}

/** The lookup, unless its organization lies outside the caller's token scope: then, as for a stranger, nothing. */
function withinScope<T extends { standing: Standing }>(caller: Caller, found: T | undefined): T | undefined {
  return found && !outsideScope(caller, found.standing.organizationId) ? found : undefined;
}

async function spaceAccess(db: Executor, caller: Caller, lookup: Awaited<ReturnType<typeof findSpaceWithStanding>>, minimum: Role): Promise<SpaceAccess> {
  // Public and unlisted spaces of another organization included: a scoped token sees none of it.
  const found = withinScope(caller, lookup);
  if (!found) throw notFound('Space');
  const { item: space, standing } = found;
  const viewer = await viewerFor(db, standing, caller.user.id);
  // Most members hold no space grants at all: their rank needs no further query.
  const grantRank = viewer.hasSpaceGrants ? await findSpaceGrantRank(db, space.organizationId, space.id, caller.user.id, viewer.teamIds) : 0;
  const access = decide(spaceRank(space, viewer, grantRank), viewer.ssoBlocked, 'Space', minimum, viewer.memberRole);
  return { ...access, space };
}

/** The space when the caller's role on it is at least `minimum`. Deleted spaces are absent. */
export async function requireSpace(db: Executor, caller: Caller, spaceId: string, minimum: Role): Promise<SpaceAccess> {
  return spaceAccess(db, caller, await findSpaceWithStanding(db, spaceId, caller.user.id), minimum);
}

/**
 * A space for restore: deleted within its retention period, or live (the caller then learns it is not
 * deleted). A space deleted longer ago is gone (404), purged or not.
 */
export async function requireRestorableSpace(db: Executor, caller: Caller, spaceId: string, minimum: Role): Promise<SpaceAccess> {
  const found = await findSpaceWithStanding(db, spaceId, caller.user.id, { includeDeleted: true });
  const retentionMs = DELETED_SPACE_RETENTION_DAYS * 86_400_000;
  const expired = found?.item.deletedAt && Date.now() - found.item.deletedAt.getTime() >= retentionMs;
  return spaceAccess(db, caller, expired ? undefined : found, minimum);
}

export async function requireCollection(db: Executor, caller: Caller, collectionId: string, minimum: Role): Promise<CollectionAccess> {
  const found = withinScope(caller, await findCollectionWithStanding(db, collectionId, caller.user.id));
  if (!found) throw notFound('Collection');
  const viewer = await viewerFor(db, found.standing, caller.user.id);
  const access = decide(collectionRank(found.item.id, viewer), viewer.ssoBlocked, 'Collection', minimum, viewer.memberRole);
  return { ...access, collection: found.item };
}

/** The viewer of `userId` in an organization they are a member of; undefined otherwise. */
export async function memberViewer(db: Executor, organizationId: string, userId: string): Promise<Viewer | undefined> {
  const standing = await findStanding(db, organizationId, userId);
  if (!standing?.isMember) return undefined;
  return viewerFor(db, standing, userId);
}

/**
 * The caller's standing in an organization for listing its spaces and collections: 404 for a
 * non-member, 403 for a member blocked by SSO enforcement.
 */
export async function requireViewer(db: Executor, caller: Caller, organizationId: string): Promise<Viewer> {
  const viewer = outsideScope(caller, organizationId) ? undefined : await memberViewer(db, organizationId, caller.user.id);
  if (!viewer) throw notFound('Organization');
  if (viewer.ssoBlocked) throw forbidden('This organization requires single sign-on: sign in through its SAML provider');
  return viewer;
}
