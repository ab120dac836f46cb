// Keeps the search index in step with a space's primary head (docs/design/content-model.md, "Search index"): called in
// the transaction that moves the head (space-head.ts `afterMove`, so batches, merges and imports all
// reach it). When the rows reflect the old head, the tree diff says which pages to re-tokenise (new
// body, title, description or type) and which only changed place (path, hidden: their rows and their
// descendants' are updated without re-tokenising); otherwise (rows never built, or built from another
// tree) the space's rows are rebuilt from the new head.
import type { Executor } from '../../db/database.js';
import type { ParsePool } from '../../parsing/parse-pool.js';
import { diffPageTrees } from '../diff.js';
import { loadBodyParts } from '../parsed-bodies.js';
import { descendantIds, type PageEntry, type PageTree, type ParentId } from '../model.js';
import {
  deletePageSections,
  deleteSpaceSections,
  findIndexedRoot,
  insertSections,
  setIndexedRoot,
  updatePagePlaces,
  type SectionRow,
} from './index.repository.js';
import { sectionsOfPage, type DocumentSection } from './sections.js';
import { fallbackText } from './text-analysis.js';

export type Place = { path: string; hidden: boolean; noIndex: boolean };

/** Each page's path and inherited flags in one tree, memoised across pages. */
function placeFinder(tree: PageTree): (id: string) => Place {
  const places = new Map<string, Place>();
  const find = (id: string): Place => {
    let place = places.get(id);
    if (!place) {
      const entry = tree.pages.get(id)!;
      const parent: ParentId = tree.parentOf.get(id) ?? null;
      const above = parent === null ? undefined : find(parent);
      place = {
        path: above ? `${above.path}/${entry.slug}` : entry.slug,
        hidden: entry.hidden || (above?.hidden ?? false),
        noIndex: entry.noIndex || (above?.noIndex ?? false),
      };
      places.set(id, place);
    }
    return place;
  };
  return find;
}

/** What a page's rows are built from: a change of any of these re-tokenises the page. */
const textChanged = (a: PageEntry, b: PageEntry) =>
  a.documentHash !== b.documentHash || a.title !== b.title || (a.description ?? '') !== (b.description ?? '') || a.type !== b.type;

const placeChanged = (a: PageEntry, b: PageEntry) => a.slug !== b.slug || a.hidden !== b.hidden || a.noIndex !== b.noIndex;

/** The rows of one page (its place in the tree, its body's stored sections given): what `moveSearchIndex` writes for it. */
export function pageRows(entry: Pick<PageEntry, 'id' | 'title' | 'description' | 'documentHash'>, sections: readonly DocumentSection[] | undefined, place: Place): SectionRow[] {
  const description = entry.description ?? '';
  return sectionsOfPage(entry, sections).map((section): SectionRow => {
    const first = section.ordinal === 0;
    const head = first ? entry.title : section.title;
    const rest = first ? `${description}\n${section.body}` : section.body;
    return {
      pageId: entry.id,
      ordinal: section.ordinal,
      documentHash: entry.documentHash,
      sectionId: section.id,
      sectionTitle: section.title,
      pageTitle: entry.title,
      pagePath: place.path,
      hidden: place.hidden,
      noIndex: place.noIndex,
      body: first && description ? rest : section.body,
      head,
      headWeight: first ? 'A' : 'B',
      description: first ? description : '',
      text: section.body,
      headFallback: fallbackText(head),
      fallback: fallbackText(rest),
    };
  });
}

/**
 * The rows of some pages of a tree (groups have none: there is no page to land on), from their bodies'
 * stored sections (content/parsed-bodies.ts: bodies are never parsed here).
 */
async function sectionRows(db: Executor, pool: ParsePool, organizationId: string, tree: PageTree, pageIds: Iterable<string>): Promise<SectionRow[]> {
  const place = placeFinder(tree);
  const entries = [...pageIds].map((id) => tree.pages.get(id)!).filter((entry) => entry.type !== 'group');
  const sections = await loadBodyParts(db, pool, organizationId, entries.flatMap((entry) => (entry.documentHash ? [entry.documentHash] : [])), 'sections');
  return entries.flatMap((entry) => pageRows(entry, entry.documentHash ? (sections.get(entry.documentHash) as DocumentSection[] | undefined) : undefined, place(entry.id)));
}

async function rebuild(db: Executor, pool: ParsePool, organizationId: string, spaceId: string, tree: PageTree): Promise<void> {
  await deleteSpaceSections(db, organizationId, spaceId);
  await insertSections(db, organizationId, spaceId, await sectionRows(db, pool, organizationId, tree, tree.pages.keys()));
}

/** Applies a head move from `before` to `after` to the space's search rows (same transaction as the move). */
export async function moveSearchIndex(db: Executor, pool: ParsePool, organizationId: string, spaceId: string, before: PageTree, after: PageTree): Promise<void> {
  const indexed = await findIndexedRoot(db, organizationId, spaceId);
  if (indexed !== before.rootHash) {
    await rebuild(db, pool, organizationId, spaceId, after);
  } else {
    if (before.rootHash === after.rootHash) return;
    const deleted: string[] = [];
    const retokenise = new Set<string>();
    const moved = new Set<string>();
    for (const diff of diffPageTrees(before, after)) {
      if (!diff.after) deleted.push(diff.id);
      else if (!diff.before || textChanged(diff.before.entry, diff.after.entry)) retokenise.add(diff.id);
      if (diff.before && diff.after && (diff.moved || placeChanged(diff.before.entry, diff.after.entry))) {
        moved.add(diff.id);
        for (const id of descendantIds(after, diff.id)) moved.add(id);
      }
    }
    const place = placeFinder(after);
    await deletePageSections(db, organizationId, spaceId, [...deleted, ...retokenise]);
    await insertSections(db, organizationId, spaceId, await sectionRows(db, pool, organizationId, after, retokenise));
    await updatePagePlaces(
      db,
      organizationId,
      spaceId,
      [...moved].filter((id) => !retokenise.has(id)).map((id) => ({ pageId: id, pagePath: place(id).path, hidden: place(id).hidden, noIndex: place(id).noIndex })),
    );
  }
  await setIndexedRoot(db, organizationId, spaceId, after.rootHash);
}

/** Builds a space's rows from its head tree (spaces indexed before the index existed). */
export async function rebuildSearchIndex(db: Executor, pool: ParsePool, organizationId: string, spaceId: string, tree: PageTree): Promise<void> {
  await rebuild(db, pool, organizationId, spaceId, tree);
  await setIndexedRoot(db, organizationId, spaceId, tree.rootHash);
}
