// The content's share of a cross-organization transfer (design/content-model.md §7): every content
// object reachable from any revision of the moved spaces is copied under the target organization
// (objects it already has are kept: `ON CONFLICT DO NOTHING`), then the head rows. The source's objects
// stay, as other spaces may share them; garbage collection reclaims them later. The cost follows the
// stored history: each distinct node is read once.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { copyNodes, loadNodes, type NodeTable } from '../../db/repositories/content-objects.repository.js';
import { copyHeadRows } from '../../db/repositories/head-index.repository.js';
import { blobStore } from '../../storage/blob-store.js';
import type { TransferScope, TransferStep } from '../transfer.service.js';
import { chunkHashesOf } from './chunked-list.js';

type Tree = { table: NodeTable; root: 'pages_root' | 'files_root' | 'reusable_root'; leaf: 'documentHash' | 'blobHash' };

const PAGES: Tree = { table: 'treeNodes', root: 'pages_root', leaf: 'documentHash' };
const FILES: Tree = { table: 'fileNodes', root: 'files_root', leaf: 'blobHash' };
const REUSABLES: Tree = { table: 'reusableNodes', root: 'reusable_root', leaf: 'documentHash' };

type Entry = Record<string, unknown> & { childrenHash?: string | null };

/**
 * Copies the nodes reachable from the moved spaces' revisions (following `childrenHash` links and chunk
 * lists, level by level) and answers the distinct leaf hashes their entries name (documents or blobs).
 */
async function copyTree(trx: Executor, s: TransferScope, tree: Tree): Promise<string[]> {
  const { rows } = await sql<{ hash: string }>`
    SELECT DISTINCT encode(${sql.ref(tree.root)}, 'hex') AS hash FROM revisions
    WHERE organization_id = ${s.from} AND space_id = ANY(${s.spaceIds}::text[]) AND ${sql.ref(tree.root)} IS NOT NULL`.execute(trx);
  const seen = new Set<string>();
  const leaves = new Set<string>();
  let frontier = rows.map((row) => row.hash);
  while (frontier.length > 0) {
    for (const hash of frontier) seen.add(hash);
    const next = new Set<string>();
    for (const node of (await loadNodes(trx, tree.table, s.from, frontier)).values()) {
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
  await copyNodes(trx, tree.table, s.from, s.to, [...seen]);
  return [...leaves];
}

const hex = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'hex'));

const copyContentObjects: TransferStep = async (trx, s) => {
  if (s.spaceIds.length === 0) return;
  const documents = new Set([...(await copyTree(trx, s, PAGES)), ...(await copyTree(trx, s, REUSABLES))]);
  if (documents.size > 0) {
    await sql`
      INSERT INTO documents (organization_id, hash, markdown, byte_length, created_at)
      SELECT ${s.to}, hash, markdown, byte_length, created_at FROM documents
      WHERE organization_id = ${s.from} AND hash = ANY(${hex([...documents])}::bytea[])
      ON CONFLICT DO NOTHING`.execute(trx);
  }
  const blobs = await copyTree(trx, s, FILES);
  if (blobs.length === 0) return;
  await sql`
    INSERT INTO file_blobs (organization_id, sha256, size, width, height, storage, created_at)
    SELECT ${s.to}, sha256, size, width, height, storage, created_at FROM file_blobs
    WHERE organization_id = ${s.from} AND sha256 = ANY(${hex(blobs)}::bytea[])
    ON CONFLICT DO NOTHING`.execute(trx);
  await blobStore.copy(trx, s.from, s.to, blobs);
};

const copyHeadIndex: TransferStep = async (trx, s) => {
  await copyHeadRows(trx, { organizationId: s.from, spaceIds: s.spaceIds }, { organizationId: s.to });
};

/** Run after the spaces and revisions are copied. */
export const contentTransferSteps: TransferStep[] = [copyContentObjects, copyHeadIndex];
