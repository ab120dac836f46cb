// Which content objects a set of revisions reaches (docs/design/content-model.md, "Files and garbage collection"). Nodes are stored
// deflated, so SQL cannot follow their links: the walk loads them level by level from the roots,
// following `childrenHash` links and chunk lists, and collects the leaves their entries name (bodies
// and file blobs). Each distinct node is read once. A cross-organization transfer copies what the
// moved spaces reach; garbage collection keeps what the whole organization reaches.
import type { Executor } from '../db/database.js';
import { loadNodes, revisionTreeRoots, type NodeTable } from './content-objects.repository.js';
import { chunkHashesOf } from './chunked-list.js';

type Tree = { table: NodeTable; root: 'pages_root' | 'files_root' | 'reusable_root'; leaf: 'documentHash' | 'blobHash' };

const PAGES: Tree = { table: 'treeNodes', root: 'pages_root', leaf: 'documentHash' };
const FILES: Tree = { table: 'fileNodes', root: 'files_root', leaf: 'blobHash' };
const REUSABLES: Tree = { table: 'reusableNodes', root: 'reusable_root', leaf: 'documentHash' };

type Entry = Record<string, unknown> & { childrenHash?: string | null };

/** Hex hashes of every object reached, by kind. */
export type ReachableContent = Record<NodeTable, Set<string>> & { documents: Set<string>; blobs: Set<string> };

/** The revisions to start from: all of the organization's, or those of some of its spaces. */
export type RevisionScope = { organizationId: string; spaceIds?: string[] };

async function rootsOf(db: Executor, scope: RevisionScope, tree: Tree): Promise<string[]> {
  return revisionTreeRoots(db, scope, tree.root);
}

/**
 * Walks one tree kind from its roots, skipping nodes in `seen` (their subtrees were walked already),
 * adding what it loads to `seen` and the leaves their entries name to `leaves`. A node only counts as
 * seen once it was loaded, so a continued walk never trusts a subtree it did not read.
 */
async function walk(db: Executor, scope: RevisionScope, tree: Tree, seen: Set<string>, leaves: Set<string>): Promise<void> {
  let frontier = (await rootsOf(db, scope, tree)).filter((hash) => !seen.has(hash));
  while (frontier.length > 0) {
    const next = new Set<string>();
    for (const [hash, node] of await loadNodes(db, tree.table, scope.organizationId, frontier)) {
      seen.add(hash);
      const chunks = chunkHashesOf(node);
      for (const child of chunks ?? []) next.add(child);
      for (const entry of chunks ? [] : (node as Entry[])) {
        if (entry.childrenHash) next.add(entry.childrenHash);
        const leaf = entry[tree.leaf];
        if (typeof leaf === 'string') leaves.add(leaf);
      }
    }
    frontier = [...next].filter((hash) => !seen.has(hash));
  }
}

/**
 * Every object the scope's revisions reach, any revision of any line (change requests included).
 * Given `earlier`, the result of an earlier walk of the same scope, it continues that walk: only nodes
 * it did not load are read (objects are immutable, so a loaded node's subtree cannot have changed).
 */
export async function reachableContent(db: Executor, scope: RevisionScope, earlier?: ReachableContent): Promise<ReachableContent> {
  const reached: ReachableContent = {
    treeNodes: new Set(earlier?.treeNodes),
    reusableNodes: new Set(earlier?.reusableNodes),
    fileNodes: new Set(earlier?.fileNodes),
    documents: new Set(earlier?.documents),
    blobs: new Set(earlier?.blobs),
  };
  await walk(db, scope, PAGES, reached.treeNodes, reached.documents);
  await walk(db, scope, REUSABLES, reached.reusableNodes, reached.documents);
  await walk(db, scope, FILES, reached.fileNodes, reached.blobs);
  return reached;
}
