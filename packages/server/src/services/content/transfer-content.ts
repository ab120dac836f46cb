// The content's share of a cross-organization transfer (design/content-model.md §7): every content
// object reachable from any revision of the moved spaces is copied under the target organization
// (objects it already has are kept: `ON CONFLICT DO NOTHING`), then the head rows. The source's objects
// stay, as other spaces may share them; garbage collection reclaims them later.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { copyHeadRows } from '../../db/repositories/head-index.repository.js';
import { blobStore } from '../../storage/blob-store.js';
import type { TransferScope, TransferStep } from '../transfer.service.js';

type Tree = { table: 'tree_nodes' | 'file_nodes' | 'reusable_nodes'; root: 'pages_root' | 'files_root' | 'reusable_root'; leaf: 'documentHash' | 'blobHash' };

const PAGES: Tree = { table: 'tree_nodes', root: 'pages_root', leaf: 'documentHash' };
const FILES: Tree = { table: 'file_nodes', root: 'files_root', leaf: 'blobHash' };
const REUSABLES: Tree = { table: 'reusable_nodes', root: 'reusable_root', leaf: 'documentHash' };

/**
 * Copies the nodes reachable from the moved spaces' revisions (walking `childrenHash` links and chunk
 * lists) and answers the distinct leaf hashes their entries name (documents or blobs), hex.
 */
async function copyNodes(trx: Executor, s: TransferScope, tree: Tree): Promise<string[]> {
  const table = sql.table(tree.table);
  const entries = sql`jsonb_array_elements(CASE WHEN jsonb_typeof(n.entries) = 'array' THEN n.entries ELSE '[]'::jsonb END)`;
  const { rows } = await sql<{ hash: string }>`
    WITH RECURSIVE reach(hash) AS (
      SELECT DISTINCT r.${sql.ref(tree.root)} FROM revisions r
      WHERE r.organization_id = ${s.from} AND r.space_id = ANY(${s.spaceIds}::text[]) AND r.${sql.ref(tree.root)} IS NOT NULL
      UNION
      SELECT decode(child.hash, 'hex')
      FROM reach JOIN ${table} n ON n.organization_id = ${s.from} AND n.hash = reach.hash
      CROSS JOIN LATERAL (
        SELECT e->>'childrenHash' AS hash FROM ${entries} e
        UNION ALL
        SELECT c FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(n.entries) = 'object' THEN n.entries->'chunks' ELSE '[]'::jsonb END) c
      ) child
      WHERE child.hash IS NOT NULL
    ),
    copied AS (
      INSERT INTO ${table} (organization_id, hash, entries)
      SELECT ${s.to}, n.hash, n.entries FROM reach JOIN ${table} n ON n.organization_id = ${s.from} AND n.hash = reach.hash
      ON CONFLICT DO NOTHING
    )
    SELECT DISTINCT e->>${tree.leaf} AS hash
    FROM reach JOIN ${table} n ON n.organization_id = ${s.from} AND n.hash = reach.hash, ${entries} e
    WHERE e->>${tree.leaf} IS NOT NULL`.execute(trx);
  return rows.map((row) => row.hash);
}

async function copyDocuments(trx: Executor, s: TransferScope, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await sql`
    INSERT INTO documents (organization_id, hash, markdown, byte_length, created_at)
    SELECT ${s.to}, hash, markdown, byte_length, created_at FROM documents
    WHERE organization_id = ${s.from} AND hash = ANY(${hashes.map((h) => Buffer.from(h, 'hex'))}::bytea[])
    ON CONFLICT DO NOTHING`.execute(trx);
}

const copyContentObjects: TransferStep = async (trx, s) => {
  if (s.spaceIds.length === 0) return;
  const documents = [...(await copyNodes(trx, s, PAGES)), ...(await copyNodes(trx, s, REUSABLES))];
  await copyDocuments(trx, s, [...new Set(documents)]);
  const blobs = await copyNodes(trx, s, FILES);
  if (blobs.length === 0) return;
  await sql`
    INSERT INTO file_blobs (organization_id, sha256, size, width, height, storage, created_at)
    SELECT ${s.to}, sha256, size, width, height, storage, created_at FROM file_blobs
    WHERE organization_id = ${s.from} AND sha256 = ANY(${blobs.map((h) => Buffer.from(h, 'hex'))}::bytea[])
    ON CONFLICT DO NOTHING`.execute(trx);
  await blobStore.copy(trx, s.from, s.to, blobs);
};

const copyHeadIndex: TransferStep = async (trx, s) => {
  await copyHeadRows(trx, { organizationId: s.from, spaceIds: s.spaceIds }, { organizationId: s.to });
};

/** Run after the spaces and revisions are copied. */
export const contentTransferSteps: TransferStep[] = [copyContentObjects, copyHeadIndex];
