import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { EditMode, SpacesTable } from '../../db/schema.js';
import type { SpaceRow } from '../../access/standing.repository.js';

export type NewSpace = {
  organizationId: string;
  id: string;
  title: string;
  emoji: string;
  visibility: SpacesTable['visibility'];
  parentCollectionId: string | null;
  defaultLevel: SpacesTable['defaultLevel'];
  position: string;
  headRevisionId: string;
  createdBy: string | null;
  /** Defaults to `live`. */
  editMode?: EditMode;
};

export async function insertSpace(db: Executor, values: NewSpace): Promise<SpaceRow> {
  const row = await db.insertInto('spaces').values(values).returningAll().executeTakeFirstOrThrow();
  await db.insertInto('spaceLocators').values({ spaceId: values.id, organizationId: values.organizationId }).execute();
  return row as SpaceRow;
}

export async function updateSpace(db: Executor, organizationId: string, id: string, patch: Updateable<SpacesTable>): Promise<SpaceRow> {
  return (await db
    .updateTable('spaces')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()) as SpaceRow;
}

/** Live spaces directly inside a collection (or at the top level), in their order. */
export function spacesInParentQuery(db: Executor, organizationId: string, parentId: string | null) {
  return db
    .selectFrom('spaces')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('parentCollectionId', parentId === null ? 'is' : '=', parentId)
    .where('deletedAt', 'is', null);
}

/** Soft-deletes the live spaces inside any of `collectionIds`. */
export async function softDeleteSpacesInCollections(db: Executor, organizationId: string, collectionIds: string[]): Promise<number> {
  if (collectionIds.length === 0) return 0;
  const result = await db
    .updateTable('spaces')
    .set({ deletedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('parentCollectionId', 'in', collectionIds)
    .where('deletedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The organization of a live (not deleted) space, from its locator. */
export async function findLiveSpaceOrganization(db: Executor, spaceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('spaceLocators as l')
    .innerJoin('spaces as s', (join) => join.onRef('s.organizationId', '=', 'l.organizationId').onRef('s.id', '=', 'l.spaceId'))
    .select('s.organizationId')
    .where('l.spaceId', '=', spaceId)
    .where('s.deletedAt', 'is', null)
    .executeTakeFirst();
  return row?.organizationId;
}
