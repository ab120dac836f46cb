// Change requests, their contributors and the conflicts merges recorded (docs/design/content-model.md, "Change requests", "Conflicts").
import { sql, type Expression, type Selectable } from 'kysely';
import type { AttachedRow } from '../../access/standing.repository.js';
import type { Executor } from '../../db/database.js';
import type { ChangeRequestsTable, ChangeRequestStatus, ConflictKind, ConflictResolution } from '../../db/schema.js';

export type ChangeRequestRow = Selectable<ChangeRequestsTable> & {
  creatorEmail: string | null;
  creatorDisplayName: string | null;
  creatorPhotoUrl: string | null;
  /** The space's head moved past the request's base (draft and open requests only). */
  outdated: boolean;
};

/**
 * The change requests of a space as the API shows them: with their creator and `outdated`. The space
 * is given by its ids, or by expressions naming them (a subquery correlated with a space row).
 */
export function changeRequestsQuery(db: Executor, organizationId: string | Expression<string>, spaceId: string | Expression<string>) {
  return db
    .selectFrom('changeRequests as cr')
    .innerJoin('spaces as s', (join) => join.onRef('s.organizationId', '=', 'cr.organizationId').onRef('s.id', '=', 'cr.spaceId'))
    .leftJoin('users as u', 'u.id', 'cr.createdBy')
    .selectAll('cr')
    .select([
      'u.email as creatorEmail',
      'u.displayName as creatorDisplayName',
      'u.photoUrl as creatorPhotoUrl',
      sql<boolean>`(cr.status IN ('draft', 'open') AND s.head_revision_id <> coalesce(cr.revision_merged_ancestor_id, cr.revision_initial_id))`.as('outdated'),
    ])
    .where('cr.organizationId', '=', organizationId)
    .where('cr.spaceId', '=', spaceId);
}

/** The largest number a path may give (an `integer` column). */
const MAX_NUMBER = 2_147_483_647;

/** `ref` as a change-request number, when it is one. */
export function numberOf(ref: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(ref)) return undefined;
  const number = Number(ref);
  return number <= MAX_NUMBER ? number : undefined;
}

/**
 * The request of `ref` among `query`'s: by id or by number. An all-digit string could be both (ids are
 * random base62): the id wins.
 */
function byRef(query: ReturnType<typeof changeRequestsQuery>, ref: string, number: number | undefined) {
  return query
    .where((eb) => (number === undefined ? eb('cr.id', '=', ref) : eb.or([eb('cr.id', '=', ref), eb('cr.number', '=', number)])))
    .orderBy(sql`cr.id = ${ref}`, 'desc')
    .limit(1);
}

/** A change request of the space by id or by number, in one query. */
export async function findChangeRequest(db: Executor, organizationId: string, spaceId: string, ref: string): Promise<ChangeRequestRow | undefined> {
  return byRef(changeRequestsQuery(db, organizationId, spaceId), ref, numberOf(ref)).executeTakeFirst();
}

/**
 * The change request `ref` of the space row `sp`, read in the space's own statement when access resolves
 * the `change-request` scope (access/standing.repository.ts): the same row as findChangeRequest's, as
 * one JSON value.
 */
export function changeRequestOfSpace(db: Executor, ref: string): AttachedRow<ChangeRequestRow> {
  const number = numberOf(ref);
  return {
    shape: number === undefined ? 'change-request-by-id' : 'change-request-by-id-or-number',
    values: { changeRequestRef: ref, changeRequestNumber: number },
    select: (bind) => {
      const query = byRef(
        changeRequestsQuery(db, sql<string>`sp.organization_id`, sql<string>`sp.id`),
        bind<string>('changeRequestRef'),
        number === undefined ? undefined : bind<number>('changeRequestNumber'),
      );
      return sql`(SELECT to_jsonb(found) FROM (${query}) found)`;
    },
    parse: changeRequestFromJson,
  };
}

/** A change request row from its JSON (to_jsonb): its times as dates again. */
function changeRequestFromJson(json: Record<string, unknown>): ChangeRequestRow {
  const row = json as ChangeRequestRow & { createdAt: string; updatedAt: string; mergedAt: string | null };
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt), mergedAt: row.mergedAt === null ? null : new Date(row.mergedAt) };
}

export async function findChangeRequestById(db: Executor, organizationId: string, spaceId: string, id: string): Promise<ChangeRequestRow | undefined> {
  return changeRequestsQuery(db, organizationId, spaceId).where('cr.id', '=', id).executeTakeFirst();
}

/** The list: one status, optionally only requests `contributor` wrote to. */
export function filteredChangeRequestsQuery(db: Executor, organizationId: string, spaceId: string, filters: { status: ChangeRequestStatus; contributor?: string | undefined }) {
  let query = changeRequestsQuery(db, organizationId, spaceId).where('cr.status', '=', filters.status);
  if (filters.contributor !== undefined) {
    const contributor = filters.contributor;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('changeRequestContributors as c')
          .select(eb.lit(1).as('one'))
          .whereRef('c.organizationId', '=', 'cr.organizationId')
          .whereRef('c.changeRequestId', '=', 'cr.id')
          .where('c.userId', '=', contributor),
      ),
    );
  }
  return query;
}

export type LockedChangeRequest = Pick<
  Selectable<ChangeRequestsTable>,
  'id' | 'spaceId' | 'status' | 'createdBy' | 'revisionId' | 'revisionInitialId' | 'revisionMergedAncestorId'
>;

/** Locks the request's row for the transaction (after the space's row: one lock order everywhere). */
export async function lockChangeRequest(trx: Executor, organizationId: string, spaceId: string, id: string): Promise<LockedChangeRequest | undefined> {
  return trx
    .selectFrom('changeRequests')
    .select(['id', 'spaceId', 'status', 'createdBy', 'revisionId', 'revisionInitialId', 'revisionMergedAncestorId'])
    .where('organizationId', '=', organizationId)
    .where('spaceId', '=', spaceId)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

export type NewChangeRequest = {
  organizationId: string;
  id: string;
  spaceId: string;
  number: number;
  subject: string;
  createdBy: string;
  revisionId: string;
  agentTaskId: string | null;
};

export async function insertChangeRequest(trx: Executor, values: NewChangeRequest): Promise<void> {
  await trx
    .insertInto('changeRequests')
    .values({ ...values, status: 'open', revisionInitialId: values.revisionId })
    .execute();
}

export async function updateChangeRequestRow(
  trx: Executor,
  organizationId: string,
  id: string,
  patch: { subject?: string; status?: ChangeRequestStatus; revisionMergedId?: string; mergedAt?: Date; mergedBy?: string },
): Promise<void> {
  await trx
    .updateTable('changeRequests')
    .set({ ...patch, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/** Moves a request's head from `from` to `to` (compare-and-swap); false when it was not at `from`. */
export async function swapChangeRequestHead(
  trx: Executor,
  organizationId: string,
  id: string,
  from: string,
  to: string,
  extra: { revisionMergedAncestorId?: string } = {},
): Promise<boolean> {
  const result = await trx
    .updateTable('changeRequests')
    .set({ revisionId: to, ...extra, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .where('revisionId', '=', from)
    .where('status', 'in', ['draft', 'open'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function addContributor(trx: Executor, organizationId: string, changeRequestId: string, userId: string): Promise<void> {
  await trx
    .insertInto('changeRequestContributors')
    .values({ organizationId, changeRequestId, userId })
    .onConflict((oc) => oc.columns(['organizationId', 'changeRequestId', 'userId']).doNothing())
    .execute();
}

export type ConflictValues = {
  kind: ConflictKind;
  pageId?: string | null | undefined;
  fileId?: string | undefined;
  reusableContentId?: string | undefined;
  field?: string | undefined;
  base: unknown;
  ours: unknown;
  theirs: unknown;
  resolution: ConflictResolution;
};

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** One row per conflict a merge or update resolved, numbered in the order they were found. */
export async function insertConflicts(trx: Executor, organizationId: string, revisionId: string, conflicts: ConflictValues[]): Promise<void> {
  if (conflicts.length === 0) return;
  await trx
    .insertInto('revisionConflicts')
    .values(
      conflicts.map((c, ordinal) => ({
        organizationId,
        revisionId,
        ordinal,
        kind: c.kind,
        pageId: c.pageId ?? null,
        fileId: c.fileId ?? null,
        reusableContentId: c.reusableContentId ?? null,
        field: c.field ?? null,
        base: json(c.base),
        ours: json(c.ours),
        theirs: json(c.theirs),
        resolution: c.resolution,
      })),
    )
    .execute();
}

/** Status counters of a space: how a request moving between statuses changes them. */
export async function adjustChangeRequestCounters(trx: Executor, organizationId: string, spaceId: string, from: ChangeRequestStatus | null, to: ChangeRequestStatus | null): Promise<void> {
  const delta = (status: ChangeRequestStatus) => (to === status ? 1 : 0) - (from === status ? 1 : 0);
  const total = (to !== null ? 1 : 0) - (from !== null ? 1 : 0);
  if (total === 0 && delta('open') === 0 && delta('draft') === 0) return;
  await sql`
    UPDATE spaces SET
      change_requests_count = change_requests_count + ${total},
      change_requests_open_count = change_requests_open_count + ${delta('open')},
      change_requests_draft_count = change_requests_draft_count + ${delta('draft')}
    WHERE organization_id = ${organizationId} AND id = ${spaceId}`.execute(trx);
}

/** Locks a live space's row (the first lock of every change-request write) and reads its head and mode. */
export async function lockSpaceForChangeRequests(
  trx: Executor,
  organizationId: string,
  spaceId: string,
): Promise<{ headRevisionId: string; editMode: string; crSeq: number } | undefined> {
  return trx
    .selectFrom('spaces')
    .select(['headRevisionId', 'editMode', 'crSeq'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', spaceId)
    .where('deletedAt', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Takes the space's next change-request number (exact under concurrency: the row stays locked) and its head. */
export async function claimChangeRequestNumber(trx: Executor, organizationId: string, spaceId: string): Promise<{ number: number; headRevisionId: string } | undefined> {
  const row = await trx
    .updateTable('spaces')
    .set((eb) => ({ crSeq: eb('crSeq', '+', 1) }))
    .where('organizationId', '=', organizationId)
    .where('id', '=', spaceId)
    .where('deletedAt', 'is', null)
    .returning(['crSeq', 'headRevisionId'])
    .executeTakeFirst();
  return row ? { number: row.crSeq, headRevisionId: row.headRevisionId } : undefined;
}
