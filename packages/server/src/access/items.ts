// The one place that turns the caller's effective role on a space or collection into a decision:
// no role → 404 (the item does not exist for them), a role below the operation's minimum → 403. The
// role itself comes from the SQL rank expressions that the lists use too (listing.repository.ts).
import {
  findCollectionRanked,
  findCollectionWithStanding,
  findSpaceRanked,
  findSpaceWithStanding,
  findStanding,
  type AttachedRow,
  type CollectionRow,
  type SpaceRow,
  type Standing,
} from './standing.repository.js';
import type { Viewer } from './listing.repository.js';
import { forbidden, notFound } from '../errors.js';
import type { Caller } from '../auth/authenticate.js';
import { rankToRole, roleAtLeast, type Role } from './roles.js';
import { outsideScope } from '../auth/token-scope.js';
import { cachedViewer, isSsoBlocked, viewerFor, type AccessReader } from './viewer.js';
import { SSO_REQUIRED } from './organization.js';

export { rankToRole };

export type ItemAccess = {
  /** The caller's effective role on the item. */
  role: Role;
  /** The caller's organization role (null: guest; undefined: not a member). */
  organizationRole: Role | null | undefined;
};

export type SpaceAccess = ItemAccess & { space: SpaceRow };
/** `standing`: the caller's standing in the collection's organization, read with it (lists build their viewer from it). */
export type CollectionAccess = ItemAccess & { collection: CollectionRow; standing: Standing };

export const DELETED_SPACE_RETENTION_DAYS = 7;

function decide(rank: number, ssoBlocked: boolean, what: string, minimum: Role, organizationRole: Role | null | undefined): ItemAccess {
  const role = rankToRole(rank);
  if (!role) throw notFound(what);
  if (ssoBlocked) throw forbidden(SSO_REQUIRED);
  if (!roleAtLeast(role, minimum)) throw forbidden(`This needs the "${minimum}" role on the ${what.toLowerCase()}`);
  return { role, organizationRole };
}

/** The lookup, unless its organization lies outside the caller's token scope: then, as for a stranger, nothing. */
function withinScope<T extends { standing: Standing }>(caller: Caller, found: T | undefined): T | undefined {
  return found && !outsideScope(caller, found.standing.organizationId) ? found : undefined;
}

type Ranked<T> = { item: T; standing: Standing; rank: number };

/**
 * An item with the caller's rank on it, in one query in the steady state: the item's organization is
 * remembered, so the caller's cached viewer there computes the rank in the item's own query (the
 * same SQL expression the lists use), read by the item's primary key in that organization. An item
 * this server has not read yet is looked for in the organization the caller last read in (most callers
 * belong to one): its first read is one query too, not two. When the organization is not known, the
 * item is not there (moved to another organization, deleted, in another of the caller's
 * organizations), or the viewer is behind the standing the query read, the item is found by its
 * locator and the viewer rebuilt, and the query runs again.
 */
async function findRanked<T, R extends Ranked<T> = Ranked<T>>(
  app: AccessReader,
  caller: Caller,
  kind: 'space' | 'collection',
  id: string,
  lookup: (viewer: Viewer) => Promise<R | undefined>,
  plain: () => Promise<{ item: T; standing: Standing } | undefined>,
): Promise<R | undefined> {
  // The organization an item was last found in (the `itemOrganizations` cache): only a hint, as the
  // item's own query checks its organization and an item that moved is looked up again.
  const hints = app.caches.itemOrganizations;
  const hintKey = `${kind}:${id}`;
  // The organization the caller last read an item in: the guess for an item without a hint of its own.
  const callerKey = `caller:${caller.user.id}`;
  // Each hint read once: the usual read (both hints already right) costs no other cache operation.
  let itemHint = hints.get(hintKey);
  let callerHint = hints.get(callerKey);
  const forget = (): undefined => {
    hints.delete(hintKey);
    itemHint = undefined;
    return undefined;
  };
  const remember = (organizationId: string) => {
    if (itemHint !== organizationId) hints.set(hintKey, (itemHint = organizationId));
    if (callerHint !== organizationId) hints.set(callerKey, (callerHint = organizationId));
  };
  const hint = itemHint ?? callerHint;
  let viewer = hint === undefined ? undefined : cachedViewer(app.caches, hint, caller.user.id);
  for (let attempt = 1; ; attempt++) {
    const fromHint = viewer !== undefined && attempt === 1;
    if (!viewer) {
      const found = await plain();
      if (!found) return forget();
      remember(found.standing.organizationId);
      viewer = await viewerFor(app, found.standing, caller.user.id);
    }
    const found = await lookup(viewer);
    if (!found) {
      if (!fromHint) return forget();
      // Not in the remembered organization (any more): found again by its locator.
      forget();
      viewer = undefined;
      continue;
    }
    const { organizationId, listingVersion } = found.standing;
    remember(organizationId);
    // A rank is only ever taken from a viewer of the item's own organization; a version that moved
    // between two reads (rare) is settled after a few attempts.
    if (viewer.organizationId === organizationId && (viewer.listingVersion === listingVersion || attempt >= 3)) return found;
    viewer = await viewerFor(app, found.standing, caller.user.id);
  }
}

async function spaceAccess(caller: Caller, found: Ranked<SpaceRow> | undefined, minimum: Role): Promise<SpaceAccess> {
  // Public and unlisted spaces of another organization included: a scoped token sees none of it.
  const visible = withinScope(caller, found);
  if (!visible) throw notFound('Space');
  const { item: space, standing, rank } = visible;
  const access = decide(rank, isSsoBlocked(standing), 'Space', minimum, standing.isMember ? standing.memberRole : undefined);
  return { ...access, space };
}

function findSpace<A = never>(app: AccessReader, caller: Caller, spaceId: string, options: { includeDeleted?: boolean; attach?: AttachedRow<A> } = {}) {
  return findRanked(
    app,
    caller,
    'space',
    spaceId,
    (viewer) => findSpaceRanked(app.db, spaceId, viewer, options),
    () => findSpaceWithStanding(app.db, spaceId, caller.user.id, options),
  );
}

/** The space when the caller's role on it is at least `minimum`. Deleted spaces are absent. */
export async function requireSpace(app: AccessReader, caller: Caller, spaceId: string, minimum: Role): Promise<SpaceAccess> {
  return spaceAccess(caller, await findSpace(app, caller, spaceId), minimum);
}

/**
 * The space as requireSpace finds it, with a row read in the same statement (`attach`: the resource a
 * scope names within the space); `attached` is undefined when there is no such row. The space's access
 * is decided first: a caller who may not see the space learns nothing of the row.
 */
export async function requireSpaceWith<A>(app: AccessReader, caller: Caller, spaceId: string, minimum: Role, attach: AttachedRow<A>): Promise<SpaceAccess & { attached: A | undefined }> {
  const found = await findSpace(app, caller, spaceId, { attach });
  const access = await spaceAccess(caller, found, minimum);
  return { ...access, attached: found?.attached ?? undefined };
}

/**
 * A space for restore: deleted within its retention period, or live (the caller then learns it is not
 * deleted). A space deleted longer ago is gone (404), purged or not.
 */
export async function requireRestorableSpace(app: AccessReader, caller: Caller, spaceId: string, minimum: Role): Promise<SpaceAccess> {
  const found = await findSpace(app, caller, spaceId, { includeDeleted: true });
  const retentionMs = DELETED_SPACE_RETENTION_DAYS * 86_400_000;
  const expired = found?.item.deletedAt && Date.now() - found.item.deletedAt.getTime() >= retentionMs;
  return spaceAccess(caller, expired ? undefined : found, minimum);
}

export async function requireCollection(app: AccessReader, caller: Caller, collectionId: string, minimum: Role): Promise<CollectionAccess> {
  const found = await findRanked(
    app,
    caller,
    'collection',
    collectionId,
    (viewer) => findCollectionRanked(app.db, collectionId, viewer),
    () => findCollectionWithStanding(app.db, collectionId, caller.user.id),
  );
  const visible = withinScope(caller, found);
  if (!visible) throw notFound('Collection');
  const { standing } = visible;
  const access = decide(visible.rank, isSsoBlocked(standing), 'Collection', minimum, standing.isMember ? standing.memberRole : undefined);
  return { ...access, collection: visible.item, standing };
}

/** The viewer of `userId` in an organization they are a member of; undefined otherwise. */
export async function memberViewer(app: AccessReader, organizationId: string, userId: string): Promise<Viewer | undefined> {
  const standing = await findStanding(app.db, organizationId, userId);
  if (!standing?.isMember) return undefined;
  return viewerFor(app, standing, userId);
}
