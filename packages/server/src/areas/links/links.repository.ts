// The rows the link reports read beyond content: which change requests of a space are open.
import type { Executor } from '../../db/database.js';

/** Revisions of the space's open change requests, most recently updated first (at most `limit`). */
export async function openChangeRequestRevisions(db: Executor, organizationId: string, spaceId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('changeRequests')
    .select('revisionId')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .where('status', '=', 'open')
    .orderBy('updatedAt', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.revisionId);
}
