// Spaces and collections under one parent share one order: a `numeric` position per item. Appending
// takes max + 1; placing between two neighbours takes their midpoint (exact in numeric, so repeated
// inserts at one spot never run out of room).
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

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
  const { rows } = await sql<{ position: string }>`
    SELECT (coalesce(max(position), 0) + 1)::text AS position FROM (${siblingsOf(organizationId, parentId)}) siblings`.execute(db);
  return rows[0]!.position;
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
  const table = reference.type === 'space' ? sql`spaces` : sql`collections`;
  const liveOnly = reference.type === 'space' ? sql`AND deleted_at IS NULL` : sql``;
  const neighbour =
    side === 'before'
      ? sql`(SELECT max(position) FROM siblings WHERE position < ref.position)`
      : sql`(SELECT min(position) FROM siblings WHERE position > ref.position)`;
  const step = side === 'before' ? sql`- 1` : sql`+ 1`;
  const { rows } = await sql<{ position: string }>`
    WITH siblings AS (${siblingsOf(organizationId, parentId, movingId)}),
    ref AS (
      SELECT position FROM ${table}
      WHERE organization_id = ${organizationId} AND id = ${reference.id}
        AND parent_collection_id IS NOT DISTINCT FROM ${parentId} ${liveOnly}
    )
    SELECT (CASE WHEN ${neighbour} IS NULL THEN ref.position ${step}
                 ELSE (ref.position + ${neighbour}) * 0.5 END)::text AS position
    FROM ref`.execute(db);
  return rows[0]?.position;
}
