// Sweeps the content objects that no revision reaches any more, in the organizations a purge or a
// transfer out marked (content/garbage-collection.ts).
import type { Executor } from '../db/database.js';
import type { BlobStore } from './blob-store.js';
import { collectMarkedGarbage } from './garbage-collection.js';
import type { JobWorker } from '../jobs/queue.js';

export function collectContentGarbageWorker(db: Executor, blobs: BlobStore): JobWorker {
  return {
    name: 'collect-content-garbage',
    schedule: '47 * * * *', // hourly, after the purge (minute 17) has marked what it removed
    async handle() {
      await collectMarkedGarbage(db, blobs);
    },
  };
}
