// Spaces deleted more than 7 days ago are gone for good: remove them with everything they own, each
// recording `space.purged` in the same transaction. Rows
// that reference `spaces` go by cascade; each area's purge steps (areas/<area> descriptors) remove
// what does not — the content area marks the organization, as content objects shared by content
// address may still be reached by other spaces, and its garbage collection sweeps what nothing reaches.
import { deleteSpacesForGood, lockExpiredSpaces } from './spaces.repository.js';
import { DELETED_SPACE_RETENTION_DAYS } from '../../access/items.js';
import type { Lifecycle } from '../lifecycle.js';
import { inTransaction, type Executor } from '../../db/database.js';
import type { JobWorker } from '../../jobs/queue.js';
import { recordEvents, SYSTEM_ACTOR } from '../events/index.js';

const BATCH = 200;

/** Purges every expired space, in batches of one transaction each; returns how many. */
export async function purgeExpiredSpaces(db: Executor, lifecycle: Lifecycle): Promise<number> {
  let total = 0;
  for (;;) {
    const purged = await inTransaction(db, async (trx) => {
      const spaces = await lockExpiredSpaces(trx, DELETED_SPACE_RETENTION_DAYS, BATCH);
      if (spaces.length === 0) return 0;
      await lifecycle.purge(trx, { spaces });
      await deleteSpacesForGood(trx, spaces);
      await recordEvents(
        trx,
        spaces.map(({ organizationId, id }) => ({ type: 'space.purged' as const, organizationId, spaceId: id, actor: SYSTEM_ACTOR, data: { space: id } })),
      );
      return spaces.length;
    });
    total += purged;
    if (purged < BATCH) return total;
  }
}

export function purgeSpacesWorker(db: Executor, lifecycle: Lifecycle): JobWorker {
  return {
    name: 'purge-deleted-spaces',
    schedule: '17 * * * *', // hourly
    async handle() {
      await purgeExpiredSpaces(db, lifecycle);
    },
  };
}
