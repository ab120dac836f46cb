// Garbage collection of content objects (docs/decisions.md, Content store). Objects are shared by
// content address between the revisions of all of an organization's spaces, so deleting a space
// cannot delete them; purges and transfers out mark the organization instead. Collection is
// mark-and-sweep: walk every revision the organization still has (deleted-but-restorable spaces and
// change requests included), then delete every node, body and blob not reached. The walk runs while
// writers carry on; then the collection takes the organization's content-object lock exclusively (no
// writer stores or reuses an object meanwhile), continues the walk from the revisions written since
// (reading only their new nodes), and sweeps. Writes pause only for that last part.
import { inTransaction, type Executor } from '../db/database.js';
import {
  clearGarbageMark,
  deleteObjectsNotIn,
  lockContentObjects,
  lockGarbageCollector,
  markedForGarbage,
  type ObjectTable,
} from './content-objects.repository.js';
import type { BlobStore } from './blob-store.js';
import { reachableContent } from './reachability.js';

/** How many objects of each kind a collection deleted. */
export type CollectedGarbage = Record<ObjectTable, number>;

/** Collects one organization's unreachable objects, in one transaction. */
export async function collectContentGarbage(db: Executor, blobs: BlobStore, organizationId: string): Promise<CollectedGarbage> {
  return inTransaction(db, async (trx) => {
    // Only garbage collection deletes objects, so with one collector per organization nothing the
    // first walk loaded can disappear before the sweep.
    await lockGarbageCollector(trx, organizationId);
    const walked = await reachableContent(trx, { organizationId });
    await lockContentObjects(trx, organizationId, 'exclusive');
    const reached = await reachableContent(trx, { organizationId }, walked);
    const unreached = await deleteObjectsNotIn(trx, 'fileBlobs', organizationId, reached.blobs);
    await blobs.remove(trx, organizationId, unreached);
    return {
      treeNodes: (await deleteObjectsNotIn(trx, 'treeNodes', organizationId, reached.treeNodes)).length,
      fileNodes: (await deleteObjectsNotIn(trx, 'fileNodes', organizationId, reached.fileNodes)).length,
      reusableNodes: (await deleteObjectsNotIn(trx, 'reusableNodes', organizationId, reached.reusableNodes)).length,
      documents: (await deleteObjectsNotIn(trx, 'documents', organizationId, reached.documents)).length,
      fileBlobs: unreached.length,
    };
  });
}

/** Organizations swept per run; the next run takes the rest. */
const ORGANIZATIONS_PER_RUN = 1000;

/** Collects the marked organizations, oldest mark first; answers how many it swept. */
export async function collectMarkedGarbage(db: Executor, blobs: BlobStore): Promise<number> {
  const marks = await markedForGarbage(db, ORGANIZATIONS_PER_RUN);
  for (const mark of marks) {
    await collectContentGarbage(db, blobs, mark.organizationId);
    // A mark renewed during the sweep stays for the next run: its garbage may postdate the walk.
    await clearGarbageMark(db, mark.organizationId, mark.markedAt);
  }
  return marks.length;
}
