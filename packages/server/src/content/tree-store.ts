// Reading and writing trees as content-addressed nodes, with the server's `trees` cache keyed by
// organization and root hash (caches.ts). Nodes never change, so a cached tree never goes stale, on any
// instance; the cache only bounds memory.
import type { Caches } from '../caches.js';
import type { Executor } from '../db/database.js';
import { insertNodes, loadNodes, type NodeTable } from './content-objects.repository.js';
import { chunkHashesOf, type ListChunk, type NewNode } from './chunked-list.js';
import {
  EMPTY_PAGE_TREE,
  emptyFlatTree,
  type ContentRoots,
  type ContentState,
  type FileEntry,
  type FlatTree,
  type PageEntry,
  type PageTree,
  type ParentId,
  type ReusableEntry,
} from './model.js';

type LoadedList<E> = { entries: E[]; chunks: ListChunk[] | null };

/** Loads list nodes (and their chunks, one more query) by hash. */
async function loadLists<E extends { id: string }>(db: Executor, table: NodeTable, organizationId: string, hashes: string[]): Promise<Map<string, LoadedList<E>>> {
  const nodes = await loadNodes(db, table, organizationId, [...new Set(hashes)]);
  const chunkHashes = new Set<string>();
  for (const hash of hashes) {
    const node = nodes.get(hash);
    if (node === undefined) throw new Error(`Content node ${hash} is missing from ${table}`);
    for (const chunk of chunkHashesOf(node) ?? []) chunkHashes.add(chunk);
  }
  const chunkNodes = await loadNodes(db, table, organizationId, [...chunkHashes]);
  const lists = new Map<string, LoadedList<E>>();
  for (const [hash, node] of nodes) {
    const chunkList = chunkHashesOf(node);
    if (!chunkList) {
      lists.set(hash, { entries: node as E[], chunks: null });
      continue;
    }
    const entries: E[] = [];
    const chunks: ListChunk[] = chunkList.map((chunkHash) => {
      const part = chunkNodes.get(chunkHash) as E[] | undefined;
      if (!part) throw new Error(`Content chunk ${chunkHash} is missing from ${table}`);
      entries.push(...part);
      return { hash: chunkHash, ids: part.map((entry) => entry.id) };
    });
    lists.set(hash, { entries, chunks });
  }
  return lists;
}

/** Reads a page tree level by level: one query per level of depth (two when a level has chunked lists). */
async function readPageTree(db: Executor, organizationId: string, rootHash: string): Promise<PageTree> {
  const pages = new Map<string, PageEntry>();
  const parentOf = new Map<string, ParentId>();
  const childrenOf = new Map<ParentId, readonly string[]>();
  const chunksOf = new Map<ParentId, readonly ListChunk[]>();
  let frontier: Array<[ParentId, string]> = [[null, rootHash]];
  while (frontier.length > 0) {
    const lists = await loadLists<PageEntry>(db, 'treeNodes', organizationId, frontier.map(([, hash]) => hash));
    const next: Array<[ParentId, string]> = [];
    for (const [parent, hash] of frontier) {
      const list = lists.get(hash)!;
      for (const entry of list.entries) {
        pages.set(entry.id, entry);
        parentOf.set(entry.id, parent);
        if (entry.childrenHash) next.push([entry.id, entry.childrenHash]);
      }
      childrenOf.set(parent, list.entries.map((entry) => entry.id));
      if (list.chunks) chunksOf.set(parent, list.chunks);
    }
    frontier = next;
  }
  return { rootHash, pages, parentOf, childrenOf, chunksOf };
}

async function readFlatTree<E extends { id: string }>(db: Executor, table: NodeTable, organizationId: string, rootHash: string): Promise<FlatTree<E>> {
  const list = (await loadLists<E>(db, table, organizationId, [rootHash])).get(rootHash)!;
  return { rootHash, items: new Map(list.entries.map((entry) => [entry.id, entry])), order: list.entries.map((entry) => entry.id), chunks: list.chunks };
}

const key = (kind: string, organizationId: string, hash: string) => `${kind}:${organizationId}:${hash}`;

/** The caches the trees are kept in. */
type TreeCaches = Pick<Caches, 'trees'>;

export async function loadPageTree(db: Executor, caches: TreeCaches, organizationId: string, rootHash: string | null): Promise<PageTree> {
  if (rootHash === null) return EMPTY_PAGE_TREE;
  return (await caches.trees.load(key('pages', organizationId, rootHash), () => readPageTree(db, organizationId, rootHash))) as PageTree;
}

export async function loadFileTree(db: Executor, caches: TreeCaches, organizationId: string, rootHash: string | null): Promise<FlatTree<FileEntry>> {
  if (rootHash === null) return emptyFlatTree();
  return (await caches.trees.load(key('files', organizationId, rootHash), () => readFlatTree<FileEntry>(db, 'fileNodes', organizationId, rootHash))) as FlatTree<FileEntry>;
}

export async function loadReusableTree(db: Executor, caches: TreeCaches, organizationId: string, rootHash: string | null): Promise<FlatTree<ReusableEntry>> {
  if (rootHash === null) return emptyFlatTree();
  return (await caches.trees.load(key('reusables', organizationId, rootHash), () => readFlatTree<ReusableEntry>(db, 'reusableNodes', organizationId, rootHash))) as FlatTree<ReusableEntry>;
}

export async function loadContentState(db: Executor, caches: TreeCaches, organizationId: string, roots: ContentRoots): Promise<ContentState> {
  const pages = await loadPageTree(db, caches, organizationId, roots.pages);
  const files = await loadFileTree(db, caches, organizationId, roots.files);
  const reusables = await loadReusableTree(db, caches, organizationId, roots.reusables);
  return { pages, files, reusables };
}

/** Caches trees just written (call after their transaction committed). */
export function rememberContentState(caches: TreeCaches, organizationId: string, state: ContentState): void {
  if (state.pages.rootHash) caches.trees.set(key('pages', organizationId, state.pages.rootHash), state.pages);
  if (state.files.rootHash) caches.trees.set(key('files', organizationId, state.files.rootHash), state.files);
  if (state.reusables.rootHash) caches.trees.set(key('reusables', organizationId, state.reusables.rootHash), state.reusables);
}

export type NewNodes = { pages: NewNode[]; files: NewNode[]; reusables: NewNode[] };

export async function storeNodes(db: Executor, organizationId: string, nodes: NewNodes): Promise<void> {
  if (nodes.pages.length) await insertNodes(db, 'treeNodes', organizationId, nodes.pages);
  if (nodes.files.length) await insertNodes(db, 'fileNodes', organizationId, nodes.files);
  if (nodes.reusables.length) await insertNodes(db, 'reusableNodes', organizationId, nodes.reusables);
}
