// Comments and replies: the same handlers serve the space family and the change-request family; the
// access rules (comments.rules.ts) resolved the context, the comment and the reply before they run.
import type { ChangeRequestAccess, SpaceAccess } from '../../access/scopes.js';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { keysetPage } from '../../db/pagination.js';
import type { AreaHandlers } from '../../http/handler.js';
import { filteredCommentsQuery, listVersion, repliesQuery, type CommentContext, type CommentRow, type ReplyRow } from './comments.repository.js';
import type { BodyFormat, Viewer } from './comments.mapper.js';
import { commentContext } from './comments.rules.js';
import { changeComment, changeReply, postComment, postReply, removeComment, removeReply, requireOpenDiscussion } from './comments.service.js';
import { commentViews, replyViews } from './comment-views.js';
import { checkedMarkdown } from './reactions.js';
import type { components } from '@content-workspace/contract';
import { permissions } from '../permissions-objects.js';
import { inTransaction, type Executor } from '../../db/database.js';
import type { ApiComment, ApiCommentReply } from './comments.mapper.js';
import { actorOf, recordEvents, type EventType, type NewEvent } from '../events/index.js';

type Access = SpaceAccess | ChangeRequestAccess;
type Input = { access: Access; caller: Caller; app: AppContext; query: { format?: BodyFormat } };

const viewer = ({ access, caller, app, query }: Input): Viewer => ({ userId: caller.user.id, role: access.role, format: query.format ?? 'markdown', urls: app.urls });

type ListQuery = { page?: string; limit?: number; order?: 'asc' | 'desc'; status?: 'all' | 'open' | 'resolved'; targetPage?: string; authors?: string[]; format?: BodyFormat };

async function list(input: Input & { query: ListQuery }) {
  const { app, query } = input;
  const ctx = commentContext(input.access);
  const order = query.order ?? 'desc';
  const status = query.status ?? 'all';
  const authors = query.authors && [...new Set(query.authors)].sort();
  // The count is served from the instance's cache while the list's version holds.
  const version = await listVersion(app.db, ctx);
  const page = await keysetPage(app.db, filteredCommentsQuery(app.db, ctx, input.caller.user.id, { status, targetPage: query.targetPage, authors }), {
    keys: [
      { column: 'c.postedAt', direction: order, value: (row) => row.postedAt },
      { column: 'c.id', direction: order, value: (row) => row.id },
    ],
    request: query,
    list: { operation: ctx.changeRequestId === null ? 'listCommentsInSpace' : 'listCommentsInChangeRequest', within: ctx.changeRequestId ?? ctx.spaceId, filters: [order, status, query.targetPage, authors] },
    cursors: app.cursors,
    // Everyone who may list a context's comments sees all of them: one audience.
    countCache: { cache: app.counts, version, audience: 'all' },
  });
  return { status: 200 as const, body: { ...page, items: await commentViews(app, ctx, page.items, viewer(input)) } };
}

const one = async (input: Input, ctx: CommentContext, row: CommentRow, db: Executor = input.app.db) =>
  (await commentViews({ db, parsing: input.app.parsing, caches: input.app.caches }, ctx, [row], viewer(input)))[0]!;
const oneReply = async (input: Input, row: ReplyRow, db: Executor = input.app.db) =>
  (await replyViews({ db, parsing: input.app.parsing }, commentContext(input.access), [row], viewer(input)))[0]!;

/** A body through the markdown gate in the parse pool, before any transaction opens (a parse holds no connection). */
const readBody = (input: Input, markdown: string) => checkedMarkdown(input.app.parsing, markdown, '/body/body/markdown');

/**
 * Records a comment's or reply's events with `trx`, the transaction of the change. Events show it as
 * an organization admin who is not its author sees it, its body in Markdown — whoever made the change
 * and whatever format they asked for.
 */
async function recordCommentEvents(trx: Executor, input: Input, types: EventType[], object: ApiComment | ApiCommentReply, markdown: string, reply?: { comment: string }) {
  const ctx = commentContext(input.access);
  // '' is no user's id: the admin is not the author.
  const asAdmin = permissions().comment('', 'admin', { postedBy: input.caller.user.id });
  const data = { object: { ...object, body: { markdown }, permissions: asAdmin }, ...reply, ...(reply && ctx.changeRequestId !== null ? { changeRequest: ctx.changeRequestId } : {}) };
  const actor = actorOf(input.caller, input.app.urls);
  await recordEvents(trx, types.map((type) => ({ type, organizationId: ctx.organizationId, spaceId: ctx.spaceId, actor, data }) as NewEvent));
}

async function post(input: Input & { body: Parameters<typeof postComment>[4] }) {
  const checked = await readBody(input, input.body.body.markdown);
  return inTransaction(input.app.db, async (trx) => {
    const posted = await postComment(trx, input.app.caches, commentContext(input.access), input.caller.user.id, input.body, input.app.parsing, checked);
    const view = await one(input, posted.ctx, posted.comment, trx);
    await recordCommentEvents(trx, input, ['comment.created'], view, posted.comment.bodyMarkdown);
    return { status: 200 as const, body: view };
  });
}

async function get(input: Input & { access: { comment: CommentRow } }) {
  return { status: 200 as const, body: await one(input, commentContext(input.access), input.access.comment) };
}

async function update(input: Input & { access: { comment: CommentRow }; body: Parameters<typeof changeComment>[4] }) {
  const ctx = commentContext(input.access);
  const body = input.body ?? {};
  const checked = body.body && (await readBody(input, body.body.markdown));
  return inTransaction(input.app.db, async (trx) => {
    const changed = await changeComment(trx, ctx, input.access.comment.id, input.caller.user.id, body, checked);
    const view = await one(input, ctx, changed, trx);
    // Reactions alone are no event.
    const types: EventType[] = [];
    if (body.body !== undefined) types.push('comment.edited');
    if (changed.status !== input.access.comment.status) types.push(changed.status === 'resolved' ? 'comment.resolved' : 'comment.reopened');
    await recordCommentEvents(trx, input, types, view, changed.bodyMarkdown);
    return { status: 200 as const, body: view };
  });
}

async function remove(input: Input & { access: Access & { comment: CommentRow } }) {
  const ctx = commentContext(input.access);
  await inTransaction(input.app.db, async (trx) => {
    const view = await one({ ...input, query: {} }, ctx, input.access.comment, trx);
    await removeComment(trx, ctx, input.access.comment.id);
    await recordCommentEvents(trx, input, ['comment.deleted'], view, input.access.comment.bodyMarkdown);
  });
  return { status: 205 as const };
}

async function listReplies(input: Input & { access: { comment: CommentRow }; query: { page?: string; limit?: number } }) {
  const { app, access, query } = input;
  const page = await keysetPage(app.db, repliesQuery(app.db, commentContext(access).organizationId, access.comment.id, input.caller.user.id), {
    keys: [
      { column: 'r.postedAt', direction: 'asc', value: (row) => row.postedAt },
      { column: 'r.id', direction: 'asc', value: (row) => row.id },
    ],
    request: query,
    list: { operation: 'listCommentReplies', within: access.comment.id },
    cursors: app.cursors,
  });
  return { status: 200 as const, body: { ...page, items: await replyViews(app, commentContext(access), page.items, viewer(input)) } };
}

async function reply(input: Input & { access: { comment: CommentRow }; body: components['schemas']['PostCommentReplyRequest'] }) {
  requireOpenDiscussion('changeRequest' in input.access ? input.access.changeRequest.status : null);
  const checked = await readBody(input, input.body.body.markdown);
  return inTransaction(input.app.db, async (trx) => {
    const posted = await postReply(trx, commentContext(input.access), input.access.comment, input.caller.user.id, checked);
    const view = await oneReply(input, posted, trx);
    await recordCommentEvents(trx, input, ['comment-reply.created'], view, posted.bodyMarkdown, { comment: input.access.comment.id });
    return { status: 200 as const, body: view };
  });
}

async function getReply(input: Input & { access: { reply: ReplyRow } }) {
  return { status: 200 as const, body: await oneReply(input, input.access.reply) };
}

async function updateReply(input: Input & { access: { reply: ReplyRow }; body: Parameters<typeof changeReply>[4] }) {
  const body = input.body ?? {};
  const checked = body.body && (await readBody(input, body.body.markdown));
  return inTransaction(input.app.db, async (trx) => {
    const changed = await changeReply(trx, commentContext(input.access), input.access.reply, input.caller.user.id, body, checked);
    const view = await oneReply(input, changed, trx);
    // Reactions alone are no event.
    const types: EventType[] = body.body !== undefined ? ['comment-reply.edited'] : [];
    await recordCommentEvents(trx, input, types, view, changed.bodyMarkdown, { comment: input.access.reply.commentId });
    return { status: 200 as const, body: view };
  });
}

async function removeReplyHandler(input: Input & { access: Access & { reply: ReplyRow } }) {
  await inTransaction(input.app.db, async (trx) => {
    const view = await oneReply({ ...input, query: {} }, input.access.reply, trx);
    await removeReply(trx, commentContext(input.access), input.access.reply);
    await recordCommentEvents(trx, input, ['comment-reply.deleted'], view, input.access.reply.bodyMarkdown, { comment: input.access.reply.commentId });
  });
  return { status: 205 as const };
}

export const commentHandlers = {
  listCommentsInSpace: list,
  postCommentInSpace: post,
  getCommentInSpace: get,
  updateCommentInSpace: update,
  deleteCommentInSpace: remove,
  listCommentRepliesInSpace: listReplies,
  postCommentReplyInSpace: reply,
  getCommentReplyInSpace: getReply,
  updateCommentReplyInSpace: updateReply,
  deleteCommentReplyInSpace: removeReplyHandler,

  listCommentsInChangeRequest: list,
  postCommentInChangeRequest: post,
  getCommentInChangeRequest: get,
  updateCommentInChangeRequest: update,
  deleteCommentInChangeRequest: remove,
  listCommentRepliesInChangeRequest: listReplies,
  postCommentReplyInChangeRequest: reply,
  getCommentReplyInChangeRequest: getReply,
  updateCommentReplyInChangeRequest: updateReply,
  deleteCommentReplyInChangeRequest: removeReplyHandler,
} satisfies AreaHandlers;
