// Comments and replies as the API shows them. Everything a page of them needs (users, reactions,
// targets) is loaded beforehand (comments.views.ts); this only shapes it.
import { permissions } from '../permissions-objects.js';
import type { Role } from '../../access/roles.js';
import type { Schemas } from '../../schemas.js';
import { toApiUser } from '../users/index.js';
import type { Urls } from '../../urls.js';
import type { CommentContext, CommentRow, ReactionTuple, ReplyRow, UserSummary } from './comments.repository.js';
import type { ResolvedTarget } from './targets.js';

export type ApiComment = Schemas['Comment'];
export type ApiCommentReply = Schemas['CommentReply'];
export type BodyFormat = 'markdown' | 'document';

/** Who is looking, and how they asked for bodies. */
export type Viewer = { userId: string; role: Role; format: BodyFormat; urls: Urls };

/** The API path of the context's comments. */
export function commentsPath(ctx: Pick<CommentContext, 'spaceId' | 'changeRequestId'>): string {
  return ctx.changeRequestId === null ? `/v1/spaces/${ctx.spaceId}/comments` : `/v1/spaces/${ctx.spaceId}/change-requests/${ctx.changeRequestId}/comments`;
}

/** The body as the viewer asked: its markdown, or the tree stored with it (comments.views.ts loads it). */
function toBody(markdown: string, document: unknown, format: BodyFormat): Schemas['CommentBody'] {
  return format === 'document' ? { document: document as Schemas['MdastRoot'] } : { markdown };
}

function user(users: Map<string, UserSummary>, id: string, urls: Urls) {
  return toApiUser(users.get(id)!, urls);
}

function toReactions(tuples: ReactionTuple[] | null, urls: Urls): Schemas['CommentReactions'] {
  const groups = new Map<string, Schemas['CommentReaction']>();
  for (const [emoji, count, id, reactedAt, email, displayName, photoUrl] of tuples ?? []) {
    let group = groups.get(emoji);
    if (!group) groups.set(emoji, (group = { emoji, count, users: [] }));
    group.users.push({ user: toApiUser({ id, email, displayName, photoUrl }, urls), reactedAt });
  }
  return [...groups.values()];
}

function toTarget(ctx: CommentContext, row: CommentRow, target: ResolvedTarget | undefined): Schemas['CommentTarget'] {
  const page = row.pageId === null
    ? undefined
    : target?.page
      ? {
          id: row.pageId,
          title: target.page.title,
          ...(target.page.emoji ? { emoji: target.page.emoji } : {}),
          ...(target.page.icon ? { icon: target.page.icon } : {}),
          createdAt: target.page.createdAt,
          updatedAt: target.page.updatedAt,
          path: target.page.path,
          outdated: target.outdated,
        }
      : // Gone: as it was when the comment was posted.
        { id: row.pageId, title: target?.formerPage?.title ?? '', path: target?.formerPage?.path ?? '', outdated: true };
  return {
    space: ctx.spaceId,
    ...(ctx.changeRequestId !== null ? { changeRequest: ctx.changeRequestId } : {}),
    revision: row.revisionId,
    ...(page ? { page } : {}),
    ...(target?.node ? { node: target.node } : {}),
  };
}

export function toApiComment(ctx: CommentContext, row: CommentRow, target: ResolvedTarget | undefined, viewer: Viewer, document?: unknown): ApiComment {
  const { urls } = viewer;
  return {
    object: 'comment',
    id: row.id,
    postedBy: toApiUser({ id: row.postedBy, email: row.posterEmail!, displayName: row.posterName!, photoUrl: row.posterPhotoUrl }, urls),
    postedAt: row.postedAt.toISOString(),
    ...(row.editedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    reactions: toReactions(row.reactions, urls),
    replies: row.repliesCount,
    body: toBody(row.bodyMarkdown, document, viewer.format),
    target: toTarget(ctx, row, target),
    urls: { location: urls.api(`${commentsPath(ctx)}/${row.id}`) },
    permissions: permissions().comment(viewer.userId, viewer.role, row),
    status: row.status,
    ...(row.status === 'resolved' && row.resolvedAt ? { resolvedAt: row.resolvedAt.toISOString() } : {}),
    ...(row.status === 'resolved' && row.resolvedBy
      ? { resolvedBy: toApiUser({ id: row.resolvedBy, email: row.resolverEmail!, displayName: row.resolverName!, photoUrl: row.resolverPhotoUrl }, urls) }
      : {}),
  };
}

/** A reply; `users` holds its author, `document` its tree when the viewer asked for documents. */
export function toApiReply(ctx: CommentContext, row: ReplyRow, users: Map<string, UserSummary>, viewer: Viewer, document?: unknown): ApiCommentReply {
  const { urls } = viewer;
  return {
    object: 'comment-reply',
    id: row.id,
    postedBy: user(users, row.postedBy, urls),
    postedAt: row.postedAt.toISOString(),
    ...(row.editedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    reactions: toReactions(row.reactions, urls),
    body: toBody(row.bodyMarkdown, document, viewer.format),
    urls: { location: urls.api(`${commentsPath(ctx)}/${row.commentId}/replies/${row.id}`) },
    permissions: permissions().comment(viewer.userId, viewer.role, row),
  };
}
