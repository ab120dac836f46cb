// Removes idempotency keys over 24 hours old (http/idempotency.ts). A key past its expiry already counts
// as new when it comes back; this only keeps the table to a day of writes. In batches, so that no
// statement holds many row locks or runs long after a quiet day's backlog.
import type { Executor } from '../db/database.js';
import type { QueueWorker } from '../jobs/queue.js';
import { deleteExpiredIdempotencyKeys } from './idempotency.repository.js';

const BATCH = 5_000;

export function purgeIdempotencyKeysWorker(db: Executor): QueueWorker {
  return {
    name: 'purge-idempotency-keys',
    schedule: '37 * * * *', // hourly
    async handle() {
      while ((await deleteExpiredIdempotencyKeys(db, BATCH)) === BATCH);
    },
  };
}
