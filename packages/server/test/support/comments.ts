// Comment helpers for tests: paths, posting through the SDK, expected bodies, counters from the rows.
import { expect } from 'vitest';
import type { components } from '@content-workspace/sdk';
import type { TestUser } from './factories.js';
import type { TestServer } from './harness.js';
import { expectedUser } from './people.js';

type Schemas = components['schemas'];

export const commentsPath = (spaceId: string) => ({ params: { path: { spaceId } } });
export const commentPath = (spaceId: string, commentId: string) => ({ params: { path: { spaceId, commentId } } });
export const replyPath = (spaceId: string, commentId: string, commentReplyId: string) => ({ params: { path: { spaceId, commentId, commentReplyId } } });

/** Posts a space comment as `user`; fails the test on any other status than 200. */
export async function postComment(user: TestUser, spaceId: string, body: Schemas['PostCommentRequest']): Promise<Schemas['Comment']> {
  const { data, error, response } = await user.client.POST('/v1/spaces/{spaceId}/comments', { ...commentsPath(spaceId), body });
  if (response.status !== 200) throw new Error(`post answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

/** Posts a reply as `user`; fails the test on any other status than 200. */
export async function postReply(user: TestUser, spaceId: string, commentId: string, markdown: string): Promise<Schemas['CommentReply']> {
  const { data, error, response } = await user.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', {
    ...commentPath(spaceId, commentId),
    body: { body: { markdown } },
  });
  if (response.status !== 200) throw new Error(`reply answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

export async function getComment(user: TestUser, spaceId: string, commentId: string): Promise<Schemas['Comment']> {
  const { data, error, response } = await user.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(spaceId, commentId));
  if (response.status !== 200) throw new Error(`get answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

/** The whole Comment body expected for a space comment by `author`, as `viewer` sees it. */
export function expectedComment(
  spaceId: string,
  author: TestUser,
  values: { id: string; revision: string; markdown: string; changeRequest?: string } & Partial<Schemas['Comment']>,
  permissions: Schemas['CommentPermissions'] = { view: true, edit: true, reply: true, delete: true },
) {
  const { id, revision, markdown, changeRequest, ...rest } = values;
  const base = changeRequest ? `/v1/spaces/${spaceId}/change-requests/${changeRequest}/comments` : `/v1/spaces/${spaceId}/comments`;
  return {
    object: 'comment',
    id,
    postedBy: expectedUser(author),
    postedAt: expect.any(String),
    reactions: [],
    replies: 0,
    body: { markdown },
    target: { space: spaceId, ...(changeRequest ? { changeRequest } : {}), revision },
    urls: { location: `http://api.test${base}/${id}` },
    permissions,
    status: 'open',
    ...rest,
  };
}

/** The open-comment counters recomputed from the rows, to prove the stored ones exact. */
export async function openCommentsFromRows(t: TestServer, spaceId: string, changeRequestId: string | null = null): Promise<number> {
  const rows = await t.db
    .selectFrom('comments')
    .select('id')
    .where('spaceId', '=', spaceId)
    .where('changeRequestId', changeRequestId === null ? 'is' : '=', changeRequestId)
    .where('status', '=', 'open')
    .execute();
  return rows.length;
}

/** The space's stored counter (`comments`). */
export async function spaceCounter(t: TestServer, spaceId: string): Promise<number> {
  return (await t.db.selectFrom('spaces').select('commentsCount').where('id', '=', spaceId).executeTakeFirstOrThrow()).commentsCount;
}
