// Space comments and their replies: post, read, list with filters, resolve, edit, react, delete; the
// space's open-comment counter under concurrency; 400s, 404s across organizations and spaces, 403s.
import { describe, expect, it } from 'vitest';
import { documentBlocks } from '../../src/areas/comments/anchoring.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSpace, createUser, type TestUser } from '../support/factories.js';
import { edit } from '../support/content.js';
import { createCr } from '../support/change-requests.js';
import { expectedUser } from '../support/people.js';
import {
  commentPath,
  commentsPath,
  expectedComment,
  getComment,
  openCommentsFromRows,
  postComment,
  postReply,
  replyPath,
  spaceCounter,
} from '../support/comments.js';

const server = useTestServer();

const GUIDE = '# Install\n\nRun the installer with the default options.\n\nThen restart.\n';

/** A space with one page (`Guide`), its admin, and a commenter. */
async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  const written = await edit(admin, space.id, [{ type: 'insert_page', title: 'Guide', slug: 'guide', ref: 'guide', markdown: GUIDE }]);
  const commenter = await createMember(t, organization, 'comment');
  const head = (await t.db.selectFrom('spaces').select('headRevisionId').where('id', '=', space.id).executeTakeFirstOrThrow()).headRevisionId;
  return { admin, organization, space, commenter, pageId: written.refs.guide!, head };
}

const blockId = (markdown: string, text: string) => documentBlocks(markdown).find((block) => block.text === text)!.id;

const put = (user: TestUser, spaceId: string, commentId: string, body: object) =>
  user.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath(spaceId, commentId), body: body as never });

describe('POST /v1/spaces/{spaceId}/comments', () => {
  it('400 for an empty, blank, too long or NUL body, an unknown field, a node without a page, an absent page or block; nothing is written', async () => {
    const t = server();
    const { space, commenter, pageId } = await world(t);
    const cases: Array<[object, string]> = [
      [{ body: { markdown: '' } }, '/body/body/markdown'],
      [{ body: { markdown: ' \n\t ' } }, '/body/body/markdown'],
      [{ body: { markdown: 'x'.repeat(20_001) } }, '/body/body/markdown'],
      [{ body: { markdown: 'a\u0000b' } }, '/body/body/markdown'],
      [{ body: { markdown: 'x' }, title: 'x' }, '/body/title'],
      [{ body: {} }, '/body/body/markdown'],
      [{ body: { markdown: 'x' }, node: '0123456789abcdef' }, '/body/node'],
      [{ body: { markdown: 'x' }, node: 'not a node' }, '/body/node'],
      [{ body: { markdown: 'x' }, page: 'AbCdEfGhIjKlMnOpQrSt' }, '/body/page'],
      [{ body: { markdown: 'x' }, page: pageId, node: '0123456789abcdef' }, '/body/node'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await commenter.client.POST('/v1/spaces/{spaceId}/comments', { ...commentsPath(space.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path), JSON.stringify(body)).toContain(path);
    }
    expect(await t.db.selectFrom('comments').select('id').execute()).toEqual([]);
    expect(await spaceCounter(t, space.id)).toBe(0);
  });

  it('404 for another organization’s space, 403 below comment', async () => {
    const t = server();
    const { organization, space } = await world(t);
    const stranger = await createUser(t);
    const body = { body: { markdown: 'Hello' } };
    expect((await stranger.client.POST('/v1/spaces/{spaceId}/comments', { ...commentsPath(space.id), body })).response.status).toBe(404);
    const reader = await createMember(t, organization, 'read');
    const { response, error } = await reader.client.POST('/v1/spaces/{spaceId}/comments', { ...commentsPath(space.id), body });
    expect(response.status).toBe(403);
    expect(error?.error.message).toMatch(/"comment"/);
  });

  it('posts on a block of a page: the whole comment, read back, counted', async () => {
    const t = server();
    const { space, commenter, pageId, head } = await world(t);
    const node = blockId(GUIDE, 'Run the installer with the default options.');
    const { data, response } = await commenter.client.POST('/v1/spaces/{spaceId}/comments', {
      ...commentsPath(space.id),
      body: { page: pageId, node, body: { markdown: 'Which **options**?' } },
    });
    expect(response.status).toBe(200);
    const expected = expectedComment(
      space.id,
      commenter,
      {
        id: data!.id,
        revision: head,
        markdown: 'Which **options**?',
        target: {
          space: space.id,
          revision: head,
          page: { id: pageId, title: 'Guide', path: 'guide', createdAt: expect.any(String), updatedAt: expect.any(String), outdated: false },
          node: { id: node, preview: 'Run the installer with the default options.' },
        },
      },
    );
    expect(data).toEqual(expected);
    expect(await getComment(commenter, space.id, data!.id)).toEqual(expected);
    const { data: asDocument } = await commenter.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath(space.id, data!.id), params: { ...commentPath(space.id, data!.id).params, query: { format: 'document' } } });
    expect(asDocument!.body).toEqual({
      document: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: 'Which ' }, { type: 'strong', children: [{ type: 'text', value: 'options' }] }, { type: 'text', value: '?' }] }] },
    });
    const { data: spaceRead } = await commenter.client.GET('/v1/spaces/{spaceId}', commentsPath(space.id));
    expect(spaceRead!.comments).toBe(1);
  });

  it('posts on the space as a whole, and on a page without a block', async () => {
    const t = server();
    const { admin, space, pageId, head } = await world(t);
    const general = await postComment(admin, space.id, { body: { markdown: 'General' } });
    expect(general).toEqual(expectedComment(space.id, admin, { id: general.id, revision: head, markdown: 'General' }));
    const onPage = await postComment(admin, space.id, { page: pageId, body: { markdown: 'On the page' } });
    expect(onPage.target).toEqual({
      space: space.id,
      revision: head,
      page: { id: pageId, title: 'Guide', path: 'guide', createdAt: expect.any(String), updatedAt: expect.any(String), outdated: false },
    });
  });

  it('keeps the space’s counter exact under concurrent posts', async () => {
    const t = server();
    const { space, commenter } = await world(t);
    const count = async (status: 'all' | 'open') => (await commenter.client.GET('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId: space.id }, query: { status } } })).data!.count;
    expect(await count('all')).toBe(0);
    const posted = await Promise.all(Array.from({ length: 16 }, (_, i) => postComment(commenter, space.id, { body: { markdown: `Comment ${i}` } })));
    expect(await spaceCounter(t, space.id)).toBe(16);
    expect(await openCommentsFromRows(t, space.id)).toBe(16);
    // List counts (cached per list version) follow every write that changes what a filter matches.
    expect([await count('all'), await count('open')]).toEqual([16, 16]);
    await put(commenter, space.id, posted[0]!.id, { resolved: true });
    expect([await count('all'), await count('open')]).toEqual([16, 15]);
    await commenter.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, posted[1]!.id));
    expect([await count('all'), await count('open')]).toEqual([15, 14]);
  });
});

describe('GET /v1/spaces/{spaceId}/comments/{commentId}', () => {
  it('404 for an unknown id, a comment of another space or of a change request, and for a stranger; 403 for a reader', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const comment = await postComment(admin, space.id, { body: { markdown: 'Here' } });
    const other = await createSpace(t, admin, organization);
    const elsewhere = await postComment(admin, other.id, { body: { markdown: 'There' } });
    const cr = await createCr(admin, space.id);
    const { data: ofRequest } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id } },
      body: { body: { markdown: 'On the request' } },
    });
    for (const id of ['AbCdEfGhIjKlMnOpQrSt', elsewhere.id, ofRequest!.id]) {
      const { response, error } = await admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, id));
      expect(response.status, id).toBe(404);
      expect(error?.error.message).toBe('Comment not found');
    }
    // Another organization's member, through their own space, with this organization's comment id.
    const stranger = await createOrganizationWithAdmin(t);
    const theirs = await createSpace(t, stranger.admin, stranger.organization);
    expect((await stranger.admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(theirs.id, comment.id))).response.status).toBe(404);
    expect((await stranger.admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, comment.id))).response.status).toBe(404);
    const reader = await createMember(t, organization, 'read');
    expect((await reader.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, comment.id))).response.status).toBe(403);
  });
});

describe('GET /v1/spaces/{spaceId}/comments', () => {
  async function listWorld(t: TestServer) {
    const w = await world(t);
    const editor = await createMember(t, w.organization, 'edit');
    const first = await postComment(w.commenter, w.space.id, { body: { markdown: 'First' }, page: w.pageId });
    const second = await postComment(editor, w.space.id, { body: { markdown: 'Second' } });
    const third = await postComment(w.admin, w.space.id, { body: { markdown: 'Third' }, page: w.pageId });
    // Distinct times, so the order is certain.
    for (const [i, comment] of [first, second, third].entries()) {
      await t.db.updateTable('comments').set({ postedAt: `2026-11-2${i + 1}T10:00:00.000Z` } as never).where('id', '=', comment.id).execute();
    }
    await put(w.admin, w.space.id, second.id, { resolved: true });
    return { ...w, editor, first, second, third };
  }

  const list = (user: TestUser, spaceId: string, query: Record<string, unknown> = {}) =>
    user.client.GET('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId }, query: query as never } });

  it('400 for an unknown status, order or format, a malformed author, a limit out of range or a foreign cursor', async () => {
    const t = server();
    const { space, commenter } = await world(t);
    for (const query of [{ status: 'closed' }, { order: 'up' }, { format: 'html' }, { authors: ['not an id'] }, { limit: 0 }, { limit: 1001 }, { page: 'garbage' }]) {
      expect((await list(commenter, space.id, query)).response.status, JSON.stringify(query)).toBe(400);
    }
    const paged = await list(commenter, space.id, { limit: 1 });
    expect(paged.response.status).toBe(200);
  });

  it('lists newest first by default, filters by status, page and authors (repeated keys), and pages with a cursor', async () => {
    const t = server();
    const { space, commenter, editor, admin, pageId, first, second, third, head } = await listWorld(t);
    const ids = async (query: Record<string, unknown>) => {
      const { data } = await list(commenter, space.id, query);
      return { ids: data!.items.map((item) => item.id), count: data!.count };
    };
    expect(await ids({})).toEqual({ ids: [third.id, second.id, first.id], count: 3 });
    expect(await ids({ order: 'asc' })).toEqual({ ids: [first.id, second.id, third.id], count: 3 });
    expect(await ids({ status: 'open' })).toEqual({ ids: [third.id, first.id], count: 2 });
    expect(await ids({ status: 'resolved' })).toEqual({ ids: [second.id], count: 1 });
    expect(await ids({ targetPage: pageId })).toEqual({ ids: [third.id, first.id], count: 2 });
    expect(await ids({ authors: [commenter.user.id, editor.user.id] })).toEqual({ ids: [second.id, first.id], count: 2 });
    expect(await ids({ authors: [admin.user.id], status: 'open', targetPage: pageId })).toEqual({ ids: [third.id], count: 1 });

    const page1 = await list(commenter, space.id, { limit: 2 });
    expect(page1.data!.items.map((item) => item.id)).toEqual([third.id, second.id]);
    expect(page1.data!.next).toEqual({ page: expect.any(String) });
    const page2 = await list(commenter, space.id, { limit: 2, page: page1.data!.next!.page });
    expect(page2.data).toEqual({
      items: [
        expectedComment(
          space.id,
          commenter,
          {
            id: first.id,
            revision: head,
            markdown: 'First',
            postedAt: '2026-11-21T10:00:00.000Z',
            target: { space: space.id, revision: head, page: { id: pageId, title: 'Guide', path: 'guide', createdAt: expect.any(String), updatedAt: expect.any(String), outdated: false } },
          },
        ),
      ],
      count: 3,
    });
    // A cursor belongs to its query.
    expect((await list(commenter, space.id, { limit: 2, status: 'open', page: page1.data!.next!.page })).response.status).toBe(400);
  });
});

describe('PUT /v1/spaces/{spaceId}/comments/{commentId}', () => {
  it('400 for a reaction that is not one emoji, an unknown field, a blank body; nothing changes', async () => {
    const t = server();
    const { space, commenter } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'Hi' } });
    for (const body of [{ addedReactions: ['+1'] }, { addedReactions: ['👍👍'] }, { removedReactions: ['x'] }, { body: { markdown: '  ' } }, { status: 'resolved' }, { resolved: 'yes' }]) {
      const { response } = await put(commenter, space.id, comment.id, { resolved: true, ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(await getComment(commenter, space.id, comment.id)).toEqual(comment);
  });

  it('404 for a stranger or an unknown comment; 403 for a reader, and for a body change by anyone but the author', async () => {
    const t = server();
    const { organization, space, commenter, admin } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'Mine' } });
    expect((await put(await createUser(t), space.id, comment.id, { resolved: true })).response.status).toBe(404);
    expect((await put(admin, space.id, 'AbCdEfGhIjKlMnOpQrSt', { resolved: true })).response.status).toBe(404);
    expect((await put(await createMember(t, organization, 'read'), space.id, comment.id, { resolved: true })).response.status).toBe(403);
    const { response, error } = await put(admin, space.id, comment.id, { body: { markdown: 'Not yours' }, resolved: true });
    expect(response.status).toBe(403);
    expect(error?.error.message).toBe('Only its author may change a comment’s body');
    expect(await getComment(commenter, space.id, comment.id)).toEqual(comment);
  });

  it('resolves (by anyone with comment) and reopens, moving the counter; the current status is a no-op', async () => {
    const t = server();
    const { organization, space, commenter } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'Fix this' } });
    const other = await createMember(t, organization, 'comment');
    const { data: resolved } = await put(other, space.id, comment.id, { resolved: true });
    expect(resolved).toEqual({ ...comment, permissions: { view: true, edit: false, reply: true, delete: false }, status: 'resolved', resolvedAt: expect.any(String), resolvedBy: expectedUser(other) });
    expect(await spaceCounter(t, space.id)).toBe(0);
    const { data: again } = await put(commenter, space.id, comment.id, { resolved: true });
    expect(again!.resolvedAt).toBe(resolved!.resolvedAt);
    expect(await spaceCounter(t, space.id)).toBe(0);
    const { data: reopened } = await put(commenter, space.id, comment.id, { resolved: false });
    expect(reopened).toEqual(comment);
    expect(await spaceCounter(t, space.id)).toBe(1);
  });

  it('edits the body (its author), setting editedAt', async () => {
    const t = server();
    const { space, commenter } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'Tpyo' } });
    const { data } = await put(commenter, space.id, comment.id, { body: { markdown: 'Typo' } });
    expect(data).toEqual({ ...comment, body: { markdown: 'Typo' }, editedAt: expect.any(String) });
    expect(await getComment(commenter, space.id, comment.id)).toEqual(data);
  });

  it('adds and removes reactions idempotently per user and emoji, grouped by emoji', async () => {
    const t = server();
    const { organization, space, commenter, admin } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'React' } });
    const other = await createMember(t, organization, 'comment');
    await put(commenter, space.id, comment.id, { addedReactions: ['👍'] });
    await put(commenter, space.id, comment.id, { addedReactions: ['🎉'] });
    const first = (await getComment(commenter, space.id, comment.id)).reactions;
    await put(commenter, space.id, comment.id, { addedReactions: ['👍'] });
    expect((await getComment(commenter, space.id, comment.id)).reactions).toEqual(first);
    await put(other, space.id, comment.id, { addedReactions: ['👍', '❤'] });
    // Removing a reaction one never made changes nothing; groups in the order each emoji was first used.
    const { data } = await put(admin, space.id, comment.id, { removedReactions: ['🎉'] });
    expect(data!.reactions).toEqual([
      {
        emoji: '👍',
        count: 2,
        users: [
          { user: expectedUser(commenter), reactedAt: first[0]!.users[0]!.reactedAt },
          { user: expectedUser(other), reactedAt: expect.any(String) },
        ],
      },
      { emoji: '🎉', count: 1, users: [{ user: expectedUser(commenter), reactedAt: expect.any(String) }] },
      { emoji: '❤️', count: 1, users: [{ user: expectedUser(other), reactedAt: expect.any(String) }] },
    ]);
    // The caller is listed first among those who reacted.
    const asOther = await getComment(other, space.id, comment.id);
    expect(asOther.reactions[0]!.users.map((entry) => entry.user.id)).toEqual([other.user.id, commenter.user.id]);
    const { data: removed } = await put(other, space.id, comment.id, { removedReactions: ['👍', '🙈'] });
    expect(removed!.reactions.map((reaction) => [reaction.emoji, reaction.count])).toEqual([['👍', 1], ['🎉', 1], ['❤️', 1]]);
    expect(await t.db.selectFrom('commentReactions').select(['emoji', 'userId']).where('commentId', '=', comment.id).orderBy('reactedAt').execute()).toHaveLength(3);
  });

  it('refuses a 21st different emoji, changing nothing', async () => {
    const t = server();
    const { space, commenter } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'Many' } });
    const twenty = [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗'];
    expect((await put(commenter, space.id, comment.id, { addedReactions: twenty })).response.status).toBe(200);
    const { response, error } = await put(commenter, space.id, comment.id, { addedReactions: ['🤩'], resolved: true });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/addedReactions', message: 'a comment holds at most 20 different emojis' }]);
    const read = await getComment(commenter, space.id, comment.id);
    expect(read.reactions).toHaveLength(20);
    expect(read.status).toBe('open');
  });

  it('keeps the counter exact under concurrent resolves, reopens and deletes', async () => {
    const t = server();
    const { space, commenter, admin } = await world(t);
    const comments = await Promise.all(Array.from({ length: 12 }, (_, i) => postComment(commenter, space.id, { body: { markdown: `C${i}` } })));
    await Promise.all([
      ...comments.slice(0, 6).flatMap((comment) => [put(admin, space.id, comment.id, { resolved: true }), put(commenter, space.id, comment.id, { resolved: true })]),
      ...comments.slice(6, 9).map((comment) => admin.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, comment.id))),
      ...comments.slice(9).map((comment) => put(admin, space.id, comment.id, { resolved: false })),
    ]);
    expect(await spaceCounter(t, space.id)).toBe(3);
    expect(await openCommentsFromRows(t, space.id)).toBe(3);
    await Promise.all(comments.slice(0, 6).map((comment) => put(commenter, space.id, comment.id, { resolved: false })));
    expect(await spaceCounter(t, space.id)).toBe(9);
    expect(await openCommentsFromRows(t, space.id)).toBe(9);
  });
});

describe('DELETE /v1/spaces/{spaceId}/comments/{commentId}', () => {
  const remove = (user: TestUser, spaceId: string, commentId: string) => user.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(spaceId, commentId));

  it('404 for a stranger and an unknown comment; 403 for another commenter', async () => {
    const t = server();
    const { organization, space, commenter, admin } = await world(t);
    const comment = await postComment(commenter, space.id, { body: { markdown: 'Mine' } });
    expect((await remove(await createUser(t), space.id, comment.id)).response.status).toBe(404);
    expect((await remove(admin, space.id, 'AbCdEfGhIjKlMnOpQrSt')).response.status).toBe(404);
    const { response, error } = await remove(await createMember(t, organization, 'review'), space.id, comment.id);
    expect(response.status).toBe(403);
    expect(error?.error.message).toBe('Only its author or an admin of the space may delete a comment');
    expect(await spaceCounter(t, space.id)).toBe(1);
  });

  it('the author deletes with its replies and reactions; an admin deletes anyone’s; the counter follows open comments only', async () => {
    const t = server();
    const { space, commenter, admin } = await world(t);
    const mine = await postComment(commenter, space.id, { body: { markdown: 'Mine' } });
    await postReply(admin, space.id, mine.id, 'A reply');
    await put(admin, space.id, mine.id, { addedReactions: ['👍'] });
    const resolved = await postComment(commenter, space.id, { body: { markdown: 'Done' } });
    await put(commenter, space.id, resolved.id, { resolved: true });
    expect(await spaceCounter(t, space.id)).toBe(1);

    expect((await remove(commenter, space.id, mine.id)).response.status).toBe(205);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, mine.id))).response.status).toBe(404);
    expect(await t.db.selectFrom('commentReplies').select('id').where('commentId', '=', mine.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('commentReactions').select('emoji').where('commentId', '=', mine.id).execute()).toEqual([]);
    expect(await spaceCounter(t, space.id)).toBe(0);
    expect((await remove(admin, space.id, resolved.id)).response.status).toBe(205);
    expect(await spaceCounter(t, space.id)).toBe(0);
    expect((await remove(admin, space.id, resolved.id)).response.status).toBe(404);
  });
});

describe('replies', () => {
  async function thread(t: TestServer) {
    const w = await world(t);
    const comment = await postComment(w.commenter, w.space.id, { body: { markdown: 'Question' } });
    return { ...w, comment };
  }

  it('400 for a blank body or an unknown field; 404 for a stranger, an unknown comment, or a reply of another comment; 403 for a reader', async () => {
    const t = server();
    const { organization, space, comment, admin } = await thread(t);
    for (const body of [{ body: { markdown: ' ' } }, { body: { markdown: 'x' }, resolved: true }, {}]) {
      const { response } = await admin.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', { ...commentPath(space.id, comment.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await (await createUser(t)).client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies', commentPath(space.id, comment.id))).response.status).toBe(404);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies', commentPath(space.id, 'AbCdEfGhIjKlMnOpQrSt'))).response.status).toBe(404);
    const other = await postComment(admin, space.id, { body: { markdown: 'Other' } });
    const reply = await postReply(admin, space.id, other.id, 'Elsewhere');
    const { response, error } = await admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', replyPath(space.id, comment.id, reply.id));
    expect(response.status).toBe(404);
    expect(error?.error.message).toBe('Reply not found');
    const reader = await createMember(t, organization, 'read');
    expect((await reader.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', { ...commentPath(space.id, comment.id), body: { body: { markdown: 'x' } } })).response.status).toBe(403);
    expect(await t.db.selectFrom('commentReplies').select('id').execute()).toHaveLength(1);
  });

  it('posts, lists oldest first with a cursor, reads; the comment counts its replies and keeps its status', async () => {
    const t = server();
    const { space, comment, admin, commenter } = await thread(t);
    await put(commenter, space.id, comment.id, { resolved: true });
    const { data: first, response } = await admin.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', {
      ...commentPath(space.id, comment.id),
      body: { body: { markdown: 'Answer' } },
    });
    expect(response.status).toBe(200);
    const expected = {
      object: 'comment-reply',
      id: first!.id,
      postedBy: expectedUser(admin),
      postedAt: expect.any(String),
      reactions: [],
      body: { markdown: 'Answer' },
      urls: { location: `http://api.test/v1/spaces/${space.id}/comments/${comment.id}/replies/${first!.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    };
    expect(first).toEqual(expected);
    const second = await postReply(commenter, space.id, comment.id, 'Thanks');
    await t.db.updateTable('commentReplies').set({ postedAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', first!.id).execute();
    const { data: read } = await commenter.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', replyPath(space.id, comment.id, first!.id));
    expect(read).toEqual({ ...expected, postedAt: '2026-01-01T00:00:00.000Z', permissions: { view: true, edit: false, reply: true, delete: false } });
    const page1 = await commenter.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies', { params: { path: { spaceId: space.id, commentId: comment.id }, query: { limit: 1 } } });
    expect(page1.data!.items.map((item) => item.id)).toEqual([first!.id]);
    expect(page1.data!.count).toBe(2);
    const page2 = await commenter.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies', {
      params: { path: { spaceId: space.id, commentId: comment.id }, query: { limit: 1, page: page1.data!.next!.page } },
    });
    expect(page2.data!.items.map((item) => item.id)).toEqual([second.id]);
    expect(page2.data!.next).toBeUndefined();
    const after = await getComment(commenter, space.id, comment.id);
    expect(after).toMatchObject({ replies: 2, status: 'resolved' });
  });

  it('counts replies exactly under concurrent posts and deletes', async () => {
    const t = server();
    const { space, comment, admin, commenter } = await thread(t);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => postReply(i % 2 ? admin : commenter, space.id, comment.id, `R${i}`)));
    await Promise.all(replies.slice(0, 4).map((reply) => admin.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', replyPath(space.id, comment.id, reply.id))));
    expect((await getComment(admin, space.id, comment.id)).replies).toBe(6);
  });

  it('edits (the author), reacts (anyone with comment), deletes (the author or an admin)', async () => {
    const t = server();
    const { organization, space, comment, admin, commenter } = await thread(t);
    const reply = await postReply(commenter, space.id, comment.id, 'Draft');
    const path = replyPath(space.id, comment.id, reply.id);
    const other = await createMember(t, organization, 'comment');
    const notYours = await other.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...path, body: { body: { markdown: 'Hijack' } } });
    expect(notYours.response.status).toBe(403);
    expect(notYours.error?.error.message).toBe('Only its author may change a reply’s body');
    const badEmoji = await other.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...path, body: { addedReactions: ['ok'] } });
    expect(badEmoji.response.status).toBe(400);
    const reacted = await other.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...path, body: { addedReactions: ['🚀'] } });
    expect(reacted.data!.reactions).toEqual([{ emoji: '🚀', count: 1, users: [{ user: expectedUser(other), reactedAt: expect.any(String) }] }]);
    const edited = await commenter.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...path, body: { body: { markdown: 'Final' } } });
    expect(edited.data).toEqual({ ...reply, body: { markdown: 'Final' }, editedAt: expect.any(String), reactions: reacted.data!.reactions });

    const refused = await other.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', path);
    expect(refused.response.status).toBe(403);
    expect((await admin.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', path)).response.status).toBe(205);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', path)).response.status).toBe(404);
    expect((await getComment(admin, space.id, comment.id)).replies).toBe(0);
  });
});
