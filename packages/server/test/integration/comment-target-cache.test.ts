// The cache of resolved comment targets (areas/comments/targets.ts): a list read at an unchanged head
// resolves no target again, and nothing it holds outlives the head it was read at — an edit, a merge,
// a change request's new revision, a body edit or a resolve shows on the next read.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { documentBlocks } from '../../src/areas/comments/anchoring.js';
import { commentsQuery, type CommentContext } from '../../src/areas/comments/comments.repository.js';
import { resolveTargets } from '../../src/areas/comments/targets.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { edit } from '../support/content.js';
import { createCr, editCr, mergeCr } from '../support/change-requests.js';
import { commentPath, commentsPath, postComment } from '../support/comments.js';

const server = useTestServer();

const BODY = ['# Setup', 'Install the tool with the package manager of your system.', 'Configure the proxy in the settings file before the first run.', 'Done.'];
const markdown = (blocks: string[]) => `${blocks.join('\n\n')}\n`;
const idOf = (blocks: string[], text: string) => documentBlocks(markdown(blocks)).find((block) => block.text === text)!.id;
const withProxy = (proxy: string) => [BODY[0]!, BODY[1]!, proxy, BODY[3]!];

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Docs' });
  const written = await edit(admin, space.id, [{ type: 'insert_page', title: 'Setup', slug: 'setup', ref: 'page', markdown: markdown(BODY) }]);
  return { admin, organization, space, pageId: written.refs.page! };
}

async function listed(user: TestUser, spaceId: string) {
  const { data, response } = await user.client.GET('/v1/spaces/{spaceId}/comments', commentsPath(spaceId));
  expect(response.status).toBe(200);
  return data!.items;
}

/** Changes the materialised head behind the server's back (the head revision stays): only a cache hides it. */
const retitle = (t: TestServer, pageId: string, title: string) => sql`UPDATE space_head_pages SET title = ${title} WHERE page_id = ${pageId}`.execute(t.db);

describe('the comment target cache', () => {
  it('serves a list at an unchanged head without resolving again; a new head, a merge, a body edit and a resolve show at once', async () => {
    const t = server();
    const { admin, space, pageId } = await world(t);
    const comment = await postComment(admin, space.id, { page: pageId, node: idOf(BODY, BODY[2]!), body: { markdown: 'Which proxy?' } });
    const [first] = await listed(admin, space.id);
    expect(first!.target.node).toEqual({ id: idOf(BODY, BODY[2]!), preview: BODY[2] });
    expect(first!.target.page!.title).toBe('Setup');

    // Same head: the target comes from the cache (the row changed behind the server's back is not read).
    await retitle(t, pageId, 'Read again');
    expect((await listed(admin, space.id))[0]!.target).toEqual(first!.target);
    await retitle(t, pageId, 'Setup');

    // An edit moves the head: the comment is re-anchored to the edited block on the next read.
    const http = withProxy('Configure the HTTP proxy in the settings file before the first run.');
    await edit(admin, space.id, [{ type: 'update_page', page: pageId, markdown: markdown(http) }]);
    const afterEdit = (await listed(admin, space.id))[0]!;
    expect(afterEdit.target.node).toEqual({ id: idOf(http, http[2]!), preview: http[2] });
    expect(afterEdit.target.page!.outdated).toBe(false);
    expect(afterEdit.target.page!.updatedAt).not.toBe(first!.target.page!.updatedAt);

    // The body, the status and the reactions are never cached: each shows on the next read.
    await admin.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath(space.id, comment.id), body: { body: { markdown: 'Which HTTP proxy?' }, resolved: true, addedReactions: ['👍'] } });
    const changed = (await listed(admin, space.id))[0]!;
    expect(changed.body).toEqual({ markdown: 'Which HTTP proxy?' });
    expect(changed.editedAt).toEqual(expect.any(String));
    expect(changed.status).toBe('resolved');
    expect(changed.reactions.map((reaction) => [reaction.emoji, reaction.count])).toEqual([['👍', 1]]);
    expect(changed.target).toEqual(afterEdit.target);

    // A merged change request moves the space's head: re-anchored again, and outdated once the text is gone.
    const socks = withProxy('Configure the SOCKS proxy in the settings file before the first run.');
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: pageId, markdown: markdown(socks) }]);
    await mergeCr(admin, space.id, cr.id);
    expect((await listed(admin, space.id))[0]!.target.node).toEqual({ id: idOf(socks, socks[2]!), preview: socks[2] });
    await edit(admin, space.id, [{ type: 'update_page', page: pageId, markdown: markdown([BODY[0]!, 'Something else entirely.']) }]);
    const gone = (await listed(admin, space.id))[0]!;
    expect(gone.target.page!.outdated).toBe(true);
    expect(gone.target.node).toEqual({ id: idOf(BODY, BODY[2]!), preview: BODY[2] });
  });

  it('re-anchors a change request’s comments on each of its new revisions', async () => {
    const t = server();
    const { admin, space, pageId } = await world(t);
    const cr = await createCr(admin, space.id);
    const path = { params: { path: { spaceId: space.id, changeRequestId: cr.id } } };
    const posted = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { ...path, body: { page: pageId, node: idOf(BODY, BODY[2]!), body: { markdown: 'Proxy?' } } });
    expect(posted.response.status).toBe(200);
    const list = async () => (await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', path)).data!.items[0]!.target;
    expect((await list()).node).toEqual({ id: idOf(BODY, BODY[2]!), preview: BODY[2] });
    for (const proxy of ['Configure the HTTP proxy in the settings file before the first run.', 'Configure the SOCKS proxy in the settings file before the first run.']) {
      const blocks = withProxy(proxy);
      await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: pageId, markdown: markdown(blocks) }]);
      expect((await list()).node).toEqual({ id: idOf(blocks, proxy), preview: proxy });
    }
  });

  it('does not keep, under the head a request read, pages read after an edit moved the head on', async () => {
    const t = server();
    const { admin, organization, space, pageId } = await world(t);
    await postComment(admin, space.id, { page: pageId, body: { markdown: 'On the page' } });
    // A list that read the space with head `read` (never resolved before), and its targets after a
    // later edit landed.
    await edit(admin, space.id, [{ type: 'update_page', page: pageId, title: 'Setup guide' }]);
    const read = (await t.db.selectFrom('spaces').select('headRevisionId').where('id', '=', space.id).executeTakeFirstOrThrow()).headRevisionId;
    await edit(admin, space.id, [{ type: 'update_page', page: pageId, title: 'Setup and first run' }]);
    const ctx: CommentContext = { organizationId: organization.id, spaceId: space.id, changeRequestId: null, headRevisionId: read };
    const rows = await commentsQuery(t.db, ctx, admin.user.id).execute();
    const title = async () => (await resolveTargets(t.context, ctx, rows)).get(rows[0]!.id)!.page!.title;
    expect(await title()).toBe('Setup and first run'); // what the materialised head holds now
    // Not cached under the older head: a second read of that head reads the rows again.
    await retitle(t, pageId, 'Read again');
    expect(await title()).toBe('Read again');
  });
});
