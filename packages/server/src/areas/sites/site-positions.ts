// Sibling order inside a site, the same way spaces and collections are ordered (areas/spaces/
// positions.repository.ts): a `numeric` position per item, max + 1 to append, the midpoint of two
// neighbours to insert (exact, so repeated inserts at one spot never run out of room). A sibling set
// is any query yielding `id, position`: the site's top level (sections outside groups, and groups), a
// group's sections, or the site spaces of one section (or of the root).
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import { positionBesideReference } from '../../db/positions.js';
import { rawQuery, value } from '../../db/raw-query.js';

export type Siblings = RawBuilder<unknown>;

/** Sections outside groups, and groups: the site's top level. */
export const topLevel = (organizationId: string, siteId: string): Siblings => sql`
  SELECT id, position FROM site_sections WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND group_id IS NULL
  UNION ALL
  SELECT id, position FROM site_section_groups WHERE organization_id = ${organizationId} AND site_id = ${siteId}`;

export const groupSections = (organizationId: string, siteId: string, groupId: string): Siblings => sql`
  SELECT id, position FROM site_sections WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND group_id = ${groupId}`;

/** The site spaces of a section (`sectionId` null: the site's root). */
export const siteSpaceSiblings = (organizationId: string, siteId: string, sectionId: string | null): Siblings => sql`
  SELECT id, position FROM site_spaces WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND section_key = ${sectionId ?? ''}`;

/** A position after every sibling. */
export async function positionAtEnd(db: Executor, siblings: Siblings): Promise<string> {
  const [row] = await positionAtEndQuery.rows(db, siblings);
  return row!.position;
}

/** A position just before or after the sibling `referenceId`, ignoring `movingId`; undefined when `referenceId` is no sibling. */
export async function positionBeside(db: Executor, siblings: Siblings, referenceId: string, side: 'before' | 'after', movingId?: string): Promise<string | undefined> {
  const [row] = await positionBesideQuery.rows(db, siblings, referenceId, side, movingId);
  return row?.position;
}

/** `count` positions in a row right after `afterId`'s (before its next sibling), for items moving there together. */
export async function positionsAfter(db: Executor, siblings: Siblings, afterId: string, count: number): Promise<string[]> {
  const rows = await positionsAfterQuery.rows(db, siblings, afterId, count);
  return rows.map((row) => row.position);
}

// Each statement over each kind of sibling set (raw-query.ts: the shapes the raw-SQL test describes).
const SIBLING_SETS = [topLevel('', ''), groupSections('', '', ''), siteSpaceSiblings('', '', null)];

const positionAtEndQuery = rawQuery({
  name: 'sitePositionAtEnd',
  columns: { position: value('text') },
  statement: (siblings: Siblings) => sql`SELECT (coalesce(max(position), 0) + 1)::text AS position FROM (${siblings}) siblings`,
  shapes: SIBLING_SETS.map((siblings): [Siblings] => [siblings]),
});

const positionBesideQuery = rawQuery({
  name: 'sitePositionBeside',
  columns: { position: value('text').neverNull("the reference's position, or the midpoint with its neighbour") },
  statement: (siblings: Siblings, referenceId: string, side: 'before' | 'after', movingId?: string) => sql`
    WITH others AS (SELECT id, position FROM (${siblings}) s WHERE id IS DISTINCT FROM ${movingId ?? null}),
    ref AS (SELECT position FROM others WHERE id = ${referenceId})
    SELECT ${positionBesideReference('others', side)} AS position
    FROM ref`,
  shapes: SIBLING_SETS.flatMap((siblings) => [
    [siblings, '', 'before'] as const,
    [siblings, '', 'after', ''] as const,
  ]),
});

const positionsAfterQuery = rawQuery({
  name: 'sitePositionsAfter',
  columns: { position: value('text').neverNull('between two positions (the next sibling, or past the end)') },
  statement: (siblings: Siblings, afterId: string, count: number) => sql`
    WITH s AS (SELECT id, position FROM (${siblings}) s),
    ref AS (SELECT position FROM s WHERE id = ${afterId}),
    bounds AS (SELECT ref.position AS low, coalesce((SELECT min(position) FROM s WHERE position > ref.position), ref.position + ${count + 1}) AS high FROM ref)
    SELECT (low + (high - low) * i / ${count + 1})::text AS position FROM bounds, generate_series(1, ${count}) AS i ORDER BY i`,
  shapes: SIBLING_SETS.map((siblings): [Siblings, string, number] => [siblings, '', 1]),
});
