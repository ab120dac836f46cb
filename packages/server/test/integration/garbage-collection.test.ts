// Garbage collection of content objects: a purge or a transfer out marks the organization; the
// collection deletes exactly the objects no remaining revision reaches (deleted-but-restorable spaces
// and change requests included), leaves every other organization alone, and never races a writer.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { lockContentObjects } from '../../src/content/content-objects.repository.js';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { collectContentGarbage, collectMarkedGarbage } from '../../src/content/garbage-collection.js';
import { reachableContent } from '../../src/content/reachability.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createOrganization, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { createCr, editCr } from '../support/change-requests.js';
import { edit, pngBytes } from '../support/content.js';

const server = useTestServer();

const OBJECT_TABLES = { treeNodes: 'hash', fileNodes: 'hash', reusableNodes: 'hash', documents: 'hash', fileBlobs: 'sha256', blobBytes: 'sha256' } as const;
type StoredTable = keyof typeof OBJECT_TABLES;

/** The organization's stored object hashes (hex), by table, sorted. */
async function stored(t: TestServer, organizationId: string): Promise<Record<StoredTable, string[]>> {
  const result = {} as Record<StoredTable, string[]>;
  for (const [table, key] of Object.entries(OBJECT_TABLES) as Array<[StoredTable, string]>) {
    const { rows } = await sql<{ hash: string }>`
      SELECT encode(${sql.ref(key)}, 'hex') AS hash FROM ${sql.table(table.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))}
      WHERE organization_id = ${organizationId} ORDER BY 1`.execute(t.db);
    result[table] = rows.map((row) => row.hash);
  }
  return result;
}

/** What the organization's remaining revisions reach, in the same shape as `stored`. */
async function reached(t: TestServer, organizationId: string): Promise<Record<StoredTable, string[]>> {
  const reach = await reachableContent(t.db, { organizationId });
  const sorted = (hashes: Set<string>) => [...hashes].sort();
  return {
    treeNodes: sorted(reach.treeNodes),
    fileNodes: sorted(reach.fileNodes),
    reusableNodes: sorted(reach.reusableNodes),
    documents: sorted(reach.documents),
    fileBlobs: sorted(reach.blobs),
    blobBytes: sorted(reach.blobs),
  };
}

async function marks(t: TestServer): Promise<string[]> {
  return (await t.db.selectFrom('contentGarbageMarks').select('organizationId').execute()).map((row) => row.organizationId);
}

const backdateDeletion = (t: TestServer, spaceId: string, days: number) =>
  sql`UPDATE spaces SET deleted_at = now() - make_interval(days => ${days}) WHERE id = ${spaceId}`.execute(t.db);

const markdownAt = async (user: TestUser, spaceId: string, pagePath: string) =>
  (await user.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: { spaceId, pagePath } } })).data?.markdown;

/** An organization with a space to purge, and others whose content shares some of its objects. */
/** Empties what the server keeps of content by hash or id, so the next reads come from the database. */
function clearContentCaches(t: TestServer): void {
  for (const cache of [t.context.caches.trees, t.context.caches.documentBodies, t.context.caches.revisions]) cache.clear();
}

async function organizationWithGarbage(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const doomed = await createSpace(t, admin, organization);
  await edit(admin, doomed.id, [
    { type: 'insert_page', title: 'Only here', markdown: 'A body nobody else has' },
    { type: 'insert_page', title: 'Shared', markdown: 'Shared body' },
    { type: 'insert_file', name: 'shared.png', base64: pngBytes(1, 1).toString('base64') },
    { type: 'insert_file', name: 'own.png', base64: pngBytes(2, 2).toString('base64') },
    { type: 'upsert_reusable_content', title: 'Own snippet', markdown: 'Snippet nobody else has' },
  ]);
  await edit(admin, doomed.id, [{ type: 'insert_page', title: 'Later', markdown: 'Written in a second revision' }]);

  const keeper = await createSpace(t, admin, organization);
  await edit(admin, keeper.id, [
    { type: 'insert_page', title: 'Kept', markdown: 'Shared body' },
    { type: 'insert_file', name: 'shared.png', base64: pngBytes(1, 1).toString('base64') },
  ]);
  // A change request's own content counts as reachable too.
  const changeRequest = await createCr(admin, keeper.id);
  await editCr(admin, keeper.id, changeRequest.id, [{ type: 'insert_page', title: 'Proposed', markdown: 'Only in a change request' }]);
  // A space deleted 6 days ago can still be restored: its content must survive.
  const restorable = await createSpace(t, admin, organization);
  await edit(admin, restorable.id, [{ type: 'insert_page', title: 'Restorable', markdown: 'Still restorable' }]);
  await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: restorable.id } } });
  await backdateDeletion(t, restorable.id, 6);

  await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: doomed.id } } });
  await backdateDeletion(t, doomed.id, 8);
  return { admin, organization, doomed, keeper, changeRequest, restorable };
}

describe('garbage collection of content objects', () => {
  it('a purge marks the organization; collection deletes exactly what no remaining revision reaches', async () => {
    const t = server();
    const { admin, organization, keeper, changeRequest, restorable } = await organizationWithGarbage(t);
    const bystander = await createOrganizationWithAdmin(t);
    const bystanderSpace = await createSpace(t, bystander.admin, bystander.organization);
    await edit(bystander.admin, bystanderSpace.id, [{ type: 'insert_page', title: 'Elsewhere', markdown: 'A body nobody else has' }]);
    const bystanderBefore = await stored(t, bystander.organization.id);

    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    expect(await marks(t)).toEqual([organization.id]);
    const before = await stored(t, organization.id);
    const keep = await reached(t, organization.id);
    for (const table of Object.keys(OBJECT_TABLES) as StoredTable[]) {
      expect(keep[table].every((hash) => before[table].includes(hash)), table).toBe(true);
    }
    // The purged space had objects of every kind of its own.
    for (const table of ['treeNodes', 'fileNodes', 'reusableNodes', 'documents', 'fileBlobs', 'blobBytes'] as const) {
      expect(before[table].length, table).toBeGreaterThan(keep[table].length);
    }

    expect(await collectMarkedGarbage(t.db, t.context.blobs)).toBe(1);
    expect(await stored(t, organization.id)).toEqual(keep);
    expect(await marks(t)).toEqual([]);
    expect(await stored(t, bystander.organization.id)).toEqual(bystanderBefore);

    // What remains reads whole, from the database rather than the process's tree, body and revision caches.
    clearContentCaches(t);
    expect(await markdownAt(admin, keeper.id, 'kept')).toBe('Shared body\n');
    const files = (await admin.client.GET('/v1/spaces/{spaceId}/content/files', { params: { path: { spaceId: keeper.id } } })).data!.items;
    const download = await fetch(files[0]!.downloadURL.replace('http://api.test', t.url));
    expect(Buffer.from(await download.arrayBuffer()).equals(pngBytes(1, 1))).toBe(true);
    const proposed = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', {
      params: { path: { spaceId: keeper.id, changeRequestId: changeRequest.id } },
    });
    expect(proposed.data?.pages.map((page) => page.title)).toEqual(['Kept', 'Proposed']);
    expect((await admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: restorable.id } } })).response.status).toBe(200);
    expect(await markdownAt(admin, restorable.id, 'restorable')).toBe('Still restorable\n');

    // Nothing left to collect: a second pass deletes nothing.
    expect(await collectContentGarbage(t.db, t.context.blobs, organization.id)).toEqual({ treeNodes: 0, fileNodes: 0, reusableNodes: 0, documents: 0, fileBlobs: 0 });
  });

  it('a transfer out marks the source, whose copies collection then removes; the target keeps the content', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const target = await createOrganization(t, admin);
    const space = await createSpace(t, admin, organization);
    await edit(admin, space.id, [
      { type: 'insert_page', title: 'Travels', markdown: 'Moves with the space' },
      { type: 'insert_file', name: 'logo.png', base64: pngBytes(3, 4).toString('base64') },
      { type: 'upsert_reusable_content', title: 'Snippet', markdown: 'Travels too' },
    ]);
    const { response } = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.id } });
    expect(response.status).toBe(200);
    expect(await marks(t)).toEqual([organization.id]);
    const targetBefore = await stored(t, target.id);

    await collectMarkedGarbage(t.db, t.context.blobs);
    expect(await stored(t, organization.id)).toEqual({ treeNodes: [], fileNodes: [], reusableNodes: [], documents: [], fileBlobs: [], blobBytes: [] });
    expect(await stored(t, target.id)).toEqual(targetBefore);
    clearContentCaches(t);
    expect(await markdownAt(admin, space.id, 'travels')).toBe('Moves with the space\n');
  });

  it('a walk continued after new writes reaches what a fresh walk reaches', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Before', markdown: 'Written before the walk' }]);
    const walked = await reachableContent(t.db, { organizationId: organization.id });
    // Written while the collection walks without the lock.
    await edit(admin, space.id, [
      { type: 'insert_page', title: 'During', markdown: 'Written during the walk' },
      { type: 'insert_file', name: 'during.png', base64: pngBytes(5, 5).toString('base64') },
      { type: 'upsert_reusable_content', title: 'During', markdown: 'Also during' },
    ]);
    const continued = await reachableContent(t.db, { organizationId: organization.id }, walked);
    const fresh = await reachableContent(t.db, { organizationId: organization.id });
    expect(continued).toEqual(fresh);
    expect(fresh.documents.size).toBeGreaterThan(walked.documents.size);
    expect(fresh.blobs.size).toBe(1);
  });

  it('a writer waits while a collection holds the organization, then stores its objects', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    let written: Promise<unknown> | undefined;
    let settled = false;
    await t.db.transaction().execute(async (trx) => {
      await lockContentObjects(trx, organization.id, 'exclusive');
      written = edit(admin, space.id, [{ type: 'insert_page', title: 'Waited', markdown: 'Stored after the sweep' }]).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(settled).toBe(false);
    });
    await written;
    expect(await markdownAt(admin, space.id, 'waited')).toBe('Stored after the sweep\n');
  });
});
