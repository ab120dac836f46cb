// Spaces and collections under one parent share one order: a `numeric` position per item. Appending
// takes max + 1; placing between two neighbours takes their midpoint (exact in numeric, so repeated
// inserts at one spot never run out of room).
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { positionBesideReference } from '../../db/positions.js';
import { rawQuery, value } from '../../db/raw-query.js';

export type SiblingRef = { type: 'space'; id: string } | { type: 'collection'; id: string };

const siblingsOf = (organizationId: string, parentId: string | null, excludeId?: string) => sql`
  SELECT id, position FROM spaces
  WHERE organization_id = ${organizationId} AND parent_collection_id IS NOT DISTINCT FROM ${parentId} AND deleted_at IS NULL
    AND id IS DISTINCT FROM ${excludeId ?? null}
  UNION ALL
  SELECT id, position FROM collections
  WHERE organization_id = ${organizationId} AND parent_collection_id IS NOT DISTINCT FROM ${parentId}
    AND id IS DISTINCT FROM ${excludeId ?? null}`;

/** A position after every current child of `parentId` (null: the top level). */
export async function positionAtEnd(db: Executor, organizationId: string, parentId: string | null): Promise<string> {
  const [row] = await positionAtEndQuery.rows(db, organizationId, parentId);
  return row!.position;
}

/**
 * A position just before or after `reference`, a child of `parentId`, ignoring `movingId` (the item
 * being placed). Undefined when `reference` is not a child of `parentId`.
 */
export async function positionNextTo(
  db: Executor,
  organizationId: string,
  parentId: string | null,
  reference: SiblingRef,
  side: 'before' | 'after',
  movingId?: string,
): Promise<string | undefined> {
  const [row] = await positionNextToQuery.rows(db, organizationId, parentId, reference, side, movingId);
  return row?.position;
}

const positionAtEndQuery = rawQuery({
  name: 'positionAtEnd',
  columns: { position: value('text') },
  statement: (organizationId: string, parentId: string | null) => sql`
    SELECT (coalesce(max(position), 0) + 1)::text AS position FROM (${siblingsOf(organizationId, parentId)}) siblings`,
  shapes: [['', null]],
});

const positionNextToQuery = rawQuery({
  name: 'positionNextTo',
  columns: { position: value('text').neverNull("the reference's position, or the midpoint with its neighbour") },
  statement: (organizationId: string, parentId: string | null, reference: SiblingRef, side: 'before' | 'after', movingId?: string) => {
    const table = reference.type === 'space' ? sql`spaces` : sql`collections`;
    const liveOnly = reference.type === 'space' ? sql`AND deleted_at IS NULL` : sql``;
    return sql`
      WITH siblings AS (${siblingsOf(organizationId, parentId, movingId)}),
      ref AS (
        SELECT position FROM ${table}
        WHERE organization_id = ${organizationId} AND id = ${reference.id}
          AND parent_collection_id IS NOT DISTINCT FROM ${parentId} ${liveOnly}
      )
      SELECT ${positionBesideReference('siblings', side)} AS position
      FROM ref`;
  },
  shapes: [
    ['', null, { type: 'space', id: '' }, 'before'],
    ['', '', { type: 'collection', id: '' }, 'after', ''],
  ],
});

// Placement refuses cycles in the collection tree (placement.service.ts): it lives here, with the
// positions, so that spaces never import the collections area (collections build on spaces).
/** The ids of `collectionId` and every collection above it. */
export async function collectionAncestry(db: Executor, organizationId: string, collectionId: string): Promise<string[]> {
  const rows = await ancestryQuery.rows(db, organizationId, collectionId);
  return rows.map((row) => row.id);
}

const ancestryQuery = rawQuery({
  name: 'collectionAncestry',
  columns: { id: value('text') },
  statement: (organizationId: string, collectionId: string) => sql`
    WITH RECURSIVE chain AS (
      SELECT id, parent_collection_id FROM collections WHERE organization_id = ${organizationId} AND id = ${collectionId}
      UNION ALL
      SELECT c.id, c.parent_collection_id FROM collections c JOIN chain ON c.id = chain.parent_collection_id
      WHERE c.organization_id = ${organizationId}
    )
    SELECT id FROM chain`,
  shapes: [['', '']],
});
