// Transfer of a space or a collection (with everything inside it) to another organization, or to
// another collection of the same one (then it is a move). Across organizations every area copies its
// rows under the target organization (its `transfer` steps, collected from the area descriptors into
// `lifecycle.transfer`), then the originals are deleted (design/content-model.md §7: the distribution
// column is never updated), in one transaction.
import type { components } from '@content-workspace/contract';
import { sql } from 'kysely';
import { requireCollection } from '../../access/items.js';
import type { Caller } from '../../auth/authenticate.js';
import { requireOrganizationMember, requireOrganizationRole } from '../../access/organization.js';
import { roleAtLeast } from '../../access/roles.js';
import type { Database, Executor } from '../../db/database.js';
import type { CollectionRow, SpaceRow } from '../../access/standing.repository.js';
import { collectionSubtreeIds } from '../collections/collections.repository.js';
import { positionAtEnd } from './positions.repository.js';
import { conflict, forbidden, preconditionFailed } from '../../errors.js';
import type { TransferScope, TransferStep } from '../area.js';
import type { Lifecycle } from '../lifecycle.js';
import { moveCollection } from '../collections/collections.service.js';
import { refuseCycle } from './placement.service.js';
import { moveSpace } from './spaces.service.js';

type TransferRequest = components['schemas']['TransferRequest'];

export const copyCollections: TransferStep = async (trx, s) => {
  if (s.collectionIds.length === 0) return;
  await sql`
    INSERT INTO collections (organization_id, id, title, description, parent_collection_id, default_level, position, created_by, created_at, updated_at)
    SELECT ${s.to}, id, title, description,
      CASE WHEN id = ${s.rootId} THEN ${s.targetParentId} ELSE parent_collection_id END,
      default_level,
      CASE WHEN id = ${s.rootId} THEN ${s.rootPosition}::numeric ELSE position END,
      created_by, created_at, now()
    FROM collections WHERE organization_id = ${s.from} AND id = ANY(${s.collectionIds})`.execute(trx);
};

export const copySpaces: TransferStep = async (trx, s) => {
  if (s.spaceIds.length === 0) return;
  // The transferred space itself leaves its collection: `in-collection` becomes `private` (DESIGN.md §4).
  await sql`
    INSERT INTO spaces (organization_id, id, title, emoji, visibility, edit_mode, parent_collection_id, default_level, position,
      head_revision_id, cr_seq, comments_count, change_requests_count, change_requests_open_count, change_requests_draft_count,
      created_by, created_at, updated_at, deleted_at)
    SELECT ${s.to}, id, title, emoji,
      CASE WHEN id = ${s.rootId} AND visibility = 'in-collection' THEN 'private' ELSE visibility END,
      edit_mode,
      CASE WHEN id = ${s.rootId} THEN ${s.targetParentId} ELSE parent_collection_id END,
      default_level,
      CASE WHEN id = ${s.rootId} THEN ${s.rootPosition}::numeric ELSE position END,
      head_revision_id, cr_seq, comments_count, change_requests_count, change_requests_open_count, change_requests_draft_count,
      created_by, created_at, now(), deleted_at
    FROM spaces WHERE organization_id = ${s.from} AND id = ANY(${s.spaceIds})`.execute(trx);
};

/** User grants travel when the user is a member of the target organization; team grants cannot (teams belong to one organization). */
export const copyGrants: TransferStep = async (trx, s) => {
  for (const [table, column, ids] of [
    ['space_grants', 'space_id', s.spaceIds],
    ['collection_grants', 'collection_id', s.collectionIds],
  ] as const) {
    if (ids.length === 0) continue;
    await sql`
      INSERT INTO ${sql.table(table)} (organization_id, ${sql.ref(column)}, principal_kind, principal_id, role, granted_at)
      SELECT ${s.to}, g.${sql.ref(column)}, g.principal_kind, g.principal_id, g.role, g.granted_at
      FROM ${sql.table(table)} g
      JOIN organization_members m ON m.organization_id = ${s.to} AND m.user_id = g.principal_id
      WHERE g.organization_id = ${s.from} AND g.${sql.ref(column)} = ANY(${ids}) AND g.principal_kind = 'user'`.execute(trx);
  }
};

export const copyRevisions: TransferStep = async (trx, s) => {
  if (s.spaceIds.length === 0) return;
  await sql`
    INSERT INTO revisions (organization_id, id, space_id, type, parent_ids, change_request_id, merged_from_change_request_id,
      pages_root, files_root, reusable_root, page_count, created_by, created_at, git)
    SELECT ${s.to}, id, space_id, type, parent_ids, change_request_id, merged_from_change_request_id,
      pages_root, files_root, reusable_root, page_count, created_by, created_at, git
    FROM revisions WHERE organization_id = ${s.from} AND space_id = ANY(${s.spaceIds})`.execute(trx);
};

/** Removes the originals (their dependent rows go by cascade) and points the locators at the target. */
async function removeOriginals(trx: Executor, s: TransferScope): Promise<void> {
  if (s.spaceIds.length) {
    await trx.deleteFrom('spaces').where('organizationId', '=', s.from).where('id', 'in', s.spaceIds).execute();
    await trx.updateTable('spaceLocators').set({ organizationId: s.to }).where('spaceId', 'in', s.spaceIds).execute();
  }
  if (s.collectionIds.length) {
    await trx.deleteFrom('collections').where('organizationId', '=', s.from).where('id', 'in', s.collectionIds).execute();
    await trx.updateTable('collectionLocators').set({ organizationId: s.to }).where('collectionId', 'in', s.collectionIds).execute();
  }
}

type ScopeBase = Omit<TransferScope, 'rootPosition' | 'collectionIds' | 'spaceIds'>;

/** Runs every step and removes the originals in one transaction; `contents` lists what moves, read inside it. */
async function runTransfer(
  db: Database,
  lifecycle: Lifecycle,
  scope: ScopeBase,
  contents: (trx: Executor) => Promise<Pick<TransferScope, 'collectionIds' | 'spaceIds'>>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rootPosition = await positionAtEnd(trx, scope.to, scope.targetParentId);
    const full = { ...scope, ...(await contents(trx)), rootPosition };
    for (const step of lifecycle.transfer) await step(trx, full);
    await removeOriginals(trx, full);
  });
}

/**
 * The target of a transfer, checked: the organization (404 when the caller is not a member, 403 below
 * admin) and the collection (404 when not visible, 412 when outside the target organization, 403
 * below `create`).
 */
export type TransferTarget = { organizationId: string; parentId: string | null };

export async function resolveTransferTarget(db: Executor, caller: Caller, body: TransferRequest): Promise<TransferTarget> {
  const target = await requireOrganizationMember(db, caller, body.organization);
  requireOrganizationRole(target, 'admin');
  if (!body.collection) return { organizationId: target.organization.id, parentId: null };
  const collection = await requireCollection(db, caller, body.collection, 'read');
  if (collection.collection.organizationId !== target.organization.id) {
    throw preconditionFailed('The target collection is not in the target organization');
  }
  if (!roleAtLeast(collection.role, 'create')) throw forbidden('This needs the "create" role on the target collection');
  return { organizationId: target.organization.id, parentId: collection.collection.id };
}

/** Transfers the space to `target` (checked by the `transfer-target` access rule). */
export async function transferSpace(db: Database, lifecycle: Lifecycle, space: SpaceRow, target: TransferTarget): Promise<{ organizationId: string }> {
  if (target.organizationId === space.organizationId) {
    if (target.parentId === space.parentCollectionId) throw conflict('The space is already there');
    await moveSpace(db, space, target.parentId, undefined);
  } else {
    await runTransfer(
      db,
      lifecycle,
      { from: space.organizationId, to: target.organizationId, rootId: space.id, targetParentId: target.parentId },
      async () => ({ collectionIds: [], spaceIds: [space.id] }),
    );
  }
  return { organizationId: target.organizationId };
}

/** Transfers the collection and everything inside it to `target` (checked by the `transfer-target` access rule). */
export async function transferCollection(db: Database, lifecycle: Lifecycle, collection: CollectionRow, target: TransferTarget): Promise<{ organizationId: string }> {
  if (target.organizationId === collection.organizationId) {
    if (target.parentId === collection.parentCollectionId) throw conflict('The collection is already there');
    await refuseCycle(db, collection.organizationId, collection.id, target.parentId);
    await moveCollection(db, collection, target.parentId, undefined);
  } else {
    await runTransfer(
      db,
      lifecycle,
      { from: collection.organizationId, to: target.organizationId, rootId: collection.id, targetParentId: target.parentId },
      async (trx) => {
        const collectionIds = await collectionSubtreeIds(trx, collection.organizationId, collection.id);
        const spaces = await trx
          .selectFrom('spaces')
          .select('id')
          .where('organizationId', '=', collection.organizationId)
          .where('parentCollectionId', 'in', collectionIds)
          .execute();
        return { collectionIds, spaceIds: spaces.map((row) => row.id) };
      },
    );
  }
  return { organizationId: target.organizationId };
}
