// Comments, replies, their reactions and the anchor cache (db/migrations/20261124T100000_comments.ts).
// Every query is scoped by organization, space and family (`change_request_id` null for the space's
// own comments), so a comment of another space, change request or family reads as absent.
import { sql, type Selectable } from 'kysely';
import { PREPARED, type Executor } from '../../db/database.js';
import type { CommentRepliesTable, CommentsTable, CommentStatus } from '../../db/schema.js';

/** Where comments live: a space's own, or one change request's. */
export type CommentContext = {
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  /** The context's head: the space's head revision, or the change request's. */
  headRevisionId: string;
};

/** What the API shows of a comment (its target resolved apart: targets.ts), as a list reads it. */
const SHOWN = ['c.id', 'c.revisionId', 'c.pageId', 'c.bodyMarkdown', 'c.status', 'c.resolvedAt', 'c.resolvedBy', 'c.postedBy', 'c.postedAt', 'c.editedAt', 'c.repliesCount'] as const;

/**
 * A comment with its author and resolver (joined by primary key: one query brings a page of them).
 * Without its anchor (quote, context, page title at posting, …): only a target the cache does not hold
 * needs it (findCommentTargets), and it is most of a row's bytes.
 */
export type CommentRow = Pick<Selectable<CommentsTable>, 'id' | 'revisionId' | 'pageId' | 'bodyMarkdown' | 'status' | 'resolvedAt' | 'resolvedBy' | 'postedBy' | 'postedAt' | 'editedAt' | 'repliesCount'> & {
  posterEmail: string | null;
  posterName: string | null;
  posterPhotoUrl: string | null;
  resolverEmail: string | null;
  resolverName: string | null;
  resolverPhotoUrl: string | null;
};
export type ReplyRow = Selectable<CommentRepliesTable>;

/** The comments of one context (no order, no limit): the list's base query, run as a prepared statement. */
export function commentsQuery(db: Executor, ctx: CommentContext) {
  return (
    db
      .selectFrom('comments as c')
      // Left joins on unique keys: a count over this query needs neither.
      .leftJoin('users as p', 'p.id', 'c.postedBy')
      .leftJoin('users as r', 'r.id', 'c.resolvedBy')
      .modifyFront(PREPARED)
      .select(SHOWN)
      .select([
        'p.email as posterEmail',
        'p.displayName as posterName',
        'p.photoUrl as posterPhotoUrl',
        'r.email as resolverEmail',
        'r.displayName as resolverName',
        'r.photoUrl as resolverPhotoUrl',
      ])
      .where('c.organizationId', '=', ctx.organizationId)
      .where('c.spaceId', '=', ctx.spaceId)
      .where('c.contextKey', '=', ctx.changeRequestId ?? '')
  );
}

/** What a comment targets, as posted: its page (title and path then), block, quote and the body's hash. */
export type CommentTargetRow = Pick<
  Selectable<CommentsTable>,
  'id' | 'pageId' | 'pageTitle' | 'pagePath' | 'targetDocumentHash' | 'nodeId' | 'nodePreview' | 'anchorQuote' | 'anchorPrefix' | 'anchorSuffix'
>;

/** The targets of these comments as posted, by primary key (a comment deleted meanwhile is missing). */
export async function findCommentTargets(db: Executor, organizationId: string, ids: string[]): Promise<Map<string, CommentTargetRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('comments')
    .modifyFront(PREPARED)
    .select(['id', 'pageId', 'pageTitle', 'pagePath', 'targetDocumentHash', 'nodeId', 'nodePreview', 'anchorQuote', 'anchorPrefix', 'anchorSuffix'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', sql<string>`ANY(${ids}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export type CommentFilters = { status: 'all' | CommentStatus; targetPage?: string | undefined; authors?: string[] | undefined };

export function filteredCommentsQuery(db: Executor, ctx: CommentContext, filters: CommentFilters) {
  let query = commentsQuery(db, ctx);
  if (filters.status !== 'all') query = query.where('c.status', '=', filters.status);
  if (filters.targetPage !== undefined) query = query.where('c.pageId', '=', filters.targetPage);
  if (filters.authors?.length) query = query.where('c.postedBy', '=', sql<string>`ANY(${filters.authors}::text[])`);
  return query;
}

export async function findComment(db: Executor, ctx: CommentContext, id: string): Promise<CommentRow | undefined> {
  return commentsQuery(db, ctx).where('c.id', '=', id).executeTakeFirst();
}

/** Locks the comment's row for the transaction (after the context's row: one lock order everywhere). */
export async function lockComment(trx: Executor, ctx: CommentContext, id: string): Promise<Selectable<CommentsTable> | undefined> {
  return trx
    .selectFrom('comments')
    .selectAll()
    .where('organizationId', '=', ctx.organizationId)
    .where('spaceId', '=', ctx.spaceId)
    .where('contextKey', '=', ctx.changeRequestId ?? '')
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

export async function insertComment(
  trx: Executor,
  values: Omit<Selectable<CommentsTable>, 'contextKey' | 'status' | 'resolvedAt' | 'resolvedBy' | 'editedAt' | 'repliesCount' | 'postedAt'>,
): Promise<void> {
  await trx.insertInto('comments').values(values).execute();
}

export async function updateComment(
  trx: Executor,
  organizationId: string,
  id: string,
  patch: { status?: CommentStatus; resolvedAt?: Date | null; resolvedBy?: string | null; bodyMarkdown?: string; editedAt?: Date },
): Promise<void> {
  await trx.updateTable('comments').set(patch).where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes the comment (replies, reactions and anchor by cascade); its status, or undefined when it was not there. */
export async function deleteComment(trx: Executor, ctx: CommentContext, id: string): Promise<CommentStatus | undefined> {
  const row = await trx
    .deleteFrom('comments')
    .where('organizationId', '=', ctx.organizationId)
    .where('spaceId', '=', ctx.spaceId)
    .where('contextKey', '=', ctx.changeRequestId ?? '')
    .where('id', '=', id)
    .returning('status')
    .executeTakeFirst();
  return row?.status;
}

/** Locks the context's row (the space's, or the change request's): the first lock of a write that moves its counter. */
export async function lockContext(trx: Executor, ctx: CommentContext): Promise<boolean> {
  const query =
    ctx.changeRequestId === null
      ? trx.selectFrom('spaces').select('id').where('organizationId', '=', ctx.organizationId).where('id', '=', ctx.spaceId).where('deletedAt', 'is', null)
      : trx.selectFrom('changeRequests').select('id').where('organizationId', '=', ctx.organizationId).where('spaceId', '=', ctx.spaceId).where('id', '=', ctx.changeRequestId);
  return (await query.forNoKeyUpdate().executeTakeFirst()) !== undefined;
}

/**
 * Moves the context's open-comment counter by `delta` in one statement (the row stays locked until the
 * transaction ends, so concurrent writes add up exactly), and reads the context's head and, for a
 * change request, its status. Undefined when the space or change request is gone.
 */
export async function moveOpenCount(trx: Executor, ctx: CommentContext, delta: number): Promise<{ headRevisionId: string; status: string | null } | undefined> {
  if (ctx.changeRequestId === null) {
    const { rows } = await sql<{ headRevisionId: string }>`
      UPDATE spaces SET comments_count = comments_count + ${delta}
      WHERE organization_id = ${ctx.organizationId} AND id = ${ctx.spaceId} AND deleted_at IS NULL
      RETURNING head_revision_id`.execute(trx);
    return rows[0] && { headRevisionId: rows[0].headRevisionId, status: null };
  }
  const { rows } = await sql<{ revisionId: string; status: string }>`
    UPDATE change_requests SET comments_count = comments_count + ${delta}
    WHERE organization_id = ${ctx.organizationId} AND space_id = ${ctx.spaceId} AND id = ${ctx.changeRequestId}
    RETURNING revision_id, status`.execute(trx);
  return rows[0] && { headRevisionId: rows[0].revisionId, status: rows[0].status };
}

/** Moves the list version of the context (a new number from the shared sequence). */
export async function bumpListVersion(trx: Executor, ctx: CommentContext): Promise<void> {
  await sql`
    INSERT INTO comment_list_versions (organization_id, space_id, context_key, version)
    VALUES (${ctx.organizationId}, ${ctx.spaceId}, ${ctx.changeRequestId ?? ''}, nextval('comment_list_version_seq'))
    ON CONFLICT (organization_id, space_id, context_key) DO UPDATE SET version = excluded.version`.execute(trx);
}

/** The context's list version (0 before its first write). */
export async function listVersion(db: Executor, ctx: CommentContext): Promise<number> {
  const row = await db
    .selectFrom('commentListVersions')
    .select('version')
    .where('organizationId', '=', ctx.organizationId)
    .where('spaceId', '=', ctx.spaceId)
    .where('contextKey', '=', ctx.changeRequestId ?? '')
    .executeTakeFirst();
  return row ? Number(row.version) : 0;
}

// ---- Replies ----

export function repliesQuery(db: Executor, organizationId: string, commentId: string) {
  return db.selectFrom('commentReplies as r').selectAll('r').where('r.organizationId', '=', organizationId).where('r.commentId', '=', commentId);
}

export async function findReply(db: Executor, organizationId: string, commentId: string, id: string): Promise<ReplyRow | undefined> {
  return repliesQuery(db, organizationId, commentId).where('r.id', '=', id).executeTakeFirst();
}

export async function lockReply(trx: Executor, organizationId: string, commentId: string, id: string): Promise<ReplyRow | undefined> {
  return repliesQuery(trx, organizationId, commentId).where('r.id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

/** Moves the comment's reply counter (and locks its row); false when the comment is gone. */
export async function moveRepliesCount(trx: Executor, organizationId: string, commentId: string, delta: number): Promise<boolean> {
  const result = await trx
    .updateTable('comments')
    .set((eb) => ({ repliesCount: eb('repliesCount', '+', delta) }))
    .where('organizationId', '=', organizationId)
    .where('id', '=', commentId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertReply(trx: Executor, values: Omit<ReplyRow, 'editedAt' | 'postedAt'>): Promise<void> {
  await trx.insertInto('commentReplies').values(values).execute();
}

export async function updateReply(trx: Executor, organizationId: string, id: string, patch: { bodyMarkdown: string; editedAt: Date }): Promise<void> {
  await trx.updateTable('commentReplies').set(patch).where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteReply(trx: Executor, organizationId: string, commentId: string, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('commentReplies')
    .where('organizationId', '=', organizationId)
    .where('commentId', '=', commentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// ---- Reactions (on comments and on replies: two tables of one shape) ----

export type ReactionTarget = 'comment' | 'reply';
const REACTIONS = {
  comment: { table: 'comment_reactions', column: 'comment_id' },
  reply: { table: 'comment_reply_reactions', column: 'reply_id' },
} as const;

export type ReactionRow = {
  targetId: string;
  emoji: string;
  count: number;
  userId: string;
  reactedAt: Date;
  email: string;
  displayName: string;
  photoUrl: string | null;
};

/**
 * The reactions on `ids`, grouped by emoji in the order each emoji was first used, with at most
 * `usersPerEmoji` users each (the caller first when they reacted, then the earliest): one query.
 */
export async function loadReactions(db: Executor, kind: ReactionTarget, organizationId: string, ids: string[], callerId: string, usersPerEmoji: number): Promise<ReactionRow[]> {
  if (ids.length === 0) return [];
  const { table, column } = REACTIONS[kind];
  const { rows } = await sql<ReactionRow>`${PREPARED}
    SELECT r.target_id, r.emoji, r.count::int AS count, r.user_id, r.reacted_at, u.email, u.display_name, u.photo_url
    FROM (
      SELECT ${sql.ref(column)} AS target_id, emoji, user_id, reacted_at,
        count(*) OVER w AS count, min(reacted_at) OVER w AS first_at,
        row_number() OVER (PARTITION BY ${sql.ref(column)}, emoji ORDER BY user_id = ${callerId} DESC, reacted_at, user_id) AS rank
      FROM ${sql.table(table)}
      WHERE organization_id = ${organizationId} AND ${sql.ref(column)} = ANY(${ids}::text[])
      WINDOW w AS (PARTITION BY ${sql.ref(column)}, emoji)
    ) r
    JOIN users u ON u.id = r.user_id
    WHERE r.rank <= ${usersPerEmoji}
    ORDER BY r.target_id, r.first_at, r.emoji, r.rank`.execute(db);
  return rows;
}

/** Adds the caller's reactions (an existing one keeps its time) and removes others; returns the number of distinct emojis after. */
export async function changeReactions(
  trx: Executor,
  kind: ReactionTarget,
  organizationId: string,
  targetId: string,
  userId: string,
  changes: { add: string[]; remove: string[] },
): Promise<number> {
  const { table, column } = REACTIONS[kind];
  if (changes.add.length) {
    await sql`
      INSERT INTO ${sql.table(table)} (organization_id, ${sql.ref(column)}, emoji, user_id)
      SELECT ${organizationId}, ${targetId}, emoji, ${userId} FROM unnest(${changes.add}::text[]) AS emoji
      ON CONFLICT DO NOTHING`.execute(trx);
  }
  if (changes.remove.length) {
    await sql`
      DELETE FROM ${sql.table(table)}
      WHERE organization_id = ${organizationId} AND ${sql.ref(column)} = ${targetId} AND user_id = ${userId} AND emoji = ANY(${changes.remove}::text[])`.execute(trx);
  }
  const { rows } = await sql<{ count: number }>`
    SELECT count(DISTINCT emoji)::int AS count FROM ${sql.table(table)}
    WHERE organization_id = ${organizationId} AND ${sql.ref(column)} = ${targetId}`.execute(trx);
  return rows[0]!.count;
}

// ---- Users and anchors of a page of comments ----

export type UserSummary = { id: string; email: string; displayName: string; photoUrl: string | null };

export async function findUsers(db: Executor, ids: string[]): Promise<Map<string, UserSummary>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'displayName', 'photoUrl'])
    .where('id', '=', sql<string>`ANY(${unique}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export type AnchorRow = { commentId: string; documentHash: string; nodeId: string | null; nodePreview: string | null };

/** The cached anchors of these comments, by primary key (hashes in hex). */
export async function findAnchors(db: Executor, organizationId: string, commentIds: string[]): Promise<Map<string, AnchorRow>> {
  if (commentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('commentAnchors')
    .modifyFront(PREPARED)
    .select(['commentId', 'documentHash', 'nodeId', 'nodePreview'])
    .where('organizationId', '=', organizationId)
    .where('commentId', '=', sql<string>`ANY(${commentIds}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.commentId, { ...row, documentHash: row.documentHash.toString('hex') }]));
}

/** Stores re-anchored targets (one statement, a cache: a comment deleted meanwhile is skipped). */
export async function saveAnchors(db: Executor, organizationId: string, anchors: AnchorRow[]): Promise<void> {
  if (anchors.length === 0) return;
  await sql`
    INSERT INTO comment_anchors (organization_id, comment_id, document_hash, node_id, node_preview)
    SELECT ${organizationId}, a."commentId", decode(a."documentHash", 'hex'), a."nodeId", a."nodePreview"
    FROM jsonb_to_recordset(${JSON.stringify(anchors)}::jsonb) AS a("commentId" text, "documentHash" text, "nodeId" text, "nodePreview" text)
    WHERE EXISTS (SELECT 1 FROM comments c WHERE c.organization_id = ${organizationId} AND c.id = a."commentId")
    ON CONFLICT (organization_id, comment_id) DO UPDATE SET
      document_hash = excluded.document_hash, node_id = excluded.node_id, node_preview = excluded.node_preview`
    .execute(db)
    .catch((error: { code?: string }) => {
      // A comment deleted between the check and the insert: nothing to cache.
      if (error.code !== '23503') throw error;
    });
}
