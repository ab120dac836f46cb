// A page of comments or replies as API objects, with everything they show loaded in a fixed number of
// queries: a comment's author, resolver and reactions come with its row, its target from targets.ts
// (cached by head revision); a reply's reactions come with its row, replies' authors in one query.
import type { Executor } from '../../db/database.js';
import type { TargetCaches } from './targets.js';
import { findUsers, type CommentContext, type CommentRow, type ReplyRow } from './comments.repository.js';
import { toApiComment, toApiReply, type ApiComment, type ApiCommentReply, type Viewer } from './comments.mapper.js';
import { resolveTargets } from './targets.js';

export async function commentViews(db: Executor, caches: TargetCaches, ctx: CommentContext, rows: CommentRow[], viewer: Viewer): Promise<ApiComment[]> {
  const targets = await resolveTargets(db, caches, ctx, rows);
  return rows.map((row) => toApiComment(ctx, row, targets.get(row.id), viewer));
}

export async function replyViews(db: Executor, ctx: CommentContext, rows: ReplyRow[], viewer: Viewer): Promise<ApiCommentReply[]> {
  const users = await findUsers(db, rows.map((row) => row.postedBy));
  return rows.map((row) => toApiReply(ctx, row, users, viewer));
}
