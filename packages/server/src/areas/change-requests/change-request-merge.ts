// Merge and update of a change request (docs/design/content-model.md, "Merge and update"): B = the request's base
// (`revision_merged_ancestor_id ?? revision_initial_id`), O = the space's primary head, T = the
// request's head. Both lock the space row, then the request's row (FOR NO KEY UPDATE: foreign-key
// checks of other writers still pass, head swaps and status moves wait), compute merge3(B, O, T), write
// one revision with its conflict rows and move a head by compare-and-swap, in one transaction. Two
// merges into one space therefore run one after the other, the second merging onto the first's
// result: nothing is lost.
import { sql } from 'kysely';
import { inTransaction, type Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import {
  adjustChangeRequestCounters,
  insertConflicts,
  lockChangeRequest,
  lockSpaceForChangeRequests,
  swapChangeRequestHead,
  updateChangeRequestRow,
  type LockedChangeRequest,
} from './change-requests.repository.js';
import { selectDocuments } from '../../content/content-objects.repository.js';
import { insertRevision } from '../../content/revisions.repository.js';
import type { RevisionType } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { isEditable } from './change-requests.service.js';
import { merge3, planMerge, type MergeConflict, type MergedContent } from '../../content/merge3-tree.js';
import { rootsOf, type ContentRoots, type ContentState } from '../../content/model.js';
import { HeadMovedError, retryOnRace, storeDraftObjects, type ContentWriter, type Trx } from '../../content/revision-writer.js';
import { spaceHeadPointer, type SpaceHeadListener } from '../../content/space-head.js';
import { loadContentState, rememberContentState } from '../../content/tree-store.js';
import type { ParsePool } from '../../parsing/parse-pool.js';
import type { Urls } from '../../urls.js';
import { recordEvent, type EventActor } from '../events/index.js';
import { recordingContentUpdates } from '../content/index.js';
import { findChangeRequestById } from './change-requests.repository.js';
import { toApiChangeRequest } from './change-request.mapper.js';

/** Who makes a change request's change, for the events recorded with it. */
export type ChangeRequestEvents = { actor: EventActor; urls: Urls };

/**
 * What a merge or an update records in its transaction. `recordingMerges` records their events; the
 * merge benchmark passes a recorder that records nothing, to measure what recording costs.
 */
export type MergeRecorder = {
  contentMoved: SpaceHeadListener;
  merged(trx: Trx, revisionId: string, result: 'merge' | 'conflicts'): Promise<void>;
  updated(trx: Trx): Promise<void>;
};

export function recordingMerges(events: ChangeRequestEvents, changeRequestId: string, space: SpaceRow): MergeRecorder {
  const object = async (trx: Trx) => toApiChangeRequest((await findChangeRequestById(trx, space.organizationId, space.id, changeRequestId))!, events.urls);
  return {
    contentMoved: recordingContentUpdates(space, { ...events, revisionType: 'merge', changeRequestId }),
    async merged(trx, revision, result) {
      await recordEvent(trx, { type: 'change-request.merged', organizationId: space.organizationId, spaceId: space.id, actor: events.actor, data: { object: await object(trx), revision, result } });
    },
    async updated(trx) {
      await recordEvent(trx, { type: 'change-request.updated', organizationId: space.organizationId, spaceId: space.id, actor: events.actor, data: { object: await object(trx) } });
    },
  };
}

export type MergeOutcome = { revisionId: string; result: 'merge' | 'update' | 'conflicts'; conflicts: MergeConflict[] };

type Locked = { head: string; changeRequest: LockedChangeRequest; base: string };

async function lockBoth(trx: Trx, space: SpaceRow, changeRequestId: string, action: string): Promise<Locked> {
  const locked = await lockSpaceForChangeRequests(trx, space.organizationId, space.id);
  if (!locked) throw notFound('Space');
  if (locked.editMode === 'locked') throw forbidden('The space is locked: its content cannot be changed');
  const changeRequest = await lockChangeRequest(trx, space.organizationId, space.id, changeRequestId);
  if (!changeRequest) throw notFound('Change request');
  if (!isEditable(changeRequest.status)) throw conflict(`The change request is ${changeRequest.status}: it cannot be ${action}`);
  return { head: locked.headRevisionId, changeRequest, base: changeRequest.revisionMergedAncestorId ?? changeRequest.revisionInitialId };
}

const hex = (hash: Buffer | null) => (hash ? hash.toString('hex') : null);

/** The content of several revisions of the space (one query for their roots; trees from the cache). */
async function loadStates(db: Executor, writer: ContentWriter, organizationId: string, ids: string[]): Promise<Map<string, ContentState>> {
  const rows = await db
    .selectFrom('revisions')
    .select(['id', 'pagesRoot', 'filesRoot', 'reusableRoot'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', sql<string>`ANY(${[...new Set(ids)]}::text[])`)
    .execute();
  const states = new Map<string, ContentState>();
  for (const row of rows) {
    const roots: ContentRoots = { pages: hex(row.pagesRoot), files: hex(row.filesRoot), reusables: hex(row.reusableRoot) };
    states.set(row.id, await loadContentState(db, writer.caches, organizationId, roots));
  }
  return states;
}

/** merge3 with the bodies it needs loaded; a fast-forward when the primary did not move. */
async function mergeContent(db: Executor, organizationId: string, base: ContentState, ours: ContentState, theirs: ContentState): Promise<MergedContent> {
  const plan = planMerge(base, ours, theirs);
  const documents = await selectDocuments(db, organizationId, plan.documents);
  return merge3(plan, documents);
}

async function writeMergeRevision(
  trx: Trx,
  writer: ContentWriter,
  space: SpaceRow,
  values: { type: RevisionType; parentIds: string[]; changeRequestId: string | null; mergedFrom: string | null; merged: MergedContent; userId: string },
  pool: ParsePool,
): Promise<string> {
  const { organizationId } = space;
  // Merged bodies were never through a request's gate: they are read in the pool (content/parsed-bodies.ts).
  await storeDraftObjects(trx, writer.blobs, organizationId, values.merged, { pool });
  const revisionId = newId();
  const roots = rootsOf(values.merged.state);
  await insertRevision(trx, {
    organizationId,
    id: revisionId,
    spaceId: space.id,
    type: values.type,
    parentIds: values.parentIds,
    changeRequestId: values.changeRequestId,
    mergedFromChangeRequestId: values.mergedFrom,
    pagesRoot: roots.pages ? Buffer.from(roots.pages, 'hex') : null,
    filesRoot: roots.files ? Buffer.from(roots.files, 'hex') : null,
    reusableRoot: roots.reusables ? Buffer.from(roots.reusables, 'hex') : null,
    pageCount: values.merged.state.pages.pages.size,
    createdBy: values.userId,
  });
  await insertConflicts(trx, organizationId, revisionId, values.merged.conflicts);
  return revisionId;
}

const outcome = (revisionId: string, clean: 'merge' | 'update', conflicts: MergeConflict[]): MergeOutcome => ({
  revisionId,
  result: conflicts.length > 0 ? 'conflicts' : clean,
  conflicts,
});

/**
 * Merges the change request into the space: a `merge` revision (parents [O, T], D10 even for a
 * fast-forward) becomes the space's head, and the request becomes `merged`.
 */
export async function mergeChangeRequest(writer: ContentWriter, space: SpaceRow, changeRequestId: string, userId: string, pool: ParsePool, recorder: MergeRecorder): Promise<MergeOutcome> {
  const { organizationId } = space;
  const done = await retryOnRace(() =>
    inTransaction(writer.db, async (trx) => {
      const { head, changeRequest, base } = await lockBoth(trx, space, changeRequestId, 'merged');
      const states = await loadStates(trx, writer, organizationId, [base, head, changeRequest.revisionId]);
      const ours = states.get(head)!;
      const theirs = states.get(changeRequest.revisionId)!;
      const merged: MergedContent =
        head === base
          ? { state: theirs, nodes: { pages: [], files: [], reusables: [] }, documents: [], conflicts: [] }
          : await mergeContent(trx, organizationId, states.get(base)!, ours, theirs);
      const revisionId = await writeMergeRevision(trx, writer, space, {
        type: 'merge',
        parentIds: [head, changeRequest.revisionId],
        changeRequestId: null,
        mergedFrom: changeRequest.id,
        merged,
        userId,
      }, pool);
      // Through the primary head pointer, so the materialised head follows the merge's diff (and its event is recorded).
      const pointer = spaceHeadPointer(space, recorder.contentMoved);
      if (!(await pointer.swap(trx, head, revisionId))) throw new HeadMovedError();
      await pointer.afterMove!(trx, ours, merged.state, { pool }, { from: head, to: revisionId });
      await updateChangeRequestRow(trx, organizationId, changeRequest.id, { status: 'merged', revisionMergedId: revisionId, mergedAt: new Date(), mergedBy: userId });
      await adjustChangeRequestCounters(trx, organizationId, space.id, changeRequest.status, 'merged');
      await recorder.merged(trx, revisionId, merged.conflicts.length > 0 ? 'conflicts' : 'merge');
      return { revisionId, merged };
    }),
  );
  rememberContentState(writer.caches, organizationId, done.merged.state);
  return outcome(done.revisionId, 'merge', done.merged.conflicts);
}

/**
 * Pulls the space's content into the change request: an `update` revision (parents [T, O]) becomes
 * its head and O its merged ancestor. Nothing is written when the space did not move since the base.
 */
export async function updateChangeRequest(writer: ContentWriter, space: SpaceRow, changeRequestId: string, userId: string, pool: ParsePool, recorder: MergeRecorder): Promise<MergeOutcome> {
  const { organizationId } = space;
  const done = await retryOnRace(() =>
    inTransaction(writer.db, async (trx) => {
      const { head, changeRequest, base } = await lockBoth(trx, space, changeRequestId, 'updated');
      if (head === base) return { revisionId: changeRequest.revisionId, merged: undefined };
      const states = await loadStates(trx, writer, organizationId, [base, head, changeRequest.revisionId]);
      const merged = await mergeContent(trx, organizationId, states.get(base)!, states.get(head)!, states.get(changeRequest.revisionId)!);
      const revisionId = await writeMergeRevision(trx, writer, space, {
        type: 'update',
        parentIds: [changeRequest.revisionId, head],
        changeRequestId: changeRequest.id,
        mergedFrom: null,
        merged,
        userId,
      }, pool);
      const swapped = await swapChangeRequestHead(trx, organizationId, changeRequest.id, changeRequest.revisionId, revisionId, { revisionMergedAncestorId: head });
      if (!swapped) throw new HeadMovedError();
      await recorder.updated(trx);
      return { revisionId, merged };
    }),
  );
  if (!done.merged) return outcome(done.revisionId, 'update', []);
  rememberContentState(writer.caches, organizationId, done.merged.state);
  return outcome(done.revisionId, 'update', done.merged.conflicts);
}
