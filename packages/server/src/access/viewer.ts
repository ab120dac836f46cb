// The caller's viewer in an organization: their standing (read with each request, one simple query)
// plus their ranks (teams, every collection's resolved level and grant), cached per instance and
// database until the organization's listing version moves. Ranks in JS here mirror the SQL rank
// expressions of listing.repository.ts (the access tests check that single reads and lists agree).
import type { Executor } from '../db/database.js';
import type { Standing } from './standing.repository.js';
import { loadViewerRanks, type Viewer, type ViewerRanks } from './listing.repository.js';
import type { DefaultLevel, Visibility } from '../db/schema.js';
import { roleRank } from './roles.js';

type Entry = { version: number; ranks: ViewerRanks; slots: Map<string, number> };

const CAPACITY = 20_000;
// One cache per database handle: test servers and benchmarks can run several in one process.
const caches = new WeakMap<object, Map<string, Entry>>();

function cacheFor(db: Executor): Map<string, Entry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** SSO enforcement: a member who is neither an SSO member nor an admin gets 403 on content (DESIGN.md §4). */
export function isSsoBlocked(standing: Standing): boolean {
  return standing.organizationSso && standing.isMember && !standing.memberSso && standing.memberRole !== 'admin';
}

/** The user's viewer in the standing's organization (ranks from the cache while the version holds). */
export async function viewerFor(db: Executor, standing: Standing, userId: string): Promise<Viewer & { slots: Map<string, number> }> {
  const memberRole = standing.isMember ? standing.memberRole : undefined;
  const cache = cacheFor(db);
  const key = `${standing.organizationId}:${userId}`;
  let entry = cache.get(key);
  if (!entry || entry.version !== standing.listingVersion) {
    const ranks = await loadViewerRanks(db, standing.organizationId, userId, memberRole ?? null);
    entry = { version: standing.listingVersion, ranks, slots: new Map(ranks.collectionIds.map((id, index) => [id, index])) };
    cache.delete(key);
    cache.set(key, entry);
    if (cache.size > CAPACITY) cache.delete(cache.keys().next().value!);
  }
  return {
    userId,
    organizationId: standing.organizationId,
    memberRole,
    ssoBlocked: isSsoBlocked(standing),
    listingVersion: standing.listingVersion,
    ...entry.ranks,
    slots: entry.slots,
  };
}

type ViewerWithSlots = Viewer & { slots: Map<string, number> };

function collectionSlot(viewer: ViewerWithSlots, collectionId: string | null): { level: number; grant: number } | undefined {
  const index = collectionId === null ? undefined : viewer.slots.get(collectionId);
  return index === undefined ? undefined : { level: viewer.collectionLevels[index]!, grant: viewer.collectionGrants[index]! };
}

/**
 * The viewer's rank on a space (0: no access), given the best rank of their grants on the space itself.
 * Mirrors spaceRankExpression.
 */
export function spaceRank(
  space: { visibility: Visibility; parentCollectionId: string | null; defaultLevel: DefaultLevel },
  viewer: ViewerWithSlots,
  spaceGrantRank: number,
): number {
  const role = viewer.memberRole;
  const slot = collectionSlot(viewer, space.parentCollectionId);
  let level = 0;
  if (role != null) {
    if (space.visibility === 'in-collection' && space.parentCollectionId !== null) level = slot?.level ?? 0;
    else if (space.defaultLevel === 'inherit') level = slot?.level ?? roleRank(role);
    else level = roleRank(space.defaultLevel);
  }
  const grants = role !== undefined ? Math.max(slot?.grant ?? 0, spaceGrantRank) : 0;
  const admin = role === 'admin' ? 6 : 0;
  const publicRead = space.visibility === 'public' || space.visibility === 'unlisted' ? 1 : 0;
  return Math.max(level, grants, admin, publicRead);
}

/** The viewer's rank on a collection (0: no access). Mirrors collectionRankExpression. */
export function collectionRank(collectionId: string, viewer: ViewerWithSlots): number {
  const role = viewer.memberRole;
  const slot = collectionSlot(viewer, collectionId);
  const level = role != null ? (slot?.level ?? 0) : 0;
  const grants = role !== undefined ? (slot?.grant ?? 0) : 0;
  return Math.max(level, grants, role === 'admin' ? 6 : 0);
}
