// The content's share of a cross-organization transfer (docs/design/data-lifecycle.md, "Transfer"): every content
// object reachable from any revision of the moved spaces is copied under the target organization
// (objects it already has are kept: `ON CONFLICT DO NOTHING`). The source's objects
// stay, as other spaces may share them; the source is marked for garbage collection, which reclaims
// what nothing reaches any more. The cost follows the stored history: each distinct node is read once.
import { copyDocuments, copyFileBlobRecords, copyNodes, lockContentObjects, markContentGarbage, type NodeTable } from '../../content/content-objects.repository.js';
import type { TransferStep } from '../area.js';
import { reachableContent } from '../../content/reachability.js';

const NODE_TABLES: NodeTable[] = ['treeNodes', 'fileNodes', 'reusableNodes'];

const copyContentObjects: TransferStep = async (trx, s, { blobs }) => {
  if (s.spaceIds.length === 0) return;
  // Garbage collection must not sweep the source's objects while they are read, nor the target's
  // while this relies on the ones it already has.
  for (const organizationId of [s.from, s.to].sort()) await lockContentObjects(trx, organizationId, 'shared');
  const reached = await reachableContent(trx, { organizationId: s.from, spaceIds: s.spaceIds });
  for (const table of NODE_TABLES) await copyNodes(trx, table, s.from, s.to, [...reached[table]]);
  await copyDocuments(trx, s.from, s.to, [...reached.documents]);
  if (reached.blobs.size > 0) {
    await copyFileBlobRecords(trx, s.from, s.to, [...reached.blobs]);
    await blobs.copy(trx, s.from, s.to, [...reached.blobs]);
  }
  // The source keeps its copies until garbage collection finds what no remaining revision reaches.
  await markContentGarbage(trx, [s.from]);
};

/** Run after the revisions are copied (the lifecycle copies every table's rows before the steps). */
export const contentTransferSteps: TransferStep[] = [copyContentObjects];
