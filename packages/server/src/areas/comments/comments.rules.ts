// The comment operations' access rules (spec `x-access-rules`): each loads the comment (and the reply)
// the path names within the path's space or change request — 404 otherwise, whatever the caller's
// role — decides what the role alone does not (authors, admins), and hands the handler what it loaded.
import type { AccessRule, RuleContext } from '../../access/rules.js';
import type { ChangeRequestAccess, SpaceAccess } from '../../access/scopes.js';
import { notFound } from '../../errors.js';
import { findComment, findReply, type CommentContext, type CommentRow, type ReplyRow } from './comments.repository.js';

declare module '../../access/rules.js' {
  interface RuleData {
    comment: { comment: CommentRow };
    'comment-reply': { comment: CommentRow; reply: ReplyRow };
    'comment-author': { comment: CommentRow };
    'comment-author-or-admin': { comment: CommentRow };
    'reply-author': { comment: CommentRow; reply: ReplyRow };
    'reply-author-or-admin': { comment: CommentRow; reply: ReplyRow };
  }
}

/** The comments a space or change-request scope names. */
export function commentContext(access: SpaceAccess | ChangeRequestAccess): CommentContext {
  const changeRequest = 'changeRequest' in access ? access.changeRequest : undefined;
  return {
    organizationId: access.space.organizationId,
    spaceId: access.space.id,
    changeRequestId: changeRequest?.id ?? null,
    headRevisionId: changeRequest?.revisionId ?? access.space.headRevisionId,
  };
}

type Loaded = { comment: CommentRow; reply?: ReplyRow };

async function loadComment(ctx: RuleContext): Promise<Loaded> {
  const comment = await findComment(ctx.app.db, commentContext(ctx.access as SpaceAccess), ctx.params.commentId!, ctx.caller.user.id);
  if (!comment) throw notFound('Comment');
  return { comment };
}

async function loadReply(ctx: RuleContext): Promise<Loaded> {
  const { comment } = await loadComment(ctx);
  const reply = await findReply(ctx.app.db, (ctx.access as SpaceAccess).space.organizationId, comment.id, ctx.params.commentReplyId!, ctx.caller.user.id);
  if (!reply) throw notFound('Reply');
  return { comment, reply };
}

const isAuthor = (ctx: RuleContext, loaded: Loaded) => (loaded.reply ?? loaded.comment).postedBy === ctx.caller.user.id;

const handOver = (_ctx: RuleContext, loaded: Loaded) => loaded;

// `allows` is what the gate refuses with and what the comments' permissions read (access/permitted.ts).
const authorEditsBody = (what: string): AccessRule<Loaded, Loaded> => ({
  needsBody: true,
  allows: (ctx, loaded) => ctx.body?.body === undefined || isAuthor(ctx, loaded),
  refusal: `Only its author may change a ${what}’s body`,
  check: handOver,
});

const authorOrAdmin = (what: string): AccessRule<Loaded, Loaded> => ({
  allows: (ctx, loaded) => isAuthor(ctx, loaded) || (ctx.access as SpaceAccess).role === 'admin',
  refusal: `Only its author or an admin of the space may delete a ${what}`,
  check: handOver,
});

export const commentRules = {
  comment: { load: loadComment, check: handOver },
  'comment-reply': { load: loadReply, check: handOver },
  'comment-author': { load: loadComment, ...authorEditsBody('comment') },
  'comment-author-or-admin': { load: loadComment, ...authorOrAdmin('comment') },
  'reply-author': { load: loadReply, ...authorEditsBody('reply') },
  'reply-author-or-admin': { load: loadReply, ...authorOrAdmin('reply') },
} satisfies Record<string, AccessRule<Loaded, Loaded>>;
