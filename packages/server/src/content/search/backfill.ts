// Spaces whose search rows were never built (content stored before the index existed) get them from
// their head, a batch per transaction: the space rows are locked, so no head move interleaves, and the
// next head move finds rows that reflect the head it starts from.
import type { Caches } from '../../caches.js';
import type { Database } from '../../db/database.js';
import type { JobWorker } from '../../jobs/queue.js';
import type { ParsePool } from '../../parsing/parse-pool.js';
import { loadPageTree } from '../tree-store.js';
import { lockUnindexedSpaces } from './index.repository.js';
import { rebuildSearchIndex } from './search-index.js';

const BATCH = 20;

/** Builds the rows of every space that has none; answers how many spaces it indexed. */
export async function backfillSearchIndex(db: Database, caches: Pick<Caches, 'trees'>, pool: ParsePool): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const spaces = await lockUnindexedSpaces(trx, BATCH);
      for (const space of spaces) {
        const head = await trx
          .selectFrom('spaces as s')
          .innerJoin('revisions as r', (join) => join.onRef('r.organizationId', '=', 's.organizationId').onRef('r.id', '=', 's.headRevisionId'))
          .select('r.pagesRoot')
          .where('s.organizationId', '=', space.organizationId)
          .where('s.id', '=', space.id)
          .executeTakeFirst();
        const tree = await loadPageTree(trx, caches, space.organizationId, head?.pagesRoot?.toString('hex') ?? null);
        await rebuildSearchIndex(trx, pool, space.organizationId, space.id, tree);
      }
      return spaces.length;
    });
    total += done;
    if (done < BATCH) return total;
  }
}

export function searchIndexBackfillWorker(db: Database, caches: Pick<Caches, 'trees'>, pool: ParsePool): JobWorker {
  return {
    name: 'search-index-backfill',
    schedule: '*/10 * * * *',
    async handle() {
      await backfillSearchIndex(db, caches, pool);
    },
  };
}
