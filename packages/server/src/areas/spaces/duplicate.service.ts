// Duplicating a space (docs/design/data-lifecycle.md, "Duplicate"): a new space row and one `edits` revision pointing at
// the same three roots (content objects are shared, so the copy costs O(1) in content), then each area's
// duplicate steps (the content area copies the materialised head rows). History, change requests and
// comments stay with the original.
import type { Lifecycle } from '../lifecycle.js';
import type { Caches } from '../../caches.js';
import { inTransaction, type Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { upsertGrant } from '../permissions/index.js';
import { insertRevision } from '../../content/revisions.repository.js';
import { insertSpace, lockSpaceHeadRevision } from './spaces.repository.js';
import { newId } from '../../ids.js';
import { requireRevision } from '../../content/space-revision.js';
import { placeIn } from './placement.service.js';

const TITLE_MAX = 50;
const SUFFIX = ' (copy)';

export function copyTitle(title: string): string {
  return `${title.slice(0, TITLE_MAX - SUFFIX.length).trimEnd()}${SUFFIX}`;
}

/** Copies the space's head content into a new space right after it (access checked by the caller). */
export async function duplicateSpace(db: Executor, lifecycle: Lifecycle, caches: Pick<Caches, 'revisions'>, space: SpaceRow, creatorId: string): Promise<SpaceRow> {
  return inTransaction(db, async (trx) => {
    // The head as of this transaction: the space row read for the access check may be behind.
    const head = await requireRevision(trx, caches, space, await lockSpaceHeadRevision(trx, space.organizationId, space.id));
    const spaceId = newId();
    const revisionId = newId();
    const copy = await insertSpace(trx, {
      organizationId: space.organizationId,
      id: spaceId,
      title: copyTitle(space.title),
      emoji: space.emoji,
      visibility: space.visibility,
      parentCollectionId: space.parentCollectionId,
      defaultLevel: space.defaultLevel,
      position: await placeIn(trx, space.organizationId, space.parentCollectionId, { after: { type: 'space', space: space.id } }),
      headRevisionId: revisionId,
      createdBy: creatorId,
      editMode: space.editMode,
    });
    await insertRevision(trx, {
      organizationId: space.organizationId,
      id: revisionId,
      spaceId,
      type: 'edits',
      parentIds: [],
      pagesRoot: head.pagesRoot,
      filesRoot: head.filesRoot,
      reusableRoot: head.reusableRoot,
      pageCount: head.pageCount,
      createdBy: creatorId,
    });
    await lifecycle.duplicate(trx, { organizationId: space.organizationId, sourceSpaceId: space.id, copySpaceId: spaceId });
    await upsertGrant(trx, { kind: 'space', organizationId: space.organizationId, id: spaceId }, { kind: 'user', id: creatorId }, 'admin');
    return copy;
  });
}
