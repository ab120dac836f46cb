// Space lifecycle: create (with its first, empty revision), update, delete, restore, move.
import type { components } from '@content-workspace/contract';
import type { Updateable } from 'kysely';
import { inTransaction, type Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { upsertGrant } from '../permissions/index.js';
import { insertRevision } from '../../content/revisions.repository.js';
import { insertSpace, updateSpace } from './spaces.repository.js';
import type { SpacesTable, Visibility } from '../../db/schema.js';
import { invalidField } from '../../errors.js';
import { newId } from '../../ids.js';
import { placeIn } from './placement.service.js';

type Schemas = components['schemas'];

export const UNTITLED = 'Untitled';

/** `in-collection` needs a parent collection (400 otherwise). */
export function checkVisibility(visibility: Visibility, parentId: string | null, path = '/body/visibility'): void {
  if (visibility === 'in-collection' && parentId === null) throw invalidField(path, '"in-collection" is only for spaces inside a collection');
}

/**
 * Creates a space with an empty first revision, its locator and the creator's `admin` grant, in one
 * transaction. The caller has checked the right to create in `parentId`.
 */
export async function createSpace(
  db: Executor,
  values: { organizationId: string; creatorId: string; parentId: string | null; body: Schemas['CreateSpaceRequest'] },
): Promise<SpaceRow> {
  const { organizationId, creatorId, parentId, body } = values;
  const visibility = body.visibility ?? (parentId ? 'in-collection' : 'private');
  checkVisibility(visibility, parentId);
  return inTransaction(db, async (trx) => {
    const spaceId = newId();
    const revisionId = newId();
    const space = await insertSpace(trx, {
      organizationId,
      id: spaceId,
      title: body.title ?? UNTITLED,
      emoji: body.emoji ?? '',
      visibility,
      parentCollectionId: parentId,
      defaultLevel: 'inherit',
      position: await placeIn(trx, organizationId, parentId, undefined),
      headRevisionId: revisionId,
      createdBy: creatorId,
    });
    await insertRevision(trx, { organizationId, id: revisionId, spaceId, type: 'edits', parentIds: [], createdBy: creatorId });
    await upsertGrant(trx, { kind: 'space', organizationId, id: spaceId }, { kind: 'user', id: creatorId }, 'admin');
    return space;
  });
}

export async function patchSpace(db: Executor, space: SpaceRow, body: Schemas['UpdateSpaceRequest']): Promise<SpaceRow> {
  const patch: Updateable<SpacesTable> = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.emoji !== undefined) patch.emoji = body.emoji;
  if (body.editMode !== undefined) patch.editMode = body.editMode;
  if (body.defaultLevel !== undefined) patch.defaultLevel = body.defaultLevel;
  if (body.visibility !== undefined) {
    checkVisibility(body.visibility, space.parentCollectionId);
    patch.visibility = body.visibility;
  }
  return updateSpace(db, space.organizationId, space.id, patch);
}

export async function deleteSpace(db: Executor, space: SpaceRow): Promise<SpaceRow> {
  return updateSpace(db, space.organizationId, space.id, { deletedAt: new Date() });
}

/** Brings a deleted space back; one whose collection is gone returns to the top level, as `private`. */
export async function restoreSpace(db: Executor, space: SpaceRow): Promise<SpaceRow> {
  const leftItsCollection = space.parentCollectionId === null && space.visibility === 'in-collection';
  return updateSpace(db, space.organizationId, space.id, { deletedAt: null, ...(leftItsCollection ? { visibility: 'private' } : {}) });
}

/** Moves the space under `parentId` at `position` (access to the target already checked). */
export async function moveSpace(
  db: Executor,
  space: SpaceRow,
  parentId: string | null,
  position: Schemas['Position'] | undefined,
): Promise<SpaceRow> {
  return inTransaction(db, async (trx) => {
    const placed = await placeIn(trx, space.organizationId, parentId, position, space.id);
    const leavesCollection = parentId === null && space.visibility === 'in-collection';
    return updateSpace(trx, space.organizationId, space.id, {
      parentCollectionId: parentId,
      position: placed,
      ...(leavesCollection ? { visibility: 'private' } : {}),
    });
  });
}

