import { collectContentGarbageWorker } from '../../content/collect-content-garbage.job.js';
import { contentHandlers } from './content.handlers.js';
import { fileHandlers } from './files.handlers.js';
import { markContentGarbage } from '../../content/content-objects.repository.js';
import { contentTransferSteps } from './transfer-content.js';
import { defineArea } from '../area.js';

const SHARED_OBJECTS =
  'Content objects are shared by content address within an organization, never deleted with a space: a transfer copies those the moved revisions reach (its step), garbage collection sweeps what nothing reaches';

/**
 * A space's content: revisions, the content objects they reach (shared by content address, so never
 * deleted with a space: a purge marks the organization and the garbage collection sweeps), and the
 * materialised head rows.
 */
export const contentArea = defineArea({
  name: 'content',
  handlers: { ...contentHandlers, ...fileHandlers },
  tables: {
    revisions: { transfer: 'moves', duplicate: { dropped: 'History stays with the original: the duplicate service writes the copy’s first revision, on the same roots' } },
    spaceHeadPages: { transfer: 'moves', duplicate: { copied: { why: 'The copy has the same head: its materialised rows are the original’s' } } },
    spaceHeadFiles: { transfer: 'moves', duplicate: { copied: { why: 'The copy has the same head: its materialised rows are the original’s' } } },
    treeNodes: { stays: SHARED_OBJECTS },
    fileNodes: { stays: SHARED_OBJECTS },
    reusableNodes: { stays: SHARED_OBJECTS },
    documents: { stays: SHARED_OBJECTS },
    fileBlobs: { stays: SHARED_OBJECTS },
    blobBytes: { stays: SHARED_OBJECTS },
    documentParses: { stays: 'What was read of a document (its tree, sections and blocks), with the document: copied with it (content-objects.repository.ts, copyDocuments), removed with it by cascade' },
    contentGarbageMarks: { stays: 'The organizations whose unreachable objects garbage collection should look for' },
  },
  steps: {
    transfer: contentTransferSteps,
    purge: [async (trx, { spaces }) => markContentGarbage(trx, [...new Set(spaces.map((space) => space.organizationId))])],
  },
  events: ['space.content-updated'],
  jobs: (context) => [collectContentGarbageWorker(context.db, context.blobs)],
  conflicts: { revisions_organization_id_space_id_fkey: 'The space was removed meanwhile' },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { recordingContentUpdates } from './content-events.js';
export { byName, toApiFile, toApiPage, toApiPages, toApiRevision, type ContentContext } from './content.mapper.js';
export { applySpaceBatch, applySpaceChanges, loadRevisionContent, loadRevisionState, readPageBody, revisionRoots, writeBatch, type BatchOptions, type ContentEvents, type ContentReader, type InternalBatch } from './space-content.service.js';
