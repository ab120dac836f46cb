// Events are kept EVENTS_RETENTION_DAYS (30 by default), then deleted with their webhook deliveries
// (by cascade), organization by organization in batches, so no statement holds many rows' locks.
import type { Executor } from '../../db/database.js';
import type { JobWorker } from '../../jobs/queue.js';
import { deleteEventsBefore, organizationsWithEventsBefore } from './events.repository.js';

const BATCH = 5000;

/** Deletes every event recorded more than `retentionDays` ago; returns how many. */
export async function pruneEvents(db: Executor, retentionDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  let total = 0;
  for (const organizationId of await organizationsWithEventsBefore(db, before)) {
    for (let deleted = BATCH; deleted === BATCH; ) {
      deleted = await deleteEventsBefore(db, organizationId, before, BATCH);
      total += deleted;
    }
  }
  return total;
}

export function pruneEventsWorker(db: Executor, retentionDays: number): JobWorker {
  return {
    name: 'prune-events',
    schedule: '41 * * * *', // hourly
    async handle() {
      await pruneEvents(db, retentionDays);
    },
  };
}
