// The one place that turns the caller's effective role on a space or collection into a decision:
// no role → 404 (the item does not exist for them), a role below the operation's minimum → 403.
import type { Executor } from '../db/database.js';
import {
  findCollectionAccess,
  findSpaceAccess,
  type AccessColumns,
  type CollectionRow,
  type SpaceRow,
} from '../db/repositories/access.repository.js';
import { loadViewer, type Viewer } from '../db/repositories/listing.repository.js';
import { forbidden, notFound } from '../http/errors.js';
import type { Caller } from './authenticate.js';
import { ssoRequired } from './organization-access.js';
import { roleAtLeast, type Role } from './roles.js';

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

function decide(row: AccessColumns | undefined, what: string, minimum: Role): ItemAccess {
  const role = row ? rankToRole(row.accessRank) : null;
  if (!row || !role) throw notFound(what);
  if (row.ssoBlocked) throw ssoRequired();
  if (!roleAtLeast(role, minimum)) throw forbidden(`This needs the "${minimum}" role on the ${what.toLowerCase()}`);
  return { role, organizationRole: row.isMember ? row.memberRole : undefined };
}

function split<T extends AccessColumns>(row: T): Omit<T, keyof AccessColumns> {
  const { accessRank: _rank, memberRole: _role, isMember: _member, ssoBlocked: _blocked, ...item } = row;
  return item;
}

/** The space when the caller's role on it is at least `minimum`. Deleted spaces are absent. */
export async function requireSpace(db: Executor, caller: Caller, spaceId: string, minimum: Role): Promise<SpaceAccess> {
  const row = await findSpaceAccess(db, spaceId, caller.user.id);
  const access = decide(row, 'Space', minimum);
  return { ...access, space: split(row!) };
}

/**
 * A space for restore: deleted within its retention period, or live (the caller then learns it is not
 * deleted). A space deleted longer ago is gone (404), purged or not.
 */
export async function requireRestorableSpace(db: Executor, caller: Caller, spaceId: string, minimum: Role): Promise<SpaceAccess> {
  const row = await findSpaceAccess(db, spaceId, caller.user.id, { includeDeleted: true });
  const retentionMs = DELETED_SPACE_RETENTION_DAYS * 86_400_000;
  const expired = row?.deletedAt && Date.now() - row.deletedAt.getTime() >= retentionMs;
  const access = decide(expired ? undefined : row, 'Space', minimum);
  return { ...access, space: split(row!) };
}

export async function requireCollection(db: Executor, caller: Caller, collectionId: string, minimum: Role): Promise<CollectionAccess> {
  const row = await findCollectionAccess(db, collectionId, caller.user.id);
  const access = decide(row, 'Collection', minimum);
  return { ...access, collection: split(row!) };
}

/**
 * The caller's standing in an organization for listing its spaces and collections: 404 for a
 * non-member, 403 for a member blocked by SSO enforcement.
 */
export async function requireViewer(db: Executor, caller: Caller, organizationId: string): Promise<Viewer> {
  const viewer = await loadViewer(db, organizationId, caller.user.id);
  if (!viewer || viewer.memberRole === undefined) throw notFound('Organization');
  if (viewer.ssoBlocked) throw forbidden('This organization requires single sign-on: sign in through its SAML provider');
  return viewer;
}
