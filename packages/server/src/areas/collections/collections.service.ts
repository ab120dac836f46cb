// Collection lifecycle: create, update, delete (with everything inside), move.
import type { components } from '@content-workspace/contract';
import type { Updateable } from 'kysely';
import { inTransaction, type Executor } from '../../db/database.js';
import type { CollectionRow, SpaceRow } from '../../access/standing.repository.js';
import { collectionSubtreeIds, deleteCollections, insertCollection, updateCollection } from './collections.repository.js';
import { upsertGrant } from '../permissions/index.js';
import { placeIn, refuseCycle, softDeleteSpacesInCollections, UNTITLED } from '../spaces/index.js';
import type { CollectionsTable } from '../../db/schema.js';
import { newId } from '../../ids.js';

type Schemas = components['schemas'];

/** Creates the collection with its locator and the creator's `admin` grant (access already checked). */
export async function createCollection(
  db: Executor,
  values: { organizationId: string; creatorId: string; parentId: string | null; body: Schemas['CreateCollectionRequest'] },
): Promise<CollectionRow> {
  const { organizationId, creatorId, parentId, body } = values;
  return inTransaction(db, async (trx) => {
    const collection = await insertCollection(trx, {
      organizationId,
      id: newId(),
      title: body.title ?? UNTITLED,
      description: body.description ?? null,
      parentCollectionId: parentId,
      defaultLevel: body.defaultLevel === undefined ? 'inherit' : body.defaultLevel,
      position: await placeIn(trx, organizationId, parentId, undefined),
      createdBy: creatorId,
    });
    await upsertGrant(trx, { kind: 'collection', organizationId, id: collection.id }, { kind: 'user', id: creatorId }, 'admin');
    return collection;
  });
}

export async function patchCollection(db: Executor, collection: CollectionRow, body: Schemas['UpdateCollectionRequest']): Promise<CollectionRow> {
  const patch: Updateable<CollectionsTable> = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.description !== undefined) patch.description = body.description || null;
  if (body.defaultLevel !== undefined) patch.defaultLevel = body.defaultLevel;
  return updateCollection(db, collection.organizationId, collection.id, patch);
}

/**
 * Deletes the collection and its nested collections, and soft-deletes every space inside them
 * (restorable for 7 days, then back at the top level), in one transaction. Returns the spaces deleted.
 */
export async function deleteCollectionTree(db: Executor, collection: CollectionRow): Promise<{ deletedSpaces: SpaceRow[] }> {
  return inTransaction(db, async (trx) => {
    const subtree = await collectionSubtreeIds(trx, collection.organizationId, collection.id);
    const deletedSpaces = await softDeleteSpacesInCollections(trx, collection.organizationId, subtree);
    await deleteCollections(trx, collection.organizationId, subtree);
    return { deletedSpaces };
  });
}

/** Moves the collection under `parentId` (412 for its own subtree; access to the target already checked). */
export async function moveCollection(
  db: Executor,
  collection: CollectionRow,
  parentId: string | null,
  position: Schemas['Position'] | undefined,
): Promise<CollectionRow> {
  return inTransaction(db, async (trx) => {
    await refuseCycle(trx, collection.organizationId, collection.id, parentId);
    const placed = await placeIn(trx, collection.organizationId, parentId, position, collection.id);
    return updateCollection(trx, collection.organizationId, collection.id, { parentCollectionId: parentId, position: placed });
  });
}
