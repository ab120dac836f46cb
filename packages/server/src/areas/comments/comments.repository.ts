// Comments, replies, their reactions and the anchor cache (db/migrations/20261124T100000_comments.ts).
// Every query is scoped by organization, space and family (`change_request_id` null for the space's
// own comments), so a comment of another space, change request or family reads as absent.
import { sql, type Selectable } from 'kysely';
import { PREPARED, type Executor } from '../../db/database.js';
import { rawQuery, value } from '../../db/raw-query.js';
import type { ChangeRequestStatus, CommentReactionsTable, CommentRepliesTable, CommentsTable, CommentStatus, UsersTable } from '../../db/schema.js';
import { USERS_PER_EMOJI } from './reactions.js';

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
  /** As the viewer sees them (reactionsOf). */
  reactions: ReactionTuple[] | null;
};
/** A reply as lists read it: without its stored tree (loaded for `format=document` only, comment-views.ts). */
export type ReplyRow = Omit<Selectable<CommentRepliesTable>, 'bodyDocument'> & { reactions: ReactionTuple[] | null };

/**
 * The comments of one context (no order, no limit) with their reactions as `viewerId` sees them: the
 * list's base query, run as a prepared statement.
 */
export function commentsQuery(db: Executor, ctx: CommentContext, viewerId: string) {
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
        // Evaluated for the rows returned only (a count over this query drops it).
        reactionsOf('comment', 'c', viewerId).as('reactions'),
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

export function filteredCommentsQuery(db: Executor, ctx: CommentContext, viewerId: string, filters: CommentFilters) {
  let query = commentsQuery(db, ctx, viewerId);
  if (filters.status !== 'all') query = query.where('c.status', '=', filters.status);
  if (filters.targetPage !== undefined) query = query.where('c.pageId', '=', filters.targetPage);
  if (filters.authors?.length) query = query.where('c.postedBy', '=', sql<string>`ANY(${filters.authors}::text[])`);
  return query;
}

export async function findComment(db: Executor, ctx: CommentContext, id: string, viewerId: string): Promise<CommentRow | undefined> {
  return commentsQuery(db, ctx, viewerId).where('c.id', '=', id).executeTakeFirst();
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

/** `bodyDocument`: the body's tree as the JSON text the markdown gate made (content/markdown-check.ts). */
export async function insertComment(
  trx: Executor,
  values: Omit<Selectable<CommentsTable>, 'contextKey' | 'status' | 'resolvedAt' | 'resolvedBy' | 'editedAt' | 'repliesCount' | 'postedAt' | 'bodyDocument'> & { bodyDocument: string },
): Promise<void> {
  await trx.insertInto('comments').values(values).execute();
}

export type CommentPatch = { status?: CommentStatus; resolvedAt?: Date | null; resolvedBy?: string | null; bodyMarkdown?: string; bodyDocument?: string; editedAt?: Date };

export async function updateComment(trx: Executor, organizationId: string, id: string, patch: CommentPatch): Promise<void> {
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
export async function moveOpenCount(trx: Executor, ctx: CommentContext, delta: number): Promise<{ headRevisionId: string; status: ChangeRequestStatus | null } | undefined> {
  if (ctx.changeRequestId === null) {
    const space = await trx
      .updateTable('spaces')
      .set((eb) => ({ commentsCount: eb('commentsCount', '+', delta) }))
      .where('organizationId', '=', ctx.organizationId)
      .where('id', '=', ctx.spaceId)
      .where('deletedAt', 'is', null)
      .returning('headRevisionId')
      .executeTakeFirst();
    return space && { headRevisionId: space.headRevisionId, status: null };
  }
  const changeRequest = await trx
    .updateTable('changeRequests')
    .set((eb) => ({ commentsCount: eb('commentsCount', '+', delta) }))
    .where('organizationId', '=', ctx.organizationId)
    .where('spaceId', '=', ctx.spaceId)
    .where('id', '=', ctx.changeRequestId)
    .returning(['revisionId', 'status'])
    .executeTakeFirst();
  return changeRequest && { headRevisionId: changeRequest.revisionId, status: changeRequest.status };
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

/** The replies of a comment with their reactions as `viewerId` sees them (no order, no limit). */
export function repliesQuery(db: Executor, organizationId: string, commentId: string, viewerId: string) {
  return db
    .selectFrom('commentReplies as r')
    .select(['r.organizationId', 'r.id', 'r.commentId', 'r.bodyMarkdown', 'r.postedBy', 'r.postedAt', 'r.editedAt'])
    .select(reactionsOf('reply', 'r', viewerId).as('reactions'))
    .where('r.organizationId', '=', organizationId)
    .where('r.commentId', '=', commentId);
}

export async function findReply(db: Executor, organizationId: string, commentId: string, id: string, viewerId: string): Promise<ReplyRow | undefined> {
  return repliesQuery(db, organizationId, commentId, viewerId).where('r.id', '=', id).executeTakeFirst();
}

/** Locks the reply's row for the transaction; false when it is gone. */
export async function lockReply(trx: Executor, organizationId: string, commentId: string, id: string): Promise<boolean> {
  const row = await trx
    .selectFrom('commentReplies')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('commentId', '=', commentId)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined;
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

export async function insertReply(trx: Executor, values: Omit<Selectable<CommentRepliesTable>, 'editedAt' | 'postedAt' | 'bodyDocument'> & { bodyDocument: string }): Promise<void> {
  await trx.insertInto('commentReplies').values(values).execute();
}

export async function updateReply(trx: Executor, organizationId: string, id: string, patch: { bodyMarkdown: string; bodyDocument: string; editedAt: Date }): Promise<void> {
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

/** One user's reaction as the database lists it: emoji, count of its emoji, user, reactedAt (ISO), email, name, photo. */
export type ReactionTuple = [
  emoji: Reaction['emoji'],
  count: number,
  userId: Reaction['userId'],
  reactedAt: string,
  email: User['email'],
  displayName: User['displayName'],
  photoUrl: User['photoUrl'],
];
type Reaction = Selectable<CommentReactionsTable>;
type User = Selectable<UsersTable>;

/**
 * The reactions on the comment or reply of the row aliased `alias`, as one JSON array (null when
 * none): grouped by emoji in the order each emoji was first used, at most USERS_PER_EMOJI users each
 * (`viewerId` first when they reacted, then the earliest). Read with the row: no query of its own, and
 * the whole array is parsed at once instead of a row per user.
 */
function reactionsOf(kind: ReactionTarget, alias: 'c' | 'r', viewerId: string) {
  const { table, column } = REACTIONS[kind];
  return sql<ReactionTuple[] | null>`(
    SELECT json_agg(json_build_array(x.emoji, x.count, x.user_id, to_char(x.reacted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), u.email, u.display_name, u.photo_url)
      ORDER BY x.first_at, x.emoji, x.rank)
    FROM (
      SELECT emoji, user_id, reacted_at, count(*) OVER w AS count, min(reacted_at) OVER w AS first_at,
        row_number() OVER (PARTITION BY emoji ORDER BY user_id = ${viewerId} DESC, reacted_at, user_id) AS rank
      FROM ${sql.table(table)}
      WHERE organization_id = ${sql.ref(`${alias}.organizationId`)} AND ${sql.ref(column)} = ${sql.ref(`${alias}.id`)}
      WINDOW w AS (PARTITION BY emoji)
    ) x
    JOIN users u ON u.id = x.user_id
    WHERE x.rank <= ${USERS_PER_EMOJI})`;
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
  const [row] = await emojiCountQuery.rows(trx, kind, organizationId, targetId);
  return row!.count;
}

const emojiCountQuery = rawQuery({
  name: 'distinctReactionEmojis',
  columns: { count: value('int4') },
  statement: (kind: ReactionTarget, organizationId: string, targetId: string) => {
    const { table, column } = REACTIONS[kind];
    return sql`
      SELECT count(DISTINCT emoji)::int AS count FROM ${sql.table(table)}
      WHERE organization_id = ${organizationId} AND ${sql.ref(column)} = ${targetId}`;
  },
  shapes: [
    ['comment', '', ''],
    ['reply', '', ''],
  ],
});

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

const BODY_TABLES = { comment: 'comments', reply: 'commentReplies' } as const;

/**
 * The stored trees (`format=document`) of comments or replies as JSON text, by id; null for those
 * written before trees were kept. As text: the database plugin would camel-case every node's keys.
 */
export async function findBodyDocuments(db: Executor, organizationId: string, kind: 'comment' | 'reply', ids: string[]): Promise<Map<string, { markdown: string; document: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom(BODY_TABLES[kind])
    .select(['id', 'bodyMarkdown', sql<string | null>`body_document::text`.as('bodyDocument')])
    .where('organizationId', '=', organizationId)
    .where('id', '=', sql<string>`ANY(${ids}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, { markdown: row.bodyMarkdown, document: row.bodyDocument }]));
}

/** Stores the tree of a body read since (only while the body is still the one read). */
export async function saveBodyDocument(db: Executor, organizationId: string, kind: 'comment' | 'reply', id: string, markdown: string, document: string): Promise<void> {
  await db
    .updateTable(BODY_TABLES[kind])
    .set({ bodyDocument: document })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .where('bodyMarkdown', '=', markdown)
    .execute();
}
