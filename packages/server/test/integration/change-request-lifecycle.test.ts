// Change requests follow their space: transferred to another organization with it, hidden while it is
// deleted (collection delete included), purged with it.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { addMember, createCollection, createOrganizationWithAdmin, createSpace } from '../support/factories.js';
import { counters, createCr, crPath, editCr, mergeCr } from '../support/change-requests.js';
import { edit } from '../support/content.js';

const server = useTestServer();

/** A space with a merged request (with a recorded conflict), an open one with content, and an archived one. */
async function spaceWithRequests(t: TestServer, options: { inCollection?: boolean } = {}) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const collection = options.inCollection ? await createCollection(t, admin, organization) : undefined;
  const space = await createSpace(t, admin, organization, collection ? { parent: collection } : {});
  const { refs } = await edit(admin, space.id, [{ type: 'insert_page', title: 'Page', ref: 'p', markdown: 'one\ntwo' }]);
  const merged = await createCr(admin, space.id, { subject: 'Merged' });
  await editCr(admin, space.id, merged.id, [{ type: 'update_page', page: refs.p!, markdown: 'one\nTWO (request)' }]);
  await edit(admin, space.id, [{ type: 'update_page', page: refs.p!, markdown: 'one\nTWO (primary)' }]);
  const mergeResult = await mergeCr(admin, space.id, merged.id);
  const open = await createCr(admin, space.id, { subject: 'Open' });
  const written = await editCr(admin, space.id, open.id, [{ type: 'insert_page', title: 'Proposed', markdown: 'New' }]);
  const archived = await createCr(admin, space.id, { subject: 'Archived' });
  await admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath(space.id, archived.id), body: { status: 'archived' } });
  return { admin, organization, collection, space, merged, mergeResult, open, written, archived };
}

async function rowsIn(t: TestServer, organizationId: string, spaceId: string) {
  const n = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(t.db)).rows[0]!.n;
  return {
    changeRequests: await n(sql`SELECT count(*)::int AS n FROM change_requests WHERE organization_id = ${organizationId} AND space_id = ${spaceId}`),
    contributors: await n(sql`SELECT count(*)::int AS n FROM change_request_contributors c JOIN change_requests cr ON cr.organization_id = c.organization_id AND cr.id = c.change_request_id WHERE c.organization_id = ${organizationId} AND cr.space_id = ${spaceId}`),
    conflicts: await n(sql`SELECT count(*)::int AS n FROM revision_conflicts rc JOIN revisions r ON r.organization_id = rc.organization_id AND r.id = rc.revision_id WHERE rc.organization_id = ${organizationId} AND r.space_id = ${spaceId}`),
    requestRevisions: await n(sql`SELECT count(*)::int AS n FROM revisions WHERE organization_id = ${organizationId} AND space_id = ${spaceId} AND change_request_id IS NOT NULL`),
  };
}

describe('change requests and the space lifecycle', () => {
  it('a transfer to another organization carries the requests, their revisions, contributors and conflicts', async () => {
    const t = server();
    const { admin, organization, space, merged, mergeResult, open, written } = await spaceWithRequests(t);
    const expected = { changeRequests: 3, contributors: 2, conflicts: 1, requestRevisions: 2 };
    expect(await rowsIn(t, organization.id, space.id)).toEqual(expected);
    const { organization: target } = await createOrganizationWithAdmin(t);
    await addMember(t, target, admin, 'admin');
    const moved = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.id } });
    expect(moved.response.status).toBe(200);
    expect(await rowsIn(t, organization.id, space.id)).toEqual({ changeRequests: 0, contributors: 0, conflicts: 0, requestRevisions: 0 });
    expect(await rowsIn(t, target.id, space.id)).toEqual(expected);

    expect(await counters(admin, space.id)).toEqual({ changeRequests: 3, open: 1, draft: 0 });
    const { data: read } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, merged.id));
    expect(read).toMatchObject({ status: 'merged', revisionMerged: mergeResult.revision, subject: 'Merged' });
    const { data: pages } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', crPath(space.id, open.id));
    expect(pages!.pages.map((page) => page.title)).toEqual(['Page', 'Proposed']);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: space.id }, query: { contributor: admin.user.id } } })).data!.count).toBe(1);
    // The requests keep working there: the open one merges into the moved space.
    const result = await mergeCr(admin, space.id, open.id);
    expect(result.result).toBe('merge');
    const { data: content } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } });
    expect(content).toMatchObject({ type: 'merge', parents: [mergeResult.revision, written.revision] });
  });

  it('a deleted space (a deleted collection’s included) hides its requests until restored; the purge removes them', async () => {
    const t = server();
    const { admin, organization, collection, space, open } = await spaceWithRequests(t, { inCollection: true });
    expect((await admin.client.DELETE('/v1/collections/{collectionId}', { params: { path: { collectionId: collection!.id } } })).response.status).toBe(205);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, open.id))).response.status).toBe(404);
    expect((await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', crPath(space.id, open.id))).response.status).toBe(404);
    expect((await admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: space.id } } })).response.status).toBe(200);
    expect((await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', crPath(space.id, open.id))).data).toMatchObject({ status: 'open' });

    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    await sql`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ${space.id}`.execute(t.db);
    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    expect(await rowsIn(t, organization.id, space.id)).toEqual({ changeRequests: 0, contributors: 0, conflicts: 0, requestRevisions: 0 });
  });
});
