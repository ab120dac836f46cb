// Spaces deleted more than 7 days ago are gone for good: remove them with everything they own. Rows
// that reference `spaces` go by cascade; each area's purge steps (areas/<area> descriptors) remove
// what does not — the content area marks the organization, as content objects shared by content
// address may still be reached by other spaces, and its garbage collection sweeps what nothing reaches.
import { sql } from 'kysely';
import { DELETED_SPACE_RETENTION_DAYS } from '../../access/items.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Database } from '../../db/database.js';
import type { JobWorker } from '../../jobs/queue.js';

const BATCH = 200;

/** Purges every expired space, in batches of one transaction each; returns how many. */
export async function purgeExpiredSpaces(db: Database, lifecycle: Lifecycle): Promise<number> {
  let total = 0;
  for (;;) {
    const purged = await db.transaction().execute(async (trx) => {
      const { rows: spaces } = await sql<{ organizationId: string; id: string }>`
        SELECT organization_id, id FROM spaces
        WHERE deleted_at < now() - make_interval(days => ${DELETED_SPACE_RETENTION_DAYS})
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED`.execute(trx);
      if (spaces.length === 0) return 0;
      for (const step of lifecycle.purge) await step(trx, { spaces });
      const ids = spaces.map((space) => space.id);
      const organizationIds = spaces.map((space) => space.organizationId);
      await sql`
        DELETE FROM spaces s USING unnest(${organizationIds}::text[], ${ids}::text[]) AS e(organization_id, id)
        WHERE s.organization_id = e.organization_id AND s.id = e.id`.execute(trx);
      await sql`DELETE FROM space_locators WHERE space_id = ANY(${ids}::text[])`.execute(trx);
      return spaces.length;
    });
    total += purged;
    if (purged < BATCH) return total;
  }
}

export function purgeSpacesWorker(db: Database, lifecycle: Lifecycle): JobWorker {
  return {
    name: 'purge-deleted-spaces',
    schedule: '17 * * * *', // hourly
    async handle() {
      await purgeExpiredSpaces(db, lifecycle);
    },
  };
}
