// A page of comments or replies as API objects, with everything they show loaded in a fixed number of
// queries run together: the reactions and the targets at the head (a comment's author and resolver
// come with its row; replies' authors in one query).
import type { Executor } from '../../db/database.js';
import { findUsers, loadReactions, type CommentContext, type CommentRow, type ReactionRow, type ReplyRow } from './comments.repository.js';
import { toApiComment, toApiReply, type ApiComment, type ApiCommentReply, type Viewer } from './comments.mapper.js';
import { USERS_PER_EMOJI } from './reactions.js';
import { resolveTargets } from './targets.js';

function byTarget(rows: ReactionRow[]): Map<string, ReactionRow[]> {
  const grouped = new Map<string, ReactionRow[]>();
  for (const row of rows) grouped.set(row.targetId, [...(grouped.get(row.targetId) ?? []), row]);
  return grouped;
}

export async function commentViews(db: Executor, ctx: CommentContext, rows: CommentRow[], viewer: Viewer): Promise<ApiComment[]> {
  const ids = rows.map((row) => row.id);
  const [reactions, targets] = await Promise.all([
    loadReactions(db, 'comment', ctx.organizationId, ids, viewer.userId, USERS_PER_EMOJI),
    resolveTargets(db, ctx, rows),
  ]);
  const loaded = { reactions: byTarget(reactions) };
  return rows.map((row) => toApiComment(ctx, row, loaded, targets.get(row.id), viewer));
}

export async function replyViews(db: Executor, ctx: CommentContext, rows: ReplyRow[], viewer: Viewer): Promise<ApiCommentReply[]> {
  const [users, reactions] = await Promise.all([
    findUsers(db, rows.map((row) => row.postedBy)),
    loadReactions(db, 'reply', ctx.organizationId, rows.map((row) => row.id), viewer.userId, USERS_PER_EMOJI),
  ]);
  const loaded = { users, reactions: byTarget(reactions) };
  return rows.map((row) => toApiReply(ctx, row, loaded, viewer));
}
