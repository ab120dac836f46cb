// Transfer of a collection with everything inside it (spaces/transfer.service.ts runs the transfer).
import type { CollectionRow } from '../../access/standing.repository.js';
import { conflict } from '../../errors.js';
import { refuseCycle, runTransfer, spaceIdsInCollections, type TransferTarget, type Transferring } from '../spaces/index.js';
import { collectionSubtreeIds, removeTransferredCollections } from './collections.repository.js';
import { moveCollection } from './collections.service.js';

/** Transfers the collection and everything inside it to `target` (checked by the `transfer-target` access rule). */
export async function transferCollection(app: Transferring, collection: CollectionRow, target: TransferTarget): Promise<{ organizationId: string }> {
  if (target.organizationId === collection.organizationId) {
    if (target.parentId === collection.parentCollectionId) throw conflict('The collection is already there');
    await refuseCycle(app.db, collection.organizationId, collection.id, target.parentId);
    await moveCollection(app.db, collection, target.parentId, undefined);
  } else {
    await runTransfer(
      app,
      { from: collection.organizationId, to: target.organizationId, rootId: collection.id, targetParentId: target.parentId },
      async (trx) => {
        const collectionIds = await collectionSubtreeIds(trx, collection.organizationId, collection.id);
        return { collectionIds, spaceIds: await spaceIdsInCollections(trx, collection.organizationId, collectionIds) };
      },
      removeTransferredCollections,
    );
  }
  return { organizationId: target.organizationId };
}
