// The content's share of a cross-organization transfer (design/content-model.md §7): every content
// object reachable from any revision of the moved spaces is copied under the target organization
// (objects it already has are kept: `ON CONFLICT DO NOTHING`), then the head rows. The source's objects
// stay, as other spaces may share them; the source is marked for garbage collection, which reclaims
// what nothing reaches any more. The cost follows the stored history: each distinct node is read once.
import { sql } from 'kysely';
import { copyNodes, lockContentObjects, markContentGarbage, type NodeTable } from '../../content/content-objects.repository.js';
import { copyHeadRows } from '../../content/head-index.repository.js';
import { blobStore } from '../../content/blob-store.js';
import type { TransferStep } from '../area.js';
import { reachableContent } from '../../content/reachability.js';

const hex = (hashes: Iterable<string>) => [...hashes].map((hash) => Buffer.from(hash, 'hex'));

const NODE_TABLES: NodeTable[] = ['treeNodes', 'fileNodes', 'reusableNodes'];

const copyContentObjects: TransferStep = async (trx, s) => {
  if (s.spaceIds.length === 0) return;
  // Garbage collection must not sweep the source's objects while they are read, nor the target's
  // while this relies on the ones it already has.
  for (const organizationId of [s.from, s.to].sort()) await lockContentObjects(trx, organizationId, 'shared');
  const reached = await reachableContent(trx, { organizationId: s.from, spaceIds: s.spaceIds });
  for (const table of NODE_TABLES) await copyNodes(trx, table, s.from, s.to, [...reached[table]]);
  if (reached.documents.size > 0) {
    await sql`
      INSERT INTO documents (organization_id, hash, markdown, byte_length, created_at)
      SELECT ${s.to}, hash, markdown, byte_length, created_at FROM documents
      WHERE organization_id = ${s.from} AND hash = ANY(${hex(reached.documents)}::bytea[])
      ON CONFLICT DO NOTHING`.execute(trx);
  }
  if (reached.blobs.size > 0) {
    await sql`
      INSERT INTO file_blobs (organization_id, sha256, size, width, height, storage, created_at)
      SELECT ${s.to}, sha256, size, width, height, storage, created_at FROM file_blobs
      WHERE organization_id = ${s.from} AND sha256 = ANY(${hex(reached.blobs)}::bytea[])
      ON CONFLICT DO NOTHING`.execute(trx);
    await blobStore.copy(trx, s.from, s.to, [...reached.blobs]);
  }
  // The source keeps its copies until garbage collection finds what no remaining revision reaches.
  await markContentGarbage(trx, [s.from]);
};

const copyHeadIndex: TransferStep = async (trx, s) => {
  await copyHeadRows(trx, { organizationId: s.from, spaceIds: s.spaceIds }, { organizationId: s.to });
};

/** Run after the spaces and revisions are copied. */
export const contentTransferSteps: TransferStep[] = [copyContentObjects, copyHeadIndex];
