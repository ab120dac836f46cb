// Where an address leads inside a site as one visitor sees it (published-structure.ts resolves what is
// visible): the section (by its path, else the default one), the site space (by its path, else the
// section's default) and the rest, the page's path. Also the addresses the site's pages link to:
// the default section and site space answer at the site's root, the others under their paths.
import type { PublishedStructure, VisibleSection } from '../published-structure.js';
import type { SiteSpaceRow } from '../structure.repository.js';

export type SectionEntry = VisibleSection['section'];

export type Located = {
  section: SectionEntry | null;
  siteSpace: SiteSpaceRow;
  /** The site spaces beside it (its section's, or the root's): the switcher. */
  siblings: readonly SiteSpaceRow[];
  /** The page's path inside the space ('' for the space's own address). */
  pagePath: string;
};

/** Every visible section, groups flattened, in the site's order. */
export function sectionsOf(structure: PublishedStructure): VisibleSection[] {
  if (structure.type === 'siteSpaces') return [];
  return structure.items.flatMap((item) => (item.kind === 'section' ? [item] : item.sections));
}

/** Every visible site space with its section, in the site's order. */
export function siteSpacesOf(structure: PublishedStructure): Array<{ section: SectionEntry | null; siteSpace: SiteSpaceRow }> {
  if (structure.type === 'siteSpaces') return structure.siteSpaces.map((siteSpace) => ({ section: null, siteSpace }));
  return sectionsOf(structure).flatMap(({ section, siteSpaces }) => siteSpaces.map((siteSpace) => ({ section, siteSpace })));
}

/**
 * What `segments` (the address below the site's root) may name, most specific first: a section named by
 * the first segment (else the default section), then a site space named by the next (else the
 * section's default). A page's slug may equal a section's or a site space's path, so the caller takes
 * the first reading under which the page exists. Empty when the site shows nothing there.
 */
export function locate(structure: PublishedStructure, segments: readonly string[]): Located[] {
  const parents: Array<{ section: SectionEntry | null; siblings: readonly SiteSpaceRow[]; rest: string[] }> = [];
  if (structure.type === 'sections') {
    const sections = sectionsOf(structure);
    const named = sections.find((entry) => entry.section.path === segments[0]);
    const fallback = sections.find((entry) => entry.section.isDefault);
    const byName = named && { section: named.section, siblings: named.siteSpaces, rest: segments.slice(1) };
    const byDefault = fallback && { section: fallback.section, siblings: fallback.siteSpaces, rest: [...segments] };
    // Naming the default section is redundant: a page of its own with that slug comes first.
    parents.push(...[...(named === fallback ? [byDefault, byName] : [byName, byDefault])].filter((item) => item !== undefined));
  } else {
    parents.push({ section: null, siblings: structure.siteSpaces, rest: [...segments] });
  }
  const found: Located[] = [];
  for (const { section, siblings, rest } of parents) {
    const named = siblings.find((row) => row.path === rest[0]);
    const fallback = siblings.find((row) => row.effectiveDefault);
    const byName = named && { section, siteSpace: named, siblings, pagePath: rest.slice(1).join('/') };
    const byDefault = fallback && { section, siteSpace: fallback, siblings, pagePath: rest.join('/') };
    found.push(...[...(named === fallback ? [byDefault, byName] : [byName, byDefault])].filter((item) => item !== undefined));
  }
  return found;
}

/**
 * The address of a site space below the site's root ('' for the root itself). A site space that is
 * not its section's default keeps the section's path even in the default section, so it never reads
 * as a section of its own.
 */
export function siteSpacePath(section: SectionEntry | null, siteSpace: SiteSpaceRow): string {
  if (section === null) return siteSpace.effectiveDefault ? '' : `/${siteSpace.path}`;
  if (siteSpace.effectiveDefault) return section.isDefault ? '' : `/${section.path}`;
  return `/${section.path}/${siteSpace.path}`;
}

export function sectionPath(section: SectionEntry): string {
  return section.isDefault ? '' : `/${section.path}`;
}
