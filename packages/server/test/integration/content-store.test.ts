// The content store beneath the API: compare-and-swap on the head under concurrency, atomic failure,
// O(changed pages) writes, the head index staying equal to the head tree, persistence of chunked trees,
// transfer carrying the content, and the purge removing what a space owns.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { components } from '@content-workspace/sdk';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { type HttpError } from '../../src/errors.js';
import { applySpaceChanges } from '../../src/areas/content/space-content.service.js';
import { SYSTEM_ACTOR } from '../../src/areas/events/index.js';
import { spaceHeadPointer } from '../../src/content/space-head.js';
import { MAX_WRITE_ATTEMPTS, writeRevision } from '../../src/content/revision-writer.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { createOrganization, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { contentRowCounts, edit, pngBytes, type Change } from '../support/content.js';
import type { SpaceRow } from '../../src/access/standing.repository.js';

const server = useTestServer();

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization);
  return { admin, organization, space };
}

async function spaceRow(t: TestServer, id: string): Promise<SpaceRow> {
  return (await t.db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as SpaceRow;
}

async function pages(user: TestUser, spaceId: string) {
  return (await user.client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } })).data!.pages;
}

describe('compare-and-swap on the head', () => {
  it('applies concurrent batches one after the other: none is lost, history stays a line', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const titles = Array.from({ length: 8 }, (_, i) => `Concurrent ${i}`);
    const results = await Promise.allSettled(
      titles.map((title) => applySpaceChanges(t.context, space, admin.user.id, [{ type: 'insert_page', title }], { actor: SYSTEM_ACTOR })),
    );
    const applied = results.flatMap((result, i) => (result.status === 'fulfilled' ? [titles[i]!] : []));
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as HttpError).status).toBe(409);
    }
    expect(applied.length).toBeGreaterThan(0);
    expect((await pages(admin, space.id)).map((page) => page.title).sort()).toEqual(applied.sort());

    // Every revision's parent is the one before it, from the head back to the first.
    const revisions = await t.db.selectFrom('revisions').select(['id', 'parentIds']).where('spaceId', '=', space.id).execute();
    expect(revisions).toHaveLength(applied.length + 1);
    const byId = new Map(revisions.map((revision) => [revision.id, revision]));
    let chain = 0;
    for (let id: string | undefined = (await spaceRow(t, space.id)).headRevisionId; id; id = byId.get(id)?.parentIds[0]) chain++;
    expect(chain).toBe(revisions.length);
  });

  it('answers 409 and writes nothing when the head keeps moving', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const pointer = spaceHeadPointer(space);
    let swaps = 0;
    const losing = { ...pointer, swap: async () => void swaps++ };
    const before = await contentRowCounts(t.db);
    const attempt = writeRevision(t.context, losing, (base) => ({ state: base, nodes: { pages: [], files: [], reusables: [] }, documents: [], blobs: [] }), {
      type: 'edits',
      parsing: { pool: t.context.parsing },
      createdBy: admin.user.id,
    });
    await expect(attempt).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/retry/) });
    expect(swaps).toBe(MAX_WRITE_ATTEMPTS);
    expect(await contentRowCounts(t.db)).toEqual(before);
  });
});

describe('writes', () => {
  it('leave nothing behind when any change fails', async () => {
    const t = server();
    const { admin, space } = await world(t);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Taken', slug: 'taken' }]);
    const before = await contentRowCounts(t.db);
    const changes: Change[] = [
      { type: 'insert_page', title: 'New page', markdown: 'A new body' },
      { type: 'insert_file', name: 'new.png', base64: pngBytes(3, 3).toString('base64') },
      { type: 'upsert_reusable_content', title: 'New', markdown: 'Reusable' },
      { type: 'insert_page', title: 'Clash', slug: 'taken' },
    ];
    const { response } = await admin.client.POST('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } }, body: { changes } });
    expect(response.status).toBe(409);
    expect(await contentRowCounts(t.db)).toEqual(before);
  });

  it('cost O(changed pages): a one-page edit at depth d adds d tree nodes and one document', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const depth = 6;
    // A chain of `depth` pages, each with 20 siblings, so unchanged siblings are everywhere.
    const changes: Change[] = [];
    for (let level = 0; level < depth; level++) {
      changes.push({ type: 'insert_page', title: `Level ${level}`, ref: `l${level}`, ...(level > 0 ? { parent: { ref: `l${level - 1}` } } : {}) });
      for (let i = 0; i < 7; i++) changes.push({ type: 'insert_page', title: `Sibling ${level}.${i}`, ...(level > 0 ? { parent: { ref: `l${level - 1}` } } : {}), markdown: `Body ${level}.${i}` });
    }
    const { refs } = await edit(admin, space.id, changes);
    const before = await contentRowCounts(t.db);
    await edit(admin, space.id, [{ type: 'update_page', page: refs[`l${depth - 1}`]!, markdown: 'Edited deep down' }]);
    const after = await contentRowCounts(t.db);
    expect(after.treeNodes! - before.treeNodes!).toBeLessThanOrEqual(depth + 1);
    expect(after.treeNodes! - before.treeNodes!).toBe(depth);
    expect(after.documents! - before.documents!).toBe(1);
    expect(after.revisions! - before.revisions!).toBe(1);
    expect(after.spaceHeadPages).toBe(before.spaceHeadPages);
  });

  it('keep the head index equal to the head tree through moves, renames and deletes', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const { refs } = await edit(admin, space.id, [
      { type: 'insert_page', title: 'A', ref: 'a' },
      { type: 'insert_page', title: 'A1', parent: { ref: 'a' }, ref: 'a1' },
      { type: 'insert_page', title: 'A1x', parent: { ref: 'a1' }, ref: 'a1x' },
      { type: 'insert_page', title: 'B', ref: 'b' },
      { type: 'insert_page', title: 'C', ref: 'c' },
      { type: 'insert_file', name: 'one.txt', base64: 'b25l', ref: 'f1' },
    ]);
    await edit(admin, space.id, [
      { type: 'update_page', page: refs.a!, slug: 'alpha' },
      { type: 'update_page', page: refs.a1!, parent: refs.b!, index: 0 },
      { type: 'insert_page', title: 'First', index: 0 },
      { type: 'delete_page', page: refs.c! },
      { type: 'insert_file', name: 'two.txt', base64: 'dHdv' },
    ]);
    await edit(admin, space.id, [{ type: 'update_page', page: refs.b!, slug: 'beta', title: 'Beta' }]);

    type Page = components['schemas']['Page'];
    const expected: Array<Record<string, unknown>> = [];
    const flatten = (list: Page[], parent: string | null) =>
      list.forEach((page, position) => {
        expected.push({ pageId: page.id, parentPageId: parent, position, depth: page.path.split('/').length - 1, path: page.path, slug: page.slug, title: page.title });
        flatten(page.pages, page.id);
      });
    flatten(await pages(admin, space.id), null);
    const rows = await t.db
      .selectFrom('spaceHeadPages')
      .select(['pageId', 'parentPageId', 'position', 'depth', 'path', 'slug', 'title'])
      .where('spaceId', '=', space.id)
      .orderBy('path')
      .execute();
    expect(rows).toEqual(expected.sort((x, y) => String(x.path).localeCompare(String(y.path))));
    expect(rows.map((row) => row.path)).toContain('beta/a1/a1x');
    const files = await t.db.selectFrom('spaceHeadFiles').select(['name']).where('spaceId', '=', space.id).orderBy('name').execute();
    expect(files).toEqual([{ name: 'one.txt' }, { name: 'two.txt' }]);
  });

  it('store long sibling lists in chunks that read back from the database', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const count = 600;
    for (let start = 0; start < count; start += 50) {
      await edit(admin, space.id, Array.from({ length: 50 }, (_, i): Change => ({ type: 'insert_page', title: `Page ${String(start + i).padStart(3, '0')}` })));
    }
    t.context.caches.trees.clear();
    const listed = await pages(admin, space.id);
    expect(listed.map((page) => page.title)).toEqual(Array.from({ length: count }, (_, i) => `Page ${String(i).padStart(3, '0')}`));
    const before = await contentRowCounts(t.db);
    await edit(admin, space.id, [{ type: 'update_page', page: listed[300]!.id, title: 'Edited' }]);
    const after = await contentRowCounts(t.db);
    // One chunk and the list of chunks, not the 600 entries again.
    expect(after.treeNodes! - before.treeNodes!).toBe(2);
    t.context.caches.trees.clear();
    expect((await pages(admin, space.id))[300]!.title).toBe('Edited');
  });
});

describe('lifecycle', () => {
  it('transfer carries the content to the other organization', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const target = await createOrganization(t, admin);
    const first = await edit(admin, space.id, [
      { type: 'insert_page', title: 'Home', ref: 'home', markdown: 'Welcome home' },
      { type: 'insert_file', name: 'logo.png', base64: pngBytes(5, 6).toString('base64'), ref: 'logo' },
      { type: 'upsert_reusable_content', title: 'Snippet', markdown: 'Shared text' },
    ]);
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Later', parent: first.refs.home! }]);
    const read = async () => (await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId: space.id } } })).data!;
    const before = await read();

    const { response } = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: space.id } }, body: { organization: target.id } });
    expect(response.status).toBe(200);
    t.context.caches.trees.clear();
    expect(await read()).toEqual(before);
    const old = await admin.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: { spaceId: space.id, revisionId: first.revision } } });
    expect(old.data?.pages.map((page) => page.pages.length)).toEqual([0]);
    const home = await admin.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: { spaceId: space.id, pagePath: 'home' } } });
    expect(home.data?.markdown).toBe('Welcome home\n');
    const download = await fetch(before.files[0]!.downloadURL.replace('http://api.test', t.url));
    expect(Buffer.from(await download.arrayBuffer()).equals(pngBytes(5, 6))).toBe(true);
    for (const table of ['spaceHeadPages', 'spaceHeadFiles', 'revisions'] as const) {
      const owners = await t.db.selectFrom(table).select('organizationId').distinct().where('spaceId', '=', space.id).execute();
      expect(owners).toEqual([{ organizationId: target.id }]);
    }
    for (const table of ['treeNodes', 'documents', 'fileNodes', 'reusableNodes', 'fileBlobs', 'blobBytes'] as const) {
      const copied = await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('count')).where('organizationId', '=', target.id).executeTakeFirstOrThrow();
      expect(Number(copied.count), table).toBeGreaterThan(0);
    }
  });

  it('the purge removes the rows a space owns and leaves shared content objects', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    await edit(admin, space.id, [
      { type: 'insert_page', title: 'Doomed', markdown: 'Shared body' },
      { type: 'insert_file', name: 'f.txt', base64: 'Zg==' },
    ]);
    const keeper = await createSpace(t, admin, organization);
    await edit(admin, keeper.id, [{ type: 'insert_page', title: 'Kept', markdown: 'Shared body' }]);
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    await t.db.updateTable('spaces').set({ deletedAt: sql<Date>`now() - interval '8 days'` }).where('id', '=', space.id).execute();

    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    for (const table of ['revisions', 'spaceHeadPages', 'spaceHeadFiles'] as const) {
      expect(await t.db.selectFrom(table).select('spaceId').where('spaceId', '=', space.id).execute(), table).toEqual([]);
    }
    const kept = await admin.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: { spaceId: keeper.id, pagePath: 'kept' } } });
    expect(kept.data?.markdown).toBe('Shared body\n');
    expect(await t.db.selectFrom('blobBytes').select('sha256').where('organizationId', '=', organization.id).execute()).toHaveLength(1);
  });
});
