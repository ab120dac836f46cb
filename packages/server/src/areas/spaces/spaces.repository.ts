import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { DefaultLevel, EditMode, SpacesTable, Visibility } from '../../db/schema.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import type { TransferScope } from '../area.js';

export type NewSpace = {
  organizationId: string;
  id: string;
  title: string;
  emoji: string;
  visibility: Visibility;
  parentCollectionId: string | null;
  defaultLevel: DefaultLevel;
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

/** Soft-deletes the live spaces inside any of `collectionIds`; returns them as they are now. */
export async function softDeleteSpacesInCollections(db: Executor, organizationId: string, collectionIds: string[]): Promise<SpaceRow[]> {
  if (collectionIds.length === 0) return [];
  return (await db
    .updateTable('spaces')
    .set({ deletedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('parentCollectionId', 'in', collectionIds)
    .where('deletedAt', 'is', null)
    .returningAll()
    .execute()) as SpaceRow[];
}

/** The organization's spaces of `ids` (deleted ones included). */
export async function findSpaceRows(db: Executor, organizationId: string, ids: readonly string[]): Promise<SpaceRow[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('spaces').selectAll().where('organizationId', '=', organizationId).where('id', 'in', ids).execute()) as SpaceRow[];
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

/** After a transfer copied them: removes the original spaces (their dependent rows go by cascade) and points their locators at the target. */
export async function removeTransferredSpaces(trx: Executor, s: TransferScope): Promise<void> {
  if (s.spaceIds.length === 0) return;
  await trx.deleteFrom('spaces').where('organizationId', '=', s.from).where('id', 'in', s.spaceIds).execute();
  await trx.updateTable('spaceLocators').set({ organizationId: s.to }).where('spaceId', 'in', s.spaceIds).execute();
}

/** The spaces (deleted ones included) directly inside any of `collectionIds`. */
export async function spaceIdsInCollections(db: Executor, organizationId: string, collectionIds: string[]): Promise<string[]> {
  if (collectionIds.length === 0) return [];
  const rows = await db.selectFrom('spaces').select('id').where('organizationId', '=', organizationId).where('parentCollectionId', 'in', collectionIds).execute();
  return rows.map((row) => row.id);
}

/** The space's head revision id, the row locked against head moves until the transaction ends. */
export async function lockSpaceHeadRevision(trx: Executor, organizationId: string, spaceId: string): Promise<string> {
  const row = await trx.selectFrom('spaces').select('headRevisionId').where('organizationId', '=', organizationId).where('id', '=', spaceId).forShare().executeTakeFirstOrThrow();
  return row.headRevisionId;
}

/** Spaces deleted more than `retentionDays` ago, up to `limit`, locked (skipping those another purge holds). */
export async function lockExpiredSpaces(trx: Executor, retentionDays: number, limit: number) {
  return trx
    .selectFrom('spaces')
    .select(['organizationId', 'id'])
    .where('deletedAt', '<', sql<Date>`now() - make_interval(days => ${retentionDays})`)
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Deletes the spaces for good (their dependent rows go by cascade) and their locators. */
export async function deleteSpacesForGood(trx: Executor, spaces: Array<{ organizationId: string; id: string }>): Promise<void> {
  const ids = spaces.map((space) => space.id);
  const organizationIds = spaces.map((space) => space.organizationId);
  await sql`
    DELETE FROM spaces s USING unnest(${organizationIds}::text[], ${ids}::text[]) AS e(organization_id, id)
    WHERE s.organization_id = e.organization_id AND s.id = e.id`.execute(trx);
  await sql`DELETE FROM space_locators WHERE space_id = ANY(${ids}::text[])`.execute(trx);
}
