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
import { commentViews, replyViews } from './comments.views.js';

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
  return { status: 200 as const, body: { ...page, items: await commentViews(app.db, app.caches, ctx, page.items, viewer(input)) } };
}

const one = async (input: Input, ctx: CommentContext, row: CommentRow) => (await commentViews(input.app.db, input.app.caches, ctx, [row], viewer(input)))[0]!;
const oneReply = async (input: Input, row: ReplyRow) => (await replyViews(input.app.db, commentContext(input.access), [row], viewer(input)))[0]!;

async function post(input: Input & { body: Parameters<typeof postComment>[4] }) {
  const posted = await postComment(input.app.db, input.app.caches, commentContext(input.access), input.caller.user.id, input.body);
  return { status: 200 as const, body: await one(input, posted.ctx, posted.comment) };
}

async function get(input: Input & { access: { comment: CommentRow } }) {
  return { status: 200 as const, body: await one(input, commentContext(input.access), input.access.comment) };
}

async function update(input: Input & { access: { comment: CommentRow }; body: Parameters<typeof changeComment>[4] }) {
  const ctx = commentContext(input.access);
  const changed = await changeComment(input.app.db, ctx, input.access.comment.id, input.caller.user.id, input.body ?? {});
  return { status: 200 as const, body: await one(input, ctx, changed) };
}

async function remove(input: { access: Access & { comment: CommentRow }; app: AppContext }) {
  await removeComment(input.app.db, commentContext(input.access), input.access.comment.id);
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
  return { status: 200 as const, body: { ...page, items: await replyViews(app.db, commentContext(access), page.items, viewer(input)) } };
}

async function reply(input: Input & { access: { comment: CommentRow }; body: Parameters<typeof postReply>[4] }) {
  requireOpenDiscussion('changeRequest' in input.access ? input.access.changeRequest.status : null);
  const posted = await postReply(input.app.db, commentContext(input.access), input.access.comment, input.caller.user.id, input.body);
  return { status: 200 as const, body: await oneReply(input, posted) };
}

async function getReply(input: Input & { access: { reply: ReplyRow } }) {
  return { status: 200 as const, body: await oneReply(input, input.access.reply) };
}

async function updateReply(input: Input & { access: { reply: ReplyRow }; body: Parameters<typeof changeReply>[4] }) {
  const changed = await changeReply(input.app.db, commentContext(input.access), input.access.reply, input.caller.user.id, input.body ?? {});
  return { status: 200 as const, body: await oneReply(input, changed) };
}

async function removeReplyHandler(input: { access: Access & { reply: ReplyRow }; app: AppContext }) {
  await removeReply(input.app.db, commentContext(input.access), input.access.reply);
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
