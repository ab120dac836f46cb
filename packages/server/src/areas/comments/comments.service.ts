// Comment and reply writes, one transaction each. Writes that move the open-comment counter lock the
// context's row first (the space's, or the change request's), then the comment's: one lock order
// everywhere, and the counter moves in the same transaction as the change (exact under concurrency).
import { inTransaction, type Executor } from '../../db/database.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { components } from '@content-workspace/contract';
import type { ParsePool } from '../../parsing/parse-pool.js';
import { isEditable } from '../change-requests/index.js';
import { anchorOf, previewOf } from './anchoring.js';
import {
  bumpListVersion,
  changeReactions,
  deleteComment,
  deleteReply,
  findComment,
  findReply,
  insertComment,
  insertReply,
  lockComment,
  lockContext,
  lockReply,
  moveOpenCount,
  moveRepliesCount,
  updateComment,
  updateReply,
  type CommentContext,
  type CommentPatch,
  type CommentRow,
  type ReactionTarget,
  type ReplyRow,
} from './comments.repository.js';
import { MAX_DISTINCT_EMOJIS, reactionChanges, type CheckedBody } from './reactions.js';
import { pageBlocks, pagesAtHead, type TargetCaches } from './targets.js';

type Schemas = components['schemas'];

const contextName = (ctx: CommentContext) => (ctx.changeRequestId === null ? 'Space' : 'Change request');

/** A merged or archived change request takes no new comments or replies (docs/decisions.md, Comments). */
export function requireOpenDiscussion(status: string | null): void {
  if (status !== null && !isEditable(status as never)) throw conflict(`The change request is ${status}: its discussion is closed to new comments and replies`);
}

/** The target columns of a new comment, checked against the context's head (400 when the page or block is not there). */
async function postedTarget(trx: Executor, caches: TargetCaches, pool: ParsePool, ctx: CommentContext, body: Schemas['PostCommentRequest']) {
  if (body.page === undefined) {
    if (body.node !== undefined) throw invalidField('/body/node', 'needs a page');
    return {};
  }
  const page = (await pagesAtHead(trx, caches, ctx, [body.page])).get(body.page);
  if (!page) throw invalidField('/body/page', `is not a page of the ${ctx.changeRequestId === null ? 'space' : 'change request'} at its head`);
  const target = { pageId: page.id, pageTitle: page.title, pagePath: page.path, targetDocumentHash: page.documentHash ? Buffer.from(page.documentHash, 'hex') : null };
  if (body.node === undefined) return target;
  const blocks = await pageBlocks(trx, pool, ctx.organizationId, page);
  const anchor = anchorOf(blocks, body.node);
  if (!anchor) throw invalidField('/body/node', 'is not a block of the page');
  const block = blocks.find((candidate) => candidate.id === body.node)!;
  return { ...target, nodeId: body.node, nodePreview: previewOf(block.text), anchorQuote: anchor.quote, anchorPrefix: anchor.prefix, anchorSuffix: anchor.suffix };
}

/**
 * Posts a comment whose body the caller read already (`checked`, before the transaction: a parse in the
 * pool holds no connection); `pool` reads the target page's blocks.
 */
export async function postComment(
  db: Executor,
  caches: TargetCaches,
  ctx: CommentContext,
  userId: string,
  body: Schemas['PostCommentRequest'],
  pool: ParsePool,
  checked: CheckedBody,
): Promise<{ comment: CommentRow; ctx: CommentContext }> {
  return inTransaction(db, async (trx) => {
    const locked = await moveOpenCount(trx, ctx, 1);
    if (!locked) throw notFound(contextName(ctx));
    requireOpenDiscussion(locked.status);
    // The head read under the lock: the target is checked where the comment is posted.
    const at = { ...ctx, headRevisionId: locked.headRevisionId };
    const target = await postedTarget(trx, caches, pool, at, body);
    const id = newId();
    await insertComment(trx, {
      organizationId: ctx.organizationId,
      id,
      spaceId: ctx.spaceId,
      changeRequestId: ctx.changeRequestId,
      revisionId: locked.headRevisionId,
      pageId: null,
      pageTitle: null,
      pagePath: null,
      targetDocumentHash: null,
      nodeId: null,
      nodePreview: null,
      anchorQuote: null,
      anchorPrefix: null,
      anchorSuffix: null,
      ...target,
      bodyMarkdown: checked.markdown,
      bodyDocument: checked.document,
      postedBy: userId,
    });
    await bumpListVersion(trx, ctx);
    return { comment: (await findComment(trx, ctx, id, userId))!, ctx: at };
  });
}

/** Applies the caller's reaction changes; 400 when the target would hold too many different emojis. */
async function applyReactions(trx: Executor, kind: ReactionTarget, organizationId: string, targetId: string, userId: string, changes: { add: string[]; remove: string[] }) {
  if (changes.add.length === 0 && changes.remove.length === 0) return;
  const distinct = await changeReactions(trx, kind, organizationId, targetId, userId, changes);
  if (distinct > MAX_DISTINCT_EMOJIS) throw invalidField('/body/addedReactions', `a ${kind} holds at most ${MAX_DISTINCT_EMOJIS} different emojis`);
}

export async function changeComment(db: Executor, ctx: CommentContext, id: string, userId: string, body: Schemas['UpdateCommentRequest'], checked: CheckedBody | undefined): Promise<CommentRow> {
  const reactions = reactionChanges(body);
  return inTransaction(db, async (trx) => {
    if (body.resolved !== undefined && !(await lockContext(trx, ctx))) throw notFound(contextName(ctx));
    const current = await lockComment(trx, ctx, id);
    if (!current) throw notFound('Comment');
    const now = new Date();
    const patch: CommentPatch = {};
    let delta = 0;
    if (body.resolved === true && current.status === 'open') [patch.status, patch.resolvedAt, patch.resolvedBy, delta] = ['resolved', now, userId, -1];
    if (body.resolved === false && current.status === 'resolved') [patch.status, patch.resolvedAt, patch.resolvedBy, delta] = ['open', null, null, 1];
    if (checked !== undefined) [patch.bodyMarkdown, patch.bodyDocument, patch.editedAt] = [checked.markdown, checked.document, now];
    if (Object.keys(patch).length > 0) await updateComment(trx, ctx.organizationId, id, patch);
    if (delta !== 0) {
      await moveOpenCount(trx, ctx, delta);
      await bumpListVersion(trx, ctx);
    }
    await applyReactions(trx, 'comment', ctx.organizationId, id, userId, reactions);
    return (await findComment(trx, ctx, id, userId))!;
  });
}

/** Deletes a comment with its replies and reactions; an open one leaves the counter. */
export async function removeComment(db: Executor, ctx: CommentContext, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (!(await lockContext(trx, ctx))) throw notFound(contextName(ctx));
    const status = await deleteComment(trx, ctx, id);
    if (!status) throw notFound('Comment');
    if (status === 'open') await moveOpenCount(trx, ctx, -1);
    await bumpListVersion(trx, ctx);
  });
}

export async function postReply(db: Executor, ctx: CommentContext, comment: CommentRow, userId: string, checked: CheckedBody): Promise<ReplyRow> {
  return inTransaction(db, async (trx) => {
    // The comment's row first (its counter), then the reply that references it.
    if (!(await moveRepliesCount(trx, ctx.organizationId, comment.id, 1))) throw notFound('Comment');
    const id = newId();
    await insertReply(trx, { organizationId: ctx.organizationId, id, commentId: comment.id, bodyMarkdown: checked.markdown, bodyDocument: checked.document, postedBy: userId });
    return (await findReply(trx, ctx.organizationId, comment.id, id, userId))!;
  });
}

export async function changeReply(db: Executor, ctx: CommentContext, reply: ReplyRow, userId: string, body: Schemas['UpdateCommentReplyRequest'], checked: CheckedBody | undefined): Promise<ReplyRow> {
  const reactions = reactionChanges(body);
  return inTransaction(db, async (trx) => {
    if (!(await lockReply(trx, ctx.organizationId, reply.commentId, reply.id))) throw notFound('Reply');
    if (checked !== undefined) await updateReply(trx, ctx.organizationId, reply.id, { bodyMarkdown: checked.markdown, bodyDocument: checked.document, editedAt: new Date() });
    await applyReactions(trx, 'reply', ctx.organizationId, reply.id, userId, reactions);
    return (await findReply(trx, ctx.organizationId, reply.commentId, reply.id, userId))!;
  });
}

export async function removeReply(db: Executor, ctx: CommentContext, reply: ReplyRow): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (!(await moveRepliesCount(trx, ctx.organizationId, reply.commentId, -1))) throw notFound('Comment');
    if (!(await deleteReply(trx, ctx.organizationId, reply.commentId, reply.id))) throw notFound('Reply');
  });
}
