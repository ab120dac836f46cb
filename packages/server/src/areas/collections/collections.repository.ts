import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { rawQuery, value } from '../../db/raw-query.js';
import type { CollectionsTable, DefaultLevel } from '../../db/schema.js';
import type { CollectionRow } from '../../access/standing.repository.js';
import type { TransferScope } from '../area.js';

export type NewCollection = {
  organizationId: string;
  id: string;
  title: string;
  description: string | null;
  parentCollectionId: string | null;
  defaultLevel: DefaultLevel;
  position: string;
  createdBy: string | null;
};

export async function insertCollection(db: Executor, values: NewCollection): Promise<CollectionRow> {
  const row = await db.insertInto('collections').values(values).returningAll().executeTakeFirstOrThrow();
  await db.insertInto('collectionLocators').values({ collectionId: values.id, organizationId: values.organizationId }).execute();
  return row as CollectionRow;
}

export async function updateCollection(
  db: Executor,
  organizationId: string,
  id: string,
  patch: Updateable<CollectionsTable>,
): Promise<CollectionRow> {
  return (await db
    .updateTable('collections')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()) as CollectionRow;
}

export async function findCollectionRow(db: Executor, organizationId: string, id: string): Promise<CollectionRow | undefined> {
  return (await db.selectFrom('collections').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst()) as CollectionRow | undefined;
}

/** The collection and every collection nested under it, at any depth. */
export async function collectionSubtreeIds(db: Executor, organizationId: string, collectionId: string): Promise<string[]> {
  const rows = await subtreeQuery.rows(db, organizationId, collectionId);
  return rows.map((row) => row.id);
}

const subtreeQuery = rawQuery({
  name: 'collectionSubtree',
  columns: { id: value('text') },
  statement: (organizationId: string, collectionId: string) => sql`
    WITH RECURSIVE subtree AS (
      SELECT id FROM collections WHERE organization_id = ${organizationId} AND id = ${collectionId}
      UNION ALL
      SELECT c.id FROM collections c JOIN subtree ON c.parent_collection_id = subtree.id
      WHERE c.organization_id = ${organizationId}
    )
    SELECT id FROM subtree`,
  shapes: [['', '']],
});

/** Deletes collections and their locators; nested ones go by cascade (pass the whole subtree). */
export async function deleteCollections(db: Executor, organizationId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('collections').where('organizationId', '=', organizationId).where('id', 'in', ids).execute();
  await db.deleteFrom('collectionLocators').where('collectionId', 'in', ids).execute();
}

/** After a transfer copied them: removes the original collections and points their locators at the target. */
export async function removeTransferredCollections(trx: Executor, s: TransferScope): Promise<void> {
  if (s.collectionIds.length === 0) return;
  await trx.deleteFrom('collections').where('organizationId', '=', s.from).where('id', 'in', s.collectionIds).execute();
  await trx.updateTable('collectionLocators').set({ organizationId: s.to }).where('collectionId', 'in', s.collectionIds).execute();
}
