// SQL of a site's structure: sections, section groups and site spaces. Lists come in the site's order:
// the top level (sections outside groups, and groups) by position, a group's sections in its place.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SortKey } from '../../db/pagination.js';
import { column, rawQuery, value, type RowOf } from '../../db/raw-query.js';
import type { SiteSectionGroupsTable, SiteSectionsTable, SiteSpacesTable } from '../../db/schema.js';

/** Where an item sits in the site's order: its top-level slot, then its place inside a group. */
const ORDER_COLUMNS = sql`
  coalesce(g.position, sec.position, 0) AS root_position,
  coalesce(g.id, sec.id, '') AS root_id,
  CASE WHEN sec.group_id IS NULL THEN 0 ELSE sec.position END AS inner_position`;
const orderColumns = {
  rootPosition: value('numeric'),
  rootId: value('text'),
  innerPosition: value('numeric').neverNull('a section in a group (its group_id set) exists'),
};
type SiteOrder = RowOf<undefined, typeof orderColumns>;

/** The site's sections with their place in the site's order. */
const sectionRowsQuery = rawQuery({
  name: 'siteSectionsInOrder',
  allColumnsOf: 'siteSections',
  columns: orderColumns,
  statement: (organizationId: string, siteId: string) => sql`
    SELECT sec.*, ${ORDER_COLUMNS}
    FROM site_sections sec
    LEFT JOIN site_section_groups g ON g.organization_id = sec.organization_id AND g.id = sec.group_id
    WHERE sec.organization_id = ${organizationId} AND sec.site_id = ${siteId}`,
  shapes: [['', '']],
});

export type SectionRow = Awaited<ReturnType<typeof sectionRowsQuery.rows>>[number];
export type GroupRow = Selectable<SiteSectionGroupsTable>;

/** The site's sections with their place in the site's order (alias `sec`). */
export function sectionsQuery(db: Executor, organizationId: string, siteId: string) {
  return db.selectFrom(sectionRowsQuery.subquery('sec', organizationId, siteId)).selectAll();
}

export function siteOrderKeys<Row extends SiteOrder & { id: string }>(alias: string, extra: SortKey<Row>[] = []): SortKey<Row>[] {
  return [
    { column: `${alias}.rootPosition`, direction: 'asc', value: (row) => row.rootPosition },
    { column: `${alias}.rootId`, direction: 'asc', value: (row) => row.rootId },
    { column: `${alias}.innerPosition`, direction: 'asc', value: (row) => row.innerPosition },
    ...extra,
    { column: `${alias}.id`, direction: 'asc', value: (row) => row.id },
  ];
}

export async function sectionsInOrder(db: Executor, organizationId: string, siteId: string): Promise<SectionRow[]> {
  return sectionsQuery(db, organizationId, siteId).orderBy('rootPosition').orderBy('rootId').orderBy('innerPosition').orderBy('id').execute();
}

export async function findSection(db: Executor, organizationId: string, siteId: string, sectionId: string): Promise<Selectable<SiteSectionsTable> | undefined> {
  return db.selectFrom('siteSections').selectAll().where('organizationId', '=', organizationId).where('siteId', '=', siteId).where('id', '=', sectionId).executeTakeFirst();
}

export async function countSections(db: Executor, organizationId: string, siteId: string): Promise<number> {
  return count(db, 'siteSections', organizationId, siteId);
}

async function count(db: Executor, table: 'siteSections' | 'siteSectionGroups' | 'siteSpaces', organizationId: string, siteId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function insertSection(db: Executor, values: Insertable<SiteSectionsTable>): Promise<void> {
  await db.insertInto('siteSections').values(values).execute();
}

export async function updateSection(db: Executor, organizationId: string, sectionId: string, patch: Updateable<SiteSectionsTable>): Promise<void> {
  await db
    .updateTable('siteSections')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', sectionId)
    .execute();
}

export async function deleteSection(db: Executor, organizationId: string, sectionId: string): Promise<void> {
  await db.deleteFrom('siteSections').where('organizationId', '=', organizationId).where('id', '=', sectionId).execute();
}

/** Makes `sectionId` the site's default section (two statements: the unique index allows one default at every step). */
export async function setDefaultSection(db: Executor, organizationId: string, siteId: string, sectionId: string): Promise<void> {
  await db.updateTable('siteSections').set({ isDefault: false }).where('organizationId', '=', organizationId).where('siteId', '=', siteId).where('isDefault', '=', true).where('id', '!=', sectionId).execute();
  await db.updateTable('siteSections').set({ isDefault: true }).where('organizationId', '=', organizationId).where('id', '=', sectionId).execute();
}

/** Paths already taken among the site's sections. */
export async function sectionPaths(db: Executor, organizationId: string, siteId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('siteSections').select('path').where('organizationId', '=', organizationId).where('siteId', '=', siteId).execute();
  return new Set(rows.map((row) => row.path));
}

// ---- Groups ----

export function groupsQuery(db: Executor, organizationId: string, siteId: string) {
  return db.selectFrom('siteSectionGroups as g').selectAll('g').where('g.organizationId', '=', organizationId).where('g.siteId', '=', siteId);
}

export async function findGroup(db: Executor, organizationId: string, siteId: string, groupId: string): Promise<GroupRow | undefined> {
  return groupsQuery(db, organizationId, siteId).where('g.id', '=', groupId).executeTakeFirst();
}

export async function countGroups(db: Executor, organizationId: string, siteId: string): Promise<number> {
  return count(db, 'siteSectionGroups', organizationId, siteId);
}

export async function insertGroup(db: Executor, values: Insertable<SiteSectionGroupsTable>): Promise<void> {
  await db.insertInto('siteSectionGroups').values(values).execute();
}

export async function updateGroup(db: Executor, organizationId: string, groupId: string, patch: Updateable<SiteSectionGroupsTable>): Promise<void> {
  await db
    .updateTable('siteSectionGroups')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', groupId)
    .execute();
}

export async function deleteGroup(db: Executor, organizationId: string, groupId: string): Promise<void> {
  await db.deleteFrom('siteSectionGroups').where('organizationId', '=', organizationId).where('id', '=', groupId).execute();
}

// ---- Site spaces ----

export type SiteSpaceFilters = { sectionIds?: readonly string[]; default?: boolean | undefined };

/**
 * The site's site spaces of live spaces (a deleted space's are kept for its restore but not shown),
 * with their effective default and place in the site's order (alias `ss`).
 */
/**
 * The site's site spaces of live spaces (a deleted space's are kept for its restore but not shown),
 * with their effective default (the marked one among its siblings while its space exists, else the
 * first) and place in the site's order.
 */
const siteSpaceRowsQuery = rawQuery({
  name: 'siteSpacesInOrder',
  allColumnsOf: 'siteSpaces',
  columns: { spaceTitle: column('spaces', 'title'), ...orderColumns, effectiveDefault: value('bool') },
  statement: (organizationId: string, siteId: string, sectionIds?: readonly string[]) => sql`
    SELECT ss.*, sp.title AS space_title, ${ORDER_COLUMNS},
      first_value(ss.id) OVER (PARTITION BY ss.section_key ORDER BY ss.is_default DESC, ss.position, ss.id) = ss.id AS effective_default
    FROM site_spaces ss
    JOIN spaces sp ON sp.organization_id = ss.organization_id AND sp.id = ss.space_id AND sp.deleted_at IS NULL
    LEFT JOIN site_sections sec ON sec.organization_id = ss.organization_id AND sec.id = ss.section_id
    LEFT JOIN site_section_groups g ON g.organization_id = sec.organization_id AND g.id = sec.group_id
    WHERE ss.organization_id = ${organizationId} AND ss.site_id = ${siteId}
      ${sectionIds ? sql`AND ss.section_id = ANY(${[...sectionIds]}::text[])` : sql``}`,
  shapes: [
    ['', ''],
    ['', '', []],
  ],
});

export type SiteSpaceRow = Awaited<ReturnType<typeof siteSpaceRowsQuery.rows>>[number];

/** The site's site spaces of live spaces with their effective default and place in the site's order (alias `ss`). */
export function siteSpacesQuery(db: Executor, organizationId: string, siteId: string, filters: SiteSpaceFilters = {}) {
  let query = db.selectFrom(siteSpaceRowsQuery.subquery('ss', organizationId, siteId, filters.sectionIds)).selectAll();
  if (filters.default !== undefined) query = query.where('effectiveDefault', '=', filters.default);
  return query;
}

export const siteSpaceOrderKeys = () =>
  siteOrderKeys<SiteSpaceRow>('ss', [
    { column: 'ss.sectionKey', direction: 'asc', value: (row) => row.sectionKey },
    { column: 'ss.position', direction: 'asc', value: (row) => row.position },
  ]);

export async function siteSpacesInOrder(db: Executor, organizationId: string, siteId: string, filters: SiteSpaceFilters = {}): Promise<SiteSpaceRow[]> {
  let query = siteSpacesQuery(db, organizationId, siteId, filters);
  for (const key of siteSpaceOrderKeys()) query = query.orderBy(sql.ref(key.column), 'asc');
  return query.execute();
}

/** A site space of a live space (a deleted space's read as absent until it is restored). */
export async function findSiteSpace(db: Executor, organizationId: string, siteId: string, siteSpaceId: string): Promise<Selectable<SiteSpacesTable> | undefined> {
  return db
    .selectFrom('siteSpaces as ss')
    .innerJoin('spaces as sp', (join) => join.onRef('sp.organizationId', '=', 'ss.organizationId').onRef('sp.id', '=', 'ss.spaceId'))
    .selectAll('ss')
    .where('ss.organizationId', '=', organizationId)
    .where('ss.siteId', '=', siteId)
    .where('ss.id', '=', siteSpaceId)
    .where('sp.deletedAt', 'is', null)
    .executeTakeFirst();
}

export async function countSiteSpaces(db: Executor, organizationId: string, siteId: string): Promise<number> {
  return count(db, 'siteSpaces', organizationId, siteId);
}

export async function insertSiteSpace(db: Executor, values: Insertable<SiteSpacesTable>): Promise<void> {
  await db.insertInto('siteSpaces').values(values).execute();
}

export async function updateSiteSpace(db: Executor, organizationId: string, siteSpaceId: string, patch: Updateable<SiteSpacesTable>): Promise<void> {
  await db
    .updateTable('siteSpaces')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', siteSpaceId)
    .execute();
}

export async function deleteSiteSpaceRow(db: Executor, organizationId: string, siteSpaceId: string): Promise<void> {
  await db.deleteFrom('siteSpaces').where('organizationId', '=', organizationId).where('id', '=', siteSpaceId).execute();
}

/** Makes `siteSpaceId` the default of its siblings. */
export async function setDefaultSiteSpace(db: Executor, organizationId: string, siteId: string, sectionId: string | null, siteSpaceId: string): Promise<void> {
  await db
    .updateTable('siteSpaces')
    .set({ isDefault: false })
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .where('sectionKey', '=', sectionId ?? '')
    .where('isDefault', '=', true)
    .where('id', '!=', siteSpaceId)
    .execute();
  await db.updateTable('siteSpaces').set({ isDefault: true }).where('organizationId', '=', organizationId).where('id', '=', siteSpaceId).execute();
}

/** The site spaces of one parent in order, deleted spaces' included (what paths and defaults are decided among). */
export async function siblingSiteSpaces(db: Executor, organizationId: string, siteId: string, sectionId: string | null) {
  return db
    .selectFrom('siteSpaces')
    .select(['id', 'spaceId', 'path', 'isDefault', 'position'])
    .where('organizationId', '=', organizationId)
    .where('siteId', '=', siteId)
    .where('sectionKey', '=', sectionId ?? '')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Moves the root's site spaces into a section. */
export async function moveRootSiteSpacesInto(db: Executor, organizationId: string, siteId: string, sectionId: string): Promise<void> {
  await db.updateTable('siteSpaces').set({ sectionId }).where('organizationId', '=', organizationId).where('siteId', '=', siteId).where('sectionId', 'is', null).execute();
}

/** Every condition written in the site, with where it is. */
export async function conditionsOfSite(db: Executor, organizationId: string, siteId: string) {
  return conditionsQuery.rows(db, organizationId, siteId);
}

const conditionsQuery = rawQuery({
  name: 'conditionsOfSite',
  columns: {
    kind: value('text').as<'section' | 'site-space'>(),
    id: value('text'),
    condition: value('text').neverNull('WHERE condition IS NOT NULL'),
  },
  statement: (organizationId: string, siteId: string) => sql`
    SELECT 'section' AS kind, id, condition FROM site_sections WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND condition IS NOT NULL
    UNION ALL
    SELECT 'site-space', id, condition FROM site_spaces WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND condition IS NOT NULL`,
  shapes: [['', '']],
});

/**
 * Removes the site spaces of `spaceIds` (spaces leaving the organization, or purged) and gives every
 * parent that lost its default the first remaining one. Runs without the sites lock (inside a transfer
 * or a purge, whose spaces no site change can touch any more).
 */
export async function removeSiteSpacesOfSpaces(db: Executor, organizationId: string, spaceIds: readonly string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  const removed = await db
    .deleteFrom('siteSpaces')
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', sql<string>`ANY(${[...spaceIds]}::text[])`)
    .where('isDefault', '=', true)
    .returning(['siteId', 'sectionKey'])
    .execute();
  await sql`DELETE FROM site_spaces WHERE organization_id = ${organizationId} AND space_id = ANY(${[...spaceIds]}::text[])`.execute(db);
  for (const { siteId, sectionKey } of removed) {
    await sql`
      UPDATE site_spaces SET is_default = true
      WHERE organization_id = ${organizationId} AND id = (
        SELECT id FROM site_spaces WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND section_key = ${sectionKey}
        ORDER BY position, id LIMIT 1)
        AND NOT EXISTS (SELECT 1 FROM site_spaces WHERE organization_id = ${organizationId} AND site_id = ${siteId} AND section_key = ${sectionKey} AND is_default)`.execute(db);
  }
}

/** Section id → path, for the addresses of site spaces. */
export async function sectionPathsById(db: Executor, organizationId: string, siteId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('siteSections').select(['id', 'path']).where('organizationId', '=', organizationId).where('siteId', '=', siteId).execute();
  return new Map(rows.map((row) => [row.id, row.path]));
}
