// The caller's viewer in an organization: their standing (read with each request, one simple query)
// plus their ranks (teams, every collection's resolved level and grant), cached per instance and
// database until the organization's listing version moves. The effective-role rule itself is the SQL
// rank expressions of listing.repository.ts, used by single reads and lists alike.
import type { Executor } from '../db/database.js';
import type { Standing } from './standing.repository.js';
import { ssoDisables } from './organization.js';
import { loadViewerRanks, type Viewer, type ViewerRanks } from './listing.repository.js';

type Entry = { version: number; memberRole: Viewer['memberRole']; ranks: ViewerRanks };

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

/** SSO enforcement on the standing's organization (the rule: access/organization.ts `ssoDisables`). */
export function isSsoBlocked(standing: Standing): boolean {
  return standing.isMember && ssoDisables(standing.organizationSso, { role: standing.memberRole, sso: standing.memberSso });
}

/** The user's viewer in the standing's organization (ranks from the cache while the version holds). */
export async function viewerFor(db: Executor, standing: Standing, userId: string): Promise<Viewer> {
  const memberRole = standing.isMember ? standing.memberRole : undefined;
  const cache = cacheFor(db);
  const key = `${standing.organizationId}:${userId}`;
  let entry = cache.get(key);
  if (!entry || entry.version !== standing.listingVersion || entry.memberRole !== memberRole) {
    const ranks = await loadViewerRanks(db, standing.organizationId, userId, memberRole ?? null);
    entry = { version: standing.listingVersion, memberRole, ranks };
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
  };
}

/**
 * The cached viewer of `userId` in `organizationId`, as last built (its version may be behind: callers
 * compare it with the standing they read), or undefined.
 */
export function cachedViewer(db: Executor, organizationId: string, userId: string): Viewer | undefined {
  const entry = cacheFor(db).get(`${organizationId}:${userId}`);
  if (!entry) return undefined;
  return { userId, organizationId, memberRole: entry.memberRole, ssoBlocked: false, listingVersion: entry.version, ...entry.ranks };
}
