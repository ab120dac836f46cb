// Content objects (pages, files, reusable contents, revisions) as the API shows them. Whole-revision
// shapes carry no page bodies (D5); the single-page read adds its own body.
import type { RevisionRow } from '../../content/revisions.repository.js';
import { signDownload } from '../../content/download-signature.js';
import type { ContentState, FileEntry, PageTree, ParentId, ReusableEntry } from '../../content/model.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import { MAX_PAGE_DEPTH } from '../../content/page-placement.js';

export type ApiPage = Schemas['Page'];
export type ApiFile = Schemas['File'];
export type ApiRevision = Schemas['Revision'];

/** What addresses in content objects need. */
export type ContentContext = {
  urls: Urls;
  spaceId: string;
  fileKey: Buffer;
  now?: number;
  /** App path pages are addressed under: the space's (default) or a change request's. */
  pagesAppPath?: string;
};

export type PageBody = { markdown: string } | { document: Schemas['MdastRoot'] };

const DEFAULT_LAYOUT = { cover: true, coverSize: 'hero', title: true, description: true, tableOfContents: true, outline: true, pagination: true } as const;

function pageObject(tree: PageTree, id: string, path: string, ctx: ContentContext, pages: ApiPage[], body?: PageBody): ApiPage {
  const entry = tree.pages.get(id)!;
  return {
    id,
    title: entry.title,
    ...(entry.emoji !== undefined ? { emoji: entry.emoji } : {}),
    ...(entry.icon !== undefined ? { icon: entry.icon } : {}),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    type: entry.type,
    slug: entry.slug,
    path,
    ...(entry.description !== undefined ? { description: entry.description } : {}),
    ...(entry.documentHash ? { documentId: entry.documentHash } : {}),
    ...body,
    pages,
    urls: { app: ctx.urls.app(`${ctx.pagesAppPath ?? `/s/${ctx.spaceId}`}/${path}`) },
    layout: { ...DEFAULT_LAYOUT, ...entry.layout },
    ...(entry.cover ? { cover: entry.cover } : {}),
    hidden: entry.hidden,
    noIndex: entry.noIndex,
    noRobotsIndex: entry.noRobotsIndex,
  };
}

/**
 * The page with its subtree, built without recursion (a deep tree overflowed the stack) and at most
 * MAX_PAGE_DEPTH levels deep, the page itself being the first: writes keep trees within that limit,
 * and a tree stored deeper before it existed still reads (what lies further down is read through the
 * pages at the last level shown), and answers stay shallow enough for any client's JSON parser.
 */
function toApiPageAt(tree: PageTree, id: string, path: string, ctx: ContentContext, body?: PageBody): ApiPage {
  const top = pageObject(tree, id, path, ctx, [], body);
  const stack: Array<{ id: string; path: string; pages: ApiPage[]; level: number }> = [{ id, path, pages: top.pages, level: 1 }];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    if (parent.level >= MAX_PAGE_DEPTH) continue;
    for (const child of tree.childrenOf.get(parent.id) ?? []) {
      const childPath = `${parent.path}/${tree.pages.get(child)!.slug}`;
      const page = pageObject(tree, child, childPath, ctx, []);
      parent.pages.push(page);
      stack.push({ id: child, path: childPath, pages: page.pages, level: parent.level + 1 });
    }
  }
  return top;
}

/** The pages under `parent` (the top level by default), each with its subtree. */
export function toApiPages(tree: PageTree, ctx: ContentContext): ApiPage[] {
  return (tree.childrenOf.get(null) ?? []).map((id) => toApiPageAt(tree, id, tree.pages.get(id)!.slug, ctx));
}

/** One page with its subtree, and its own body when given. */
export function toApiPage(tree: PageTree, id: string, ctx: ContentContext, body?: PageBody): ApiPage {
  const slugs: string[] = [];
  for (let current: ParentId = id; current !== null; current = tree.parentOf.get(current) ?? null) slugs.unshift(tree.pages.get(current)!.slug);
  return toApiPageAt(tree, id, slugs.join('/'), ctx, body);
}

export function toApiFile(file: FileEntry, ctx: ContentContext): ApiFile {
  const token = signDownload(ctx.fileKey, { spaceId: ctx.spaceId, blobHash: file.blobHash, contentType: file.contentType, name: file.name }, ctx.now);
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: ctx.urls.api(`/files/${token}`),
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
  };
}

/** Files by name, then id: the order of every file list. */
export function byName(a: FileEntry, b: FileEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function toApiReusable(entry: ReusableEntry, bodies: Map<string, string>): Schemas['ReusableContent'] {
  return {
    id: entry.id,
    title: entry.title,
    document: { id: entry.documentHash ?? '', markdown: entry.documentHash ? (bodies.get(entry.documentHash) ?? '') : '' },
  };
}

export function toApiRevision(revision: RevisionRow, state: ContentState, reusableBodies: Map<string, string>, ctx: ContentContext): ApiRevision {
  const common = {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parentIds,
    pages: toApiPages(state.pages, ctx),
    files: [...state.files.items.values()].sort(byName).map((file) => toApiFile(file, ctx)),
    reusableContents: state.reusables.order.map((id) => toApiReusable(state.reusables.items.get(id)!, reusableBodies)),
    createdAt: revision.createdAt.toISOString(),
    urls: { app: ctx.urls.app(`/s/${ctx.spaceId}/~/revisions/${revision.id}`) },
  };
  switch (revision.type) {
    case 'merge':
      return { ...common, type: 'merge', changeRequest: revision.mergedFromChangeRequestId ?? '' };
    case 'update':
      return { ...common, type: 'update', changeRequest: revision.changeRequestId ?? '' };
    case 'rollback':
      return { ...common, type: 'rollback' };
    case 'computed':
      return { ...common, type: 'computed' };
    default:
      return { ...common, type: 'edits' };
  }
}
