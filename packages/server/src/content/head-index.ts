// Keeps the materialised primary head (`space_head_pages`, `space_head_files`) equal to the space's head
// revision: when the head moves, the tree diff says which rows to delete and which to write. Paths are
// derived from slugs, so a moved or re-slugged page rewrites the rows of its descendants too.
import type { Executor } from '../db/database.js';
import {
  deleteHeadFiles,
  deleteHeadPages,
  upsertHeadFiles,
  upsertHeadPages,
  type HeadFileRow,
  type HeadPageRow,
} from './head-index.repository.js';
import { diffFlatTrees, diffPageTrees, type PageDiff } from './diff.js';
import { descendantIds, type ContentState, type FileEntry, type PageTree, type ParentId } from './model.js';

/** Builds head rows from one tree, memoising paths and sibling positions across rows. */
function pageRowBuilder(tree: PageTree) {
  const paths = new Map<string, string>();
  const positions = new Map<ParentId, Map<string, number>>();
  // Up to the nearest ancestor whose path is known, then down again: no recursion, whatever the depth.
  const pathOf = (id: string): string => {
    const unknown: string[] = [];
    let path: string | undefined;
    for (let current: ParentId = id; current !== null; current = tree.parentOf.get(current) ?? null) {
      path = paths.get(current);
      if (path !== undefined) break;
      unknown.push(current);
    }
    for (const page of unknown.reverse()) {
      const slug = tree.pages.get(page)!.slug;
      path = path === undefined ? slug : `${path}/${slug}`;
      paths.set(page, path);
    }
    return path!;
  };
  const positionOf = (parent: ParentId, id: string): number => {
    let index = positions.get(parent);
    if (!index) {
      index = new Map((tree.childrenOf.get(parent) ?? []).map((child, i) => [child, i]));
      positions.set(parent, index);
    }
    return index.get(id)!;
  };
  return (id: string): HeadPageRow => {
    const entry = tree.pages.get(id)!;
    const parent = tree.parentOf.get(id) ?? null;
    const path = pathOf(id);
    return {
      pageId: id,
      parentPageId: parent,
      position: positionOf(parent, id),
      depth: path.split('/').length - 1,
      type: entry.type,
      title: entry.title,
      slug: entry.slug,
      path,
      documentHash: entry.documentHash,
      emoji: entry.emoji ?? null,
      icon: entry.icon ?? null,
      description: entry.description ?? null,
      hidden: entry.hidden,
      noIndex: entry.noIndex,
      noRobotsIndex: entry.noRobotsIndex,
      layout: entry.layout ?? null,
      cover: entry.cover ?? null,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
    };
  };
}

export function headFileRow(entry: FileEntry): HeadFileRow {
  return {
    fileId: entry.id,
    name: entry.name,
    contentType: entry.contentType,
    size: entry.size,
    width: entry.dimensions?.width ?? null,
    height: entry.dimensions?.height ?? null,
    blobHash: entry.blobHash,
  };
}

/**
 * Applies the difference between the old and the new head content to the space's head rows; returns
 * the pages' differences it applied (the space-content event lists them).
 */
export async function moveHeadIndex(db: Executor, organizationId: string, spaceId: string, before: ContentState, after: ContentState): Promise<PageDiff[]> {
  const pageDiffs = diffPageTrees(before.pages, after.pages);
  const deleted: string[] = [];
  const written = new Set<string>();
  for (const diff of pageDiffs) {
    if (!diff.after) {
      deleted.push(diff.id);
      continue;
    }
    written.add(diff.id);
    if (diff.before && (diff.moved || diff.before.entry.slug !== diff.after.entry.slug)) {
      for (const id of descendantIds(after.pages, diff.id)) written.add(id);
    }
  }
  const row = pageRowBuilder(after.pages);
  await deleteHeadPages(db, organizationId, spaceId, deleted);
  await upsertHeadPages(db, organizationId, spaceId, [...written].map(row));

  const fileDiffs = diffFlatTrees(before.files, after.files);
  await deleteHeadFiles(db, organizationId, spaceId, fileDiffs.filter((diff) => !diff.after).map((diff) => diff.id));
  await upsertHeadFiles(db, organizationId, spaceId, fileDiffs.flatMap((diff) => (diff.after ? [headFileRow(diff.after)] : [])));
  return pageDiffs;
}
