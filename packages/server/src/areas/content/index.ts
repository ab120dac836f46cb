import { collectContentGarbageWorker } from '../../content/collect-content-garbage.job.js';
import { contentHandlers } from './content.handlers.js';
import { fileHandlers } from './files.handlers.js';
import { copyHeadRows } from '../../content/head-index.repository.js';
import { markContentGarbage } from '../../content/content-objects.repository.js';
import { contentTransferSteps } from './transfer-content.js';
import { copyRevisions } from '../../content/revisions.repository.js';
import { defineArea } from '../area.js';

/**
 * A space's content: revisions, the content objects they reach (shared by content address, so never
 * deleted with a space: a purge marks the organization and the garbage collection sweeps), and the
 * materialised head rows.
 */
export const contentArea = defineArea({
  name: 'content',
  handlers: { ...contentHandlers, ...fileHandlers },
  tables: [
    'revisions',
    'tree_nodes',
    'file_nodes',
    'reusable_nodes',
    'documents',
    'file_blobs',
    'blob_bytes',
    'space_head_pages',
    'space_head_files',
    'content_garbage_marks',
  ],
  transfer: [(trx, scope) => copyRevisions(trx, scope), ...contentTransferSteps],
  purge: [async (trx, { spaces }) => markContentGarbage(trx, [...new Set(spaces.map((space) => space.organizationId))])],
  duplicate: [
    async (trx, { organizationId, sourceSpaceId, copySpaceId }) =>
      copyHeadRows(trx, { organizationId, spaceIds: [sourceSpaceId] }, { organizationId, spaceId: copySpaceId }),
  ],
  jobs: (context) => [collectContentGarbageWorker(context.db, context.blobs)],
  conflicts: { revisions_organization_id_space_id_fkey: 'The space was removed meanwhile' },
});
