// Which content objects a set of revisions reaches (design/content-model.md §5.2). Nodes are stored
// deflated, so SQL cannot follow their links: the walk loads them level by level from the roots,
// following `childrenHash` links and chunk lists, and collects the leaves their entries name (bodies
// and file blobs). Each distinct node is read once. A cross-organization transfer copies what the
// moved spaces reach; garbage collection keeps what the whole organization reaches.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { loadNodes, type NodeTable } from '../../db/repositories/content-objects.repository.js';
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
  const { rows } = await sql<{ hash: string }>`
    SELECT DISTINCT encode(${sql.ref(tree.root)}, 'hex') AS hash FROM revisions
    WHERE organization_id = ${scope.organizationId} AND ${sql.ref(tree.root)} IS NOT NULL
      ${scope.spaceIds ? sql`AND space_id = ANY(${scope.spaceIds}::text[])` : sql``}`.execute(db);
  return rows.map((row) => row.hash);
}

/** Walks one tree kind from its roots: the nodes it reaches, and adds the leaves it names to `leaves`. */
async function walk(db: Executor, scope: RevisionScope, tree: Tree, leaves: Set<string>): Promise<Set<string>> {
  const seen = new Set<string>();
  let frontier = await rootsOf(db, scope, tree);
  while (frontier.length > 0) {
    for (const hash of frontier) seen.add(hash);
    const next = new Set<string>();
    for (const node of (await loadNodes(db, tree.table, scope.organizationId, frontier)).values()) {
      const chunks = chunkHashesOf(node);
      for (const hash of chunks ?? []) next.add(hash);
      for (const entry of chunks ? [] : (node as Entry[])) {
        if (entry.childrenHash) next.add(entry.childrenHash);
        const leaf = entry[tree.leaf];
        if (typeof leaf === 'string') leaves.add(leaf);
      }
    }
    frontier = [...next].filter((hash) => !seen.has(hash));
  }
  return seen;
}

/** Every object the scope's revisions reach, any revision of any line (change requests included). */
export async function reachableContent(db: Executor, scope: RevisionScope): Promise<ReachableContent> {
  const documents = new Set<string>();
  const blobs = new Set<string>();
  return {
    treeNodes: await walk(db, scope, PAGES, documents),
    reusableNodes: await walk(db, scope, REUSABLES, documents),
    fileNodes: await walk(db, scope, FILES, blobs),
    documents,
    blobs,
  };
}
