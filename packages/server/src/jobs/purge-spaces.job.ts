// Spaces deleted more than 7 days ago are gone for good: remove them with everything they own (their
// dependent rows go by cascade) and their locators. Content objects shared by content address may
// still be referenced by other spaces of the organization: the purge marks the organization, and the
// garbage-collection job sweeps what nothing reaches any more.
import { sql } from 'kysely';
import { DELETED_SPACE_RETENTION_DAYS } from '../auth/access.js';
import type { Executor } from '../db/database.js';
import type { JobWorker } from './queue.js';

const BATCH = 200;

/** Purges every expired space, in batches; returns how many. */
export async function purgeExpiredSpaces(db: Executor): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ id: string }>`
      WITH expired AS (
        SELECT organization_id, id FROM spaces
        WHERE deleted_at < now() - make_interval(days => ${DELETED_SPACE_RETENTION_DAYS})
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      ),
      removed AS (
        DELETE FROM spaces s USING expired e WHERE s.organization_id = e.organization_id AND s.id = e.id
        RETURNING s.organization_id, s.id
      ),
      unlocated AS (DELETE FROM space_locators l USING removed r WHERE l.space_id = r.id),
      marked AS (
        INSERT INTO content_garbage_marks (organization_id) SELECT DISTINCT organization_id FROM removed
        ON CONFLICT (organization_id) DO UPDATE SET marked_at = now()
      )
      SELECT id FROM removed`.execute(db);
    total += rows.length;
    if (rows.length < BATCH) return total;
  }
}

export function purgeSpacesWorker(db: Executor): JobWorker {
  return {
    name: 'purge-deleted-spaces',
    schedule: '17 * * * *', // hourly
    async handle() {
      await purgeExpiredSpaces(db);
    },
  };
}
