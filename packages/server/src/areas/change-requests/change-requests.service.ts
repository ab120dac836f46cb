// Change-request lifecycle: create (numbered per space), subject and status (D6). Every write locks the space row first, then the request's, so status
// moves, merges and updates never deadlock one another and the space's counters stay exact.
import type { components } from '@content-workspace/contract';
import { inTransaction, type Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import {
  adjustChangeRequestCounters,
  claimChangeRequestNumber,
  findChangeRequestById,
  insertChangeRequest,
  lockChangeRequest,
  lockSpaceForChangeRequests,
  updateChangeRequestRow,
  type ChangeRequestRow,
} from './change-requests.repository.js';
import type { ChangeRequestStatus } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordEvents, type EventType, type NewEvent } from '../events/index.js';
import type { ChangeRequestEvents } from './change-request-merge.js';
import { toApiChangeRequest } from './change-request.mapper.js';

type Schemas = components['schemas'];

/** Subject of a change request created without one. */
export const DEFAULT_SUBJECT = '';

/** Status moves `PATCH` allows (D6); `merged` is only set by the merge. */
const MOVES: Record<ChangeRequestStatus, readonly ChangeRequestStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open'],
  merged: [],
};

/** Statuses whose content, subject and head may change (merge and update included). */
export const isEditable = (status: ChangeRequestStatus) => status === 'draft' || status === 'open';

/** Creates an `open` request at the space's head: no revision is written until its first change (D2). */
export async function createChangeRequest(db: Executor, space: SpaceRow, creatorId: string, body: Schemas['CreateChangeRequestRequest'], events: ChangeRequestEvents): Promise<ChangeRequestRow> {
  return inTransaction(db, async (trx) => {
    const claimed = await claimChangeRequestNumber(trx, space.organizationId, space.id);
    if (!claimed) throw notFound('Space');
    const id = newId();
    await insertChangeRequest(trx, {
      organizationId: space.organizationId,
      id,
      spaceId: space.id,
      number: claimed.number,
      subject: body.subject ?? DEFAULT_SUBJECT,
      createdBy: creatorId,
      revisionId: claimed.headRevisionId,
      agentTaskId: body.agentTaskId ?? null,
    });
    await adjustChangeRequestCounters(trx, space.organizationId, space.id, null, 'open');
    const created = (await findChangeRequestById(trx, space.organizationId, space.id, id))!;
    const data = { object: toApiChangeRequest(created, events.urls) };
    await recordEvents(trx, [{ type: 'change-request.opened', organizationId: space.organizationId, spaceId: space.id, actor: events.actor, data }]);
    return created;
  });
}

/** The event of each status move (D6); `merged` has its own, recorded by the merge. */
const STATUS_EVENTS: Partial<Record<`${ChangeRequestStatus}>${ChangeRequestStatus}`, EventType>> = {
  'draft>open': 'change-request.review-requested',
  'draft>archived': 'change-request.closed',
  'open>archived': 'change-request.closed',
  'archived>open': 'change-request.reopened',
  'open>draft': 'change-request.updated',
};

/** Changes the subject and/or the status; 409 for a move D6 forbids or a subject edit on a closed request. */
export async function patchChangeRequest(db: Executor, space: SpaceRow, id: string, body: Schemas['UpdateChangeRequestRequest'], events: ChangeRequestEvents): Promise<ChangeRequestRow> {
  return inTransaction(db, async (trx) => {
    if (!(await lockSpaceForChangeRequests(trx, space.organizationId, space.id))) throw notFound('Space');
    const current = await lockChangeRequest(trx, space.organizationId, space.id, id);
    if (!current) throw notFound('Change request');
    const patch: { subject?: string; status?: ChangeRequestStatus } = {};
    if (body.status !== undefined && body.status !== current.status) {
      if (!MOVES[current.status].includes(body.status)) {
        throw conflict(body.status === 'merged' ? 'A change request becomes merged only by merging it' : `A change request cannot move from ${current.status} to ${body.status}`);
      }
      patch.status = body.status;
    }
    if (body.subject !== undefined) {
      // Closed before and after this request (reopening with a new subject is fine).
      if (!isEditable(current.status) && !isEditable(patch.status ?? current.status)) throw conflict(`The change request is ${current.status}: its subject cannot be changed`);
      patch.subject = body.subject;
    }
    if (Object.keys(patch).length > 0) {
      await updateChangeRequestRow(trx, space.organizationId, id, patch);
      if (patch.status) await adjustChangeRequestCounters(trx, space.organizationId, space.id, current.status, patch.status);
    }
    const updated = (await findChangeRequestById(trx, space.organizationId, space.id, id))!;
    // A status move has its event; a new subject alone is an update.
    const statusEvent = patch.status && STATUS_EVENTS[`${current.status}>${patch.status}`];
    const types: EventType[] = statusEvent ? [statusEvent] : [];
    if (patch.subject !== undefined && statusEvent !== 'change-request.updated') types.push('change-request.updated');
    const object = toApiChangeRequest(updated, events.urls);
    const previousStatus = patch.status ? { previousStatus: current.status } : {};
    await recordEvents(
      trx,
      types.map((type) => ({ type, organizationId: space.organizationId, spaceId: space.id, actor: events.actor, data: { object, ...previousStatus } }) as NewEvent),
    );
    return updated;
  });
}
