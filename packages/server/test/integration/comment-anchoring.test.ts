// Comments follow the text they discuss across edits (moved, edited, deleted, duplicated blocks,
// deleted pages), in the space and in change requests; change-request comments and the lifecycle of
// comments with their space (transfer, purge, duplicate).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { documentBlocks } from '../../src/areas/comments/anchoring.js';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { addMember, createMember, createOrganizationWithAdmin, createSpace, createUser, type TestUser } from '../support/factories.js';
import { edit } from '../support/content.js';
import { createCr, crPath, editCr, mergeCr } from '../support/change-requests.js';
import { expectedUser } from '../support/people.js';
import { commentPath, expectedComment, getComment, openCommentsFromRows, postComment, postReply, spaceCounter } from '../support/comments.js';

const server = useTestServer();

const BODY = ['# Setup', 'Install the tool with the package manager of your system.', 'Configure the proxy in the settings file before the first run.', 'Done.'];
const markdown = (blocks: string[]) => `${blocks.join('\n\n')}\n`;
const idOf = (blocks: string[], text: string) => documentBlocks(markdown(blocks)).find((block) => block.text === text)!.id;

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  const written = await edit(admin, space.id, [{ type: 'insert_page', title: 'Setup', slug: 'setup', ref: 'page', markdown: markdown(BODY) }]);
  return { admin, organization, space, pageId: written.refs.page! };
}

/** A comment on the block holding `text`. */
async function commentOn(user: TestUser, spaceId: string, pageId: string, text: string) {
  return postComment(user, spaceId, { page: pageId, node: idOf(BODY, text), body: { markdown: `About: ${text}` } });
}

const setBody = (user: TestUser, spaceId: string, pageId: string, blocks: string[]) => edit(user, spaceId, [{ type: 'update_page', page: pageId, markdown: markdown(blocks) }]);

describe('anchoring across edits', () => {
  it('follows a block that moved, and one that was edited; loses one that was deleted', async () => {
    const t = server();
    const { admin, space, pageId } = await world(t);
    const proxy = await commentOn(admin, space.id, pageId, BODY[2]!);
    const install = await commentOn(admin, space.id, pageId, BODY[1]!);
    const done = await commentOn(admin, space.id, pageId, 'Done.');

    // Moved to the top, edited, and deleted, in one edit.
    const edited = 'Install the tool with the package manager of your operating system.';
    const next = [BODY[2]!, '# Setup', edited];
    await setBody(admin, space.id, pageId, next);

    const movedRead = await getComment(admin, space.id, proxy.id);
    expect(movedRead.target).toEqual({ ...proxy.target, page: { ...proxy.target.page!, updatedAt: expect.any(String), outdated: false } });
    const editedRead = await getComment(admin, space.id, install.id);
    expect(editedRead.target.node).toEqual({ id: idOf(next, edited), preview: edited });
    expect(editedRead.target.page!.outdated).toBe(false);
    const doneRead = await getComment(admin, space.id, done.id);
    expect(doneRead.target.node).toEqual(done.target.node);
    expect(doneRead.target.page!.outdated).toBe(true);
    // `revision` stays the one the comment was posted at.
    expect(editedRead.target.revision).toBe(install.target.revision);

    // Computed once per body: the anchors are cached against the page's current body.
    const cached = await t.db.selectFrom('commentAnchors').select(['commentId', 'nodeId']).orderBy('commentId').execute();
    expect(cached).toEqual(
      [
        { commentId: proxy.id, nodeId: idOf(next, BODY[2]!) },
        { commentId: install.id, nodeId: idOf(next, edited) },
        { commentId: done.id, nodeId: null },
      ].sort((a, b) => (a.commentId < b.commentId ? -1 : 1)),
    );
    // The list shows the same targets from the cache.
    const { data: listed } = await admin.client.GET('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId: space.id }, query: { targetPage: pageId } } });
    expect(Object.fromEntries(listed!.items.map((item) => [item.id, item.target]))).toEqual({
      [proxy.id]: movedRead.target,
      [install.id]: editedRead.target,
      [done.id]: doneRead.target,
    });

    // The deleted text coming back finds the comment its block again.
    await setBody(admin, space.id, pageId, [...next, 'Done.']);
    expect((await getComment(admin, space.id, done.id)).target.page!.outdated).toBe(false);
  });

  it('tells duplicated text apart by its neighbours', async () => {
    const t = server();
    const { admin, space, pageId } = await world(t);
    const twice = ['Intro one.', 'Same words here.', 'After one.', 'Intro two.', 'Same words here.', 'After two.'];
    await setBody(admin, space.id, pageId, twice);
    const second = documentBlocks(markdown(twice))[4]!;
    const comment = await postComment(admin, space.id, { page: pageId, node: second.id, body: { markdown: 'The second one' } });
    expect(comment.target.node).toEqual({ id: second.id, preview: 'Same words here.' });
    // The first copy goes: the comment stays on its copy, whose id is now the unnumbered one.
    const without = ['Intro one.', 'After one.', 'Intro two.', 'Same words here.', 'After two.'];
    await setBody(admin, space.id, pageId, without);
    expect((await getComment(admin, space.id, comment.id)).target.node).toEqual({ id: idOf(without, 'Same words here.'), preview: 'Same words here.' });
  });

  it('is outdated when the page is deleted, showing the page as it was', async () => {
    const t = server();
    const { admin, space, pageId } = await world(t);
    const onBlock = await commentOn(admin, space.id, pageId, 'Done.');
    const onPage = await postComment(admin, space.id, { page: pageId, body: { markdown: 'On the page' } });
    await edit(admin, space.id, [{ type: 'delete_page', page: pageId }]);
    expect((await getComment(admin, space.id, onBlock.id)).target).toEqual({
      space: space.id,
      revision: onBlock.target.revision,
      page: { id: pageId, title: 'Setup', path: 'setup', outdated: true },
      node: onBlock.target.node,
    });
    expect((await getComment(admin, space.id, onPage.id)).target.page).toEqual({ id: pageId, title: 'Setup', path: 'setup', outdated: true });
    // A page comment is not outdated by an edit of its body.
    const { admin: other, space: otherSpace, pageId: otherPage } = await world(t);
    const pageComment = await postComment(other, otherSpace.id, { page: otherPage, body: { markdown: 'Whole page' } });
    await setBody(other, otherSpace.id, otherPage, ['Something else entirely.']);
    expect((await getComment(other, otherSpace.id, pageComment.id)).target.page!.outdated).toBe(false);
  });
});

describe('change-request comments', () => {
  const crComments = (spaceId: string, changeRequestId: string) => ({ params: { path: { spaceId, changeRequestId } } });
  const crComment = (spaceId: string, changeRequestId: string, commentId: string) => ({ params: { path: { spaceId, changeRequestId, commentId } } });

  it('posts on the request’s own content, counts on the request (not the space), by id or number', async () => {
    const t = server();
    const { admin, organization, space, pageId } = await world(t);
    const cr = await createCr(admin, space.id, { subject: 'Proposal' });
    const proposed = [...BODY.slice(0, 3), 'A proposed paragraph.'];
    const written = await editCr(admin, space.id, cr.id, [
      { type: 'update_page', page: pageId, markdown: markdown(proposed) },
      { type: 'insert_page', title: 'New', slug: 'new', ref: 'new' },
    ]);
    const commenter = await createMember(t, organization, 'comment');
    const node = idOf(proposed, 'A proposed paragraph.');
    // The request's head has the block and the new page; the space's does not.
    expect((await commenter.client.POST('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId: space.id } }, body: { page: pageId, node, body: { markdown: 'x' } } })).response.status).toBe(400);
    const { data, response } = await commenter.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', {
      ...crComments(space.id, '1'),
      body: { page: pageId, node, body: { markdown: 'Why?' } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(
      expectedComment(space.id, commenter, {
        id: data!.id,
        revision: written.revision,
        changeRequest: cr.id,
        markdown: 'Why?',
        target: {
          space: space.id,
          changeRequest: cr.id,
          revision: written.revision,
          page: { id: pageId, title: 'Setup', path: 'setup', createdAt: expect.any(String), updatedAt: expect.any(String), outdated: false },
          node: { id: node, preview: 'A proposed paragraph.' },
        },
      }),
    );
    const onNew = await commenter.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', {
      ...crComments(space.id, cr.id),
      body: { page: written.refs.new!, body: { markdown: 'Nice page' } },
    });
    expect(onNew.response.status).toBe(200);
    const read = await commenter.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id));
    expect(read.data!.comments).toBe(2);
    expect(await spaceCounter(t, space.id)).toBe(0);
    expect(await openCommentsFromRows(t, space.id, cr.id)).toBe(2);
    // The families are apart: the request's comment is absent from the space's list and path, and the
    // space's from the request's.
    const spaceComment = await postComment(commenter, space.id, { body: { markdown: 'On the space' } });
    const { data: spaceList } = await commenter.client.GET('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId: space.id } } });
    expect(spaceList!.items.map((item) => item.id)).toEqual([spaceComment.id]);
    const { data: crList } = await commenter.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', crComments(space.id, cr.id));
    expect(crList!.items.map((item) => item.id)).toEqual([onNew.data!.id, data!.id]);
    expect((await commenter.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', crComment(space.id, cr.id, spaceComment.id))).response.status).toBe(404);
    const other = await createCr(admin, space.id);
    expect((await commenter.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', crComment(space.id, other.id, data!.id))).response.status).toBe(404);

    // A stranger, a reader.
    expect((await (await createUser(t)).client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', crComments(space.id, cr.id))).response.status).toBe(404);
    expect((await (await createMember(t, organization, 'read')).client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', crComments(space.id, cr.id))).response.status).toBe(403);

    // Resolving and deleting move the request's counter.
    await commenter.client.PUT('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', { ...crComment(space.id, cr.id, data!.id), body: { resolved: true } });
    await commenter.client.DELETE('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', crComment(space.id, cr.id, onNew.data!.id));
    expect((await commenter.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id))).data!.comments).toBe(0);
  });

  it('re-anchors on the request’s later revisions; keeps the request’s counter exact under concurrency', async () => {
    const t = server();
    const { admin, space, pageId } = await world(t);
    const cr = await createCr(admin, space.id);
    const { data: comment } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', {
      ...crComments(space.id, cr.id),
      body: { page: pageId, node: idOf(BODY, BODY[2]!), body: { markdown: 'Proxy?' } },
    });
    const changed = [BODY[0]!, 'Configure the HTTP proxy in the settings file before the first run.', 'Done.'];
    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: pageId, markdown: markdown(changed) }]);
    const { data: read } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', crComment(space.id, cr.id, comment!.id));
    expect(read!.target.node).toEqual({ id: idOf(changed, changed[1]!), preview: changed[1] });
    expect(read!.target.page!.outdated).toBe(false);

    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { ...crComments(space.id, cr.id), body: { body: { markdown: `C${i}` } } }),
      ),
    );
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id))).data!.comments).toBe(11);
    expect(await openCommentsFromRows(t, space.id, cr.id)).toBe(11);
  });

  it('a merged request’s discussion stays readable and can be tidied, but takes no new comments or replies (409)', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [{ type: 'insert_page', title: 'Merged page' }]);
    const { data: comment } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { ...crComments(space.id, cr.id), body: { body: { markdown: 'Before' } } });
    await mergeCr(admin, space.id, cr.id);
    const late = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { ...crComments(space.id, cr.id), body: { body: { markdown: 'After' } } });
    expect(late.response.status).toBe(409);
    expect(late.error?.error.message).toBe('The change request is merged: its discussion is closed to new comments and replies');
    const lateReply = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', {
      ...crComment(space.id, cr.id, comment!.id),
      body: { body: { markdown: 'After' } },
    });
    expect(lateReply.response.status).toBe(409);
    const resolved = await admin.client.PUT('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', { ...crComment(space.id, cr.id, comment!.id), body: { resolved: true } });
    expect(resolved.data!.status).toBe('resolved');
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', crComments(space.id, cr.id))).data!.count).toBe(1);
  });

  it('replies in the change-request family: post, list, read, edit, delete', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const cr = await createCr(admin, space.id);
    const commenter = await createMember(t, organization, 'comment');
    const { data: comment } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { ...crComments(space.id, cr.id), body: { body: { markdown: 'Q' } } });
    const base = crComment(space.id, cr.id, comment!.id);
    const { data: reply } = await commenter.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', {
      ...base,
      params: { ...base.params, query: { format: 'document' } },
      body: { body: { markdown: 'A' } },
    });
    expect(reply).toEqual({
      object: 'comment-reply',
      id: reply!.id,
      postedBy: expectedUser(commenter),
      postedAt: expect.any(String),
      reactions: [],
      body: { document: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: 'A' }] }] } },
      urls: { location: `http://api.test/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${comment!.id}/replies/${reply!.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const replyPath = { params: { path: { ...base.params.path, commentReplyId: reply!.id } } };
    const { data: listed } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', base);
    expect(listed!.items.map((item) => item.id)).toEqual([reply!.id]);
    const forbidden = await admin.client.PUT('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', { ...replyPath, body: { body: { markdown: 'B' } } });
    expect(forbidden.response.status).toBe(403);
    const edited = await commenter.client.PUT('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', { ...replyPath, body: { body: { markdown: 'B' } } });
    expect(edited.data).toMatchObject({ body: { markdown: 'B' }, editedAt: expect.any(String) });
    expect((await commenter.client.DELETE('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', replyPath)).response.status).toBe(205);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', replyPath)).response.status).toBe(404);
  });
});

describe('comments and the space lifecycle', () => {
  async function discussed(t: TestServer) {
    const w = await world(t);
    const comment = await postComment(w.admin, w.space.id, { page: w.pageId, node: idOf(BODY, 'Done.'), body: { markdown: 'Space comment' } });
    const reply = await postReply(w.admin, w.space.id, comment.id, 'A reply');
    await w.admin.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath(w.space.id, comment.id), body: { addedReactions: ['👍'] } });
    await w.admin.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', {
      params: { path: { spaceId: w.space.id, commentId: comment.id, commentReplyId: reply.id } },
      body: { addedReactions: ['🎉'] },
    });
    const cr = await createCr(w.admin, w.space.id);
    await w.admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { params: { path: { spaceId: w.space.id, changeRequestId: cr.id } }, body: { body: { markdown: 'Request comment' } } });
    // An edit, so an anchor is cached.
    await setBody(w.admin, w.space.id, w.pageId, ['Moved first.', ...BODY]);
    await getComment(w.admin, w.space.id, comment.id);
    return { ...w, comment, cr };
  }

  const rows = async (t: TestServer, organizationId: string, spaceId: string) => {
    const n = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(t.db)).rows[0]!.n;
    return {
      comments: await n(sql`SELECT count(*)::int AS n FROM comments WHERE organization_id = ${organizationId} AND space_id = ${spaceId}`),
      replies: await n(sql`SELECT count(*)::int AS n FROM comment_replies r JOIN comments c ON c.organization_id = r.organization_id AND c.id = r.comment_id WHERE c.organization_id = ${organizationId} AND c.space_id = ${spaceId}`),
      reactions: await n(sql`SELECT count(*)::int AS n FROM comment_reactions x JOIN comments c ON c.organization_id = x.organization_id AND c.id = x.comment_id WHERE c.organization_id = ${organizationId} AND c.space_id = ${spaceId}`),
      replyReactions: await n(sql`SELECT count(*)::int AS n FROM comment_reply_reactions x JOIN comment_replies r ON r.organization_id = x.organization_id AND r.id = x.reply_id JOIN comments c ON c.organization_id = r.organization_id AND c.id = r.comment_id WHERE c.organization_id = ${organizationId} AND c.space_id = ${spaceId}`),
      anchors: await n(sql`SELECT count(*)::int AS n FROM comment_anchors a JOIN comments c ON c.organization_id = a.organization_id AND c.id = a.comment_id WHERE c.organization_id = ${organizationId} AND c.space_id = ${spaceId}`),
    };
  };
  const all = { comments: 2, replies: 1, reactions: 1, replyReactions: 1, anchors: 1 };
  const none = { comments: 0, replies: 0, reactions: 0, replyReactions: 0, anchors: 0 };

  it('a transfer carries comments, replies, reactions and anchors, with the counters', async () => {
    const t = server();
    const { admin, organization, space, comment, cr } = await discussed(t);
    expect(await rows(t, organization.id, space.id)).toEqual(all);
    const before = await getComment(admin, space.id, comment.id);
    const { organization: target } = await createOrganizationWithAdmin(t);
    await addMember(t, target, admin, 'admin');
    expect((await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.id } })).response.status).toBe(200);
    expect(await rows(t, organization.id, space.id)).toEqual(none);
    expect(await rows(t, target.id, space.id)).toEqual(all);
    expect(await getComment(admin, space.id, comment.id)).toEqual(before);
    expect(await spaceCounter(t, space.id)).toBe(1);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, cr.id))).data!.comments).toBe(1);
    // Still writable there.
    expect((await admin.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath(space.id, comment.id), body: { resolved: true } })).response.status).toBe(200);
    expect(await spaceCounter(t, space.id)).toBe(0);
  });

  it('the purge removes them; a duplicate starts without them; a deleted space hides them', async () => {
    const t = server();
    const { admin, organization, space, comment } = await discussed(t);
    const { data: copy } = await admin.client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId: space.id } } });
    expect(copy!.comments).toBe(0);
    expect(await rows(t, organization.id, copy!.id)).toEqual(none);
    expect((await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } })).response.status).toBe(205);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', commentPath(space.id, comment.id))).response.status).toBe(404);
    await sql`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ${space.id}`.execute(t.db);
    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    expect(await rows(t, organization.id, space.id)).toEqual(none);
  });
});
