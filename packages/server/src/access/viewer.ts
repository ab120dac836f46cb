// The caller's viewer in an organization: their standing (read with each request, one simple query)
// plus their ranks (teams, every collection's resolved level and grant), kept in the server's `viewers`
// cache (caches.ts) under the organization's listing version: every change to what a member may see
// moves that version, which every instance reads with the request, so a kept viewer is never used past
// it. The effective-role rule itself is the SQL rank expressions of listing.repository.ts, used by
// single reads and lists alike.
import type { Caches } from '../caches.js';
import type { AppContext } from '../context.js';
import type { Standing } from './standing.repository.js';
import { ssoDisables } from './organization.js';
import { loadViewerRanks, type Viewer, type ViewerRanks } from './listing.repository.js';

/** A member's ranks as kept, with the listing version and member role they were read at. */
export type ViewerEntry = { version: number; memberRole: Viewer['memberRole']; ranks: ViewerRanks };

/** What reading a viewer needs: the database, and the caches of the server. */
export type AccessReader = Pick<AppContext, 'db' | 'caches'>;

/** SSO enforcement on the standing's organization (the rule: access/organization.ts `ssoDisables`). */
export function isSsoBlocked(standing: Standing): boolean {
  return standing.isMember && ssoDisables(standing.organizationSso, { role: standing.memberRole, sso: standing.memberSso });
}

/** The user's viewer in the standing's organization (ranks from the cache while the version holds). */
export async function viewerFor(app: AccessReader, standing: Standing, userId: string): Promise<Viewer> {
  const memberRole = standing.isMember ? standing.memberRole : undefined;
  const key = `${standing.organizationId}:${userId}`;
  let entry = app.caches.viewers.get(key);
  if (!entry || entry.version !== standing.listingVersion || entry.memberRole !== memberRole) {
    const ranks = await loadViewerRanks(app.db, standing.organizationId, userId, memberRole ?? null);
    entry = { version: standing.listingVersion, memberRole, ranks };
    app.caches.viewers.set(key, entry);
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
export function cachedViewer(caches: Pick<Caches, 'viewers'>, organizationId: string, userId: string): Viewer | undefined {
  const entry = caches.viewers.get(`${organizationId}:${userId}`);
  if (!entry) return undefined;
  return { userId, organizationId, memberRole: entry.memberRole, ssoBlocked: false, listingVersion: entry.version, ...entry.ranks };
}
