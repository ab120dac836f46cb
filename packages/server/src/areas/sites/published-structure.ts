// A site's structure as one audience sees it: the one resolver behind `GET …/published` and the
// rendering of published sites. Site spaces of deleted spaces are left out (they come back with a
// restore), so are items whose condition does not hold for the visitor, sections with nothing left to
// show and groups with no section left. Defaults fall to the first visible item when the marked one is
// hidden.
import type { Executor } from '../../db/database.js';
import { conditionHolds, type Visitor } from './condition.js';
import { groupsQuery, sectionsInOrder, siteSpacesInOrder, type GroupRow, type SectionRow, type SiteSpaceRow } from './structure.repository.js';

export type VisibleSection = { section: SectionRow & { isDefault: boolean }; siteSpaces: SiteSpaceRow[] };
export type VisibleGroup = { group: GroupRow; sections: VisibleSection[] };

export type PublishedStructure =
  | { type: 'sections'; items: Array<({ kind: 'section' } & VisibleSection) | ({ kind: 'group' } & VisibleGroup)> }
  | { type: 'siteSpaces'; siteSpaces: SiteSpaceRow[] };

/** Who is looking: the visitor's claims (`{claims: {}}` for an anonymous visitor). */
export type Audience = { visitor: Visitor };

/** The visible ones, the default moved to the first of them when the marked one is hidden. */
function visibleWithDefault<T>(items: T[], holds: (item: T) => boolean, isDefault: (item: T) => boolean, withDefault: (item: T, value: boolean) => T): T[] {
  const visible = items.filter(holds);
  const marked = visible.findIndex(isDefault);
  return visible.map((item, index) => withDefault(item, marked >= 0 ? index === marked : index === 0));
}

export async function resolvePublishedStructure(db: Executor, organizationId: string, siteId: string, audience: Audience): Promise<PublishedStructure> {
  const [sections, groups, siteSpaces] = await Promise.all([
    sectionsInOrder(db, organizationId, siteId),
    groupsQuery(db, organizationId, siteId).execute(),
    siteSpacesInOrder(db, organizationId, siteId),
  ]);
  const siteSpacesOf = (sectionId: string | null) =>
    visibleWithDefault(
      siteSpaces.filter((row) => row.sectionId === sectionId),
      (row) => conditionHolds(row.condition, audience.visitor),
      (row) => row.effectiveDefault,
      (row, value) => ({ ...row, effectiveDefault: value }),
    );
  if (sections.length === 0) return { type: 'siteSpaces', siteSpaces: siteSpacesOf(null) };

  const shown = sections
    .filter((section) => conditionHolds(section.condition, audience.visitor))
    .map((section) => ({ section, siteSpaces: siteSpacesOf(section.id) }))
    .filter((entry) => entry.siteSpaces.length > 0);
  const withDefaults = visibleWithDefault(
    shown,
    () => true,
    (entry) => entry.section.isDefault,
    (entry, value) => ({ ...entry, section: { ...entry.section, isDefault: value } }),
  );
  const groupsById = new Map(groups.map((group) => [group.id, group]));
  const items: Extract<PublishedStructure, { type: 'sections' }>['items'] = [];
  for (const entry of withDefaults) {
    const groupId = entry.section.groupId;
    if (groupId === null) {
      items.push({ kind: 'section', ...entry });
      continue;
    }
    // Sections come in the site's order: a group's sections are consecutive.
    const last = items.at(-1);
    if (last?.kind === 'group' && last.group.id === groupId) last.sections.push(entry);
    else items.push({ kind: 'group', group: groupsById.get(groupId)!, sections: [entry] });
  }
  return { type: 'sections', items };
}
