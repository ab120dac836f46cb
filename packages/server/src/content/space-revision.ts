// A revision of a space as a request names it: 404 when it is not one of the space's. Here, below the
// areas, because the content area reads revisions by it and the spaces area duplicates a space from its
// head revision by it.
import type { Caches } from '../caches.js';
import type { Executor } from '../db/database.js';
import type { SpaceRow } from '../access/standing.repository.js';
import { notFound } from '../errors.js';
import { findSpaceRevision, type RevisionRow } from './revisions.repository.js';

/** A revision of the space; 404 when it is not one of the space's. */
export async function requireRevision(db: Executor, caches: Pick<Caches, 'revisions'>, space: SpaceRow, revisionId: string): Promise<RevisionRow> {
  const revision = await findSpaceRevision(db, caches, space.organizationId, space.id, revisionId);
  if (!revision) throw notFound('Revision');
  return revision;
}
