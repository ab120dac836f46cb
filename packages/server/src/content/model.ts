// The content of a revision as plain, immutable data: a page tree and two flat lists (files, reusable
// contents), each addressed by its root hash. Trees are shared between versions (unchanged entries are
// the same objects) and never mutated; editors (editors.ts) produce new versions.
import type { ListChunk } from './chunked-list.js';

export type PageType = 'document' | 'group';

export type PageLayout = {
  cover?: boolean;
  coverSize?: 'hero' | 'full';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
};

export type PageCover = { ref: { kind: 'file'; file: string }; yPos?: number };

/** A page as stored in its parent's tree node (docs/design/content-model.md, "Trees and content objects"). */
export type PageEntry = {
  id: string;
  type: PageType;
  title: string;
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  layout?: PageLayout;
  cover?: PageCover;
  createdAt: string;
  updatedAt: string;
  /** Hash of the body in `documents`; null for an empty body or a group. */
  documentHash: string | null;
  /** Hash of the node holding this page's children; null without children. */
  childrenHash: string | null;
};

/** A page's parent: a page id, or null for the top level. */
export type ParentId = string | null;

export type PageTree = {
  /** Hash of the top-level node; null for a revision without pages. */
  readonly rootHash: string | null;
  readonly pages: ReadonlyMap<string, PageEntry>;
  readonly parentOf: ReadonlyMap<string, ParentId>;
  /** Ordered child ids of every parent that has children (null: the top level). */
  readonly childrenOf: ReadonlyMap<ParentId, readonly string[]>;
  /** Chunks of the children lists that are chunked, to reuse them on the next edit. */
  readonly chunksOf: ReadonlyMap<ParentId, readonly ListChunk[]>;
};

export type FileEntry = {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  /** sha256 of the bytes (the blob store key). */
  blobHash: string;
};

export type ReusableEntry = {
  id: string;
  title: string;
  /** Hash of the body; null for an empty body. */
  documentHash: string | null;
};

/** A flat list of entries, ordered by id. */
export type FlatTree<E extends { id: string }> = {
  readonly rootHash: string | null;
  readonly items: ReadonlyMap<string, E>;
  /** Ids in ascending order (the stored order). */
  readonly order: readonly string[];
  readonly chunks: readonly ListChunk[] | null;
};

export type FileTree = FlatTree<FileEntry>;
export type ReusableTree = FlatTree<ReusableEntry>;

/** Everything a revision holds. */
export type ContentState = { pages: PageTree; files: FileTree; reusables: ReusableTree };

/** The three root hashes a revision row stores. */
export type ContentRoots = { pages: string | null; files: string | null; reusables: string | null };

export const EMPTY_PAGE_TREE: PageTree = {
  rootHash: null,
  pages: new Map(),
  parentOf: new Map(),
  childrenOf: new Map(),
  chunksOf: new Map(),
};

export function emptyFlatTree<E extends { id: string }>(): FlatTree<E> {
  return { rootHash: null, items: new Map(), order: [], chunks: null };
}

export function rootsOf(state: ContentState): ContentRoots {
  return { pages: state.pages.rootHash, files: state.files.rootHash, reusables: state.reusables.rootHash };
}

/** The page's path: its ancestors' slugs and its own, joined by `/`. */
export function pathOf(tree: Pick<PageTree, 'pages' | 'parentOf'>, id: string): string {
  const slugs: string[] = [];
  for (let current: ParentId = id; current !== null; current = tree.parentOf.get(current) ?? null) {
    slugs.push(tree.pages.get(current)!.slug);
  }
  return slugs.reverse().join('/');
}

/** True when `ancestor` is `id` itself or one of its ancestors. */
export function isSelfOrAncestor(tree: Pick<PageTree, 'parentOf'>, ancestor: string, id: ParentId): boolean {
  for (let current = id; current !== null; current = tree.parentOf.get(current) ?? null) {
    if (current === ancestor) return true;
  }
  return false;
}

/** The ids of the page's descendants (not the page itself), parents before children. */
export function descendantIds(tree: Pick<PageTree, 'childrenOf'>, id: string): string[] {
  const found: string[] = [];
  const stack = [...(tree.childrenOf.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    found.push(next);
    stack.push(...(tree.childrenOf.get(next) ?? []));
  }
  return found;
}
