// Events: the list and one event (access, filters, pagination), each event type produced by its
// operation with the resource as the API returns it, and nothing recorded by a change that rolls back.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { components } from '@content-workspace/contract';
import { useTestServer } from '../support/harness.js';
import { addMember, createCollection, createMember, createOrganizationWithAdmin, createSpace, createTeam, createUser, type TestUser } from '../support/factories.js';
import { expectedUser } from '../support/people.js';
import { createSite, sitePath } from '../support/sites.js';
import { zip } from '../support/zip.js';
import { processSpec } from '../../src/areas/openapi-specs/openapi-specs.service.js';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { writeResults } from '../../src/areas/webhooks/delivery-worker.js';
import { expectRefusal } from '../support/refusals.js';

type ApiEvent = components['schemas']['Event'];
type EventType = ApiEvent['type'];

const server = useTestServer();
const CATALOGUE: EventType[] = JSON.parse(readFileSync(new URL('../../../contract/openapi.json', import.meta.url), 'utf8')).components.schemas.EventType.enum;
/** Every type a test of this file saw produced (the last test checks the catalogue is covered). */
const produced = new Set<EventType>();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const spacePath = (spaceId: string) => ({ params: { path: { spaceId } } });

async function listEvents(who: TestUser, organizationId: string, query: Record<string, unknown> = {}) {
  const { data, error, response } = await who.client.GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId }, query } });
  if (!data) throw new Error(`listEvents: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/** The events recorded since `since` (an event id list before the operation), oldest first. */
async function eventsAfter(who: TestUser, organizationId: string, before: Set<string>) {
  const { items } = await listEvents(who, organizationId, { limit: 1000 });
  const added = items.filter((event) => !before.has(event.id)).reverse();
  for (const event of added) produced.add(event.type);
  return added;
}

/** Runs `operation` and answers the events it recorded, oldest first. */
async function recordedBy(who: TestUser, organizationId: string, operation: () => Promise<unknown>) {
  const before = new Set((await listEvents(who, organizationId, { limit: 1000 })).items.map((event) => event.id));
  await operation();
  return eventsAfter(who, organizationId, before);
}

const actor = (who: TestUser) => ({ type: 'user', user: expectedUser(who), token: expect.any(String) });

function expected(type: EventType, organizationId: string, who: TestUser | 'system', data: unknown, spaceId?: string) {
  return {
    object: 'event',
    id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
    type,
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    organization: organizationId,
    ...(spaceId ? { space: spaceId } : {}),
    actor: who === 'system' ? { type: 'system' } : actor(who),
    data,
  };
}

async function getSpace(who: TestUser, spaceId: string) {
  return (await who.client.GET('/v1/spaces/{spaceId}', spacePath(spaceId))).data!;
}

async function getCollection(who: TestUser, collectionId: string) {
  return (await who.client.GET('/v1/collections/{collectionId}', { params: { path: { collectionId } } })).data!;
}

describe('GET /v1/orgs/{organizationId}/events', () => {
  it('400 for an unknown type, a malformed time or space', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    for (const query of [{ type: ['space.exploded'] }, { since: 'yesterday' }, { until: '2026-13-01T00:00:00Z' }, { space: 'a b' }]) {
      const { response, error } = await admin.client.GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId: organization.id }, query: query as never } });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(error?.error.issues?.[0]?.path).toMatch(/^\/query/);
    }
  });

  // A non-member's 404 and the 403 below admin are the sweep's and the matrix's.
  it("404 for another organization's event asked under one's own", async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const other = await createOrganizationWithAdmin(t);
    await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: 'Mine' } });
    const [event] = (await listEvents(admin, organization.id)).items;
    const crossed = await other.admin.client.GET('/v1/orgs/{organizationId}/events/{eventId}', { params: { path: { organizationId: other.organization.id, eventId: event!.id } } });
    expectRefusal(crossed, 404, 'Event not found');
  });

  it('lists newest first, pages with the cursor, filters by type, space and time; one event reads as listed', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { data } = await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(organization.id), body: { title: `Space ${i}` } });
      created.push(data!.id);
    }
    await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(created[0]!), body: { title: 'Renamed' } });
    // Distinct times, so newest first is a fact of the data and not of ids.
    await sql`UPDATE events SET created_at = created_at + random() * interval '1 second' WHERE organization_id = ${organization.id}`.execute(t.db);
    const all = await listEvents(admin, organization.id);
    expect(all.count).toBe(6);
    const times = all.items.map((event) => event.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    const first = await listEvents(admin, organization.id, { limit: 4 });
    const second = await listEvents(admin, organization.id, { limit: 4, page: first.next!.page });
    expect([...first.items, ...second.items].map((event) => event.id)).toEqual(all.items.map((event) => event.id));
    expect(second.next).toBeUndefined();

    const updates = await listEvents(admin, organization.id, { type: ['space.updated'] });
    expect(updates.items.map((event) => event.type)).toEqual(['space.updated']);
    const ofSpace = await listEvents(admin, organization.id, { space: created[0] });
    expect(ofSpace.items.map((event) => event.type).sort()).toEqual(['space.created', 'space.updated']);
    const middle = all.items[2]!.createdAt;
    const since = await listEvents(admin, organization.id, { since: middle });
    const until = await listEvents(admin, organization.id, { until: middle });
    expect(since.count + until.count).toBe(6);
    expect(since.items.every((event) => event.createdAt >= middle) && until.items.every((event) => event.createdAt < middle)).toBe(true);
    // A cursor belongs to its filters.
    expect((await admin.client.GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId: organization.id }, query: { limit: 4, page: first.next!.page, type: ['space.created'] } } })).response.status).toBe(400);

    const one = await admin.client.GET('/v1/orgs/{organizationId}/events/{eventId}', { params: { path: { organizationId: organization.id, eventId: all.items[0]!.id } } });
    expect(one.data).toEqual(all.items[0]);
  });
});

describe('each change records its event in its own transaction', () => {
  it('organization.created and organization.updated, with the organization as the API answers it', async () => {
    const t = server();
    const creator = await createUser(t);
    const { data: organization } = await creator.client.POST('/v1/orgs', { body: { title: 'Events inc.' } });
    const events = await eventsAfter(creator, organization!.id, new Set());
    expect(events).toEqual([expected('organization.created', organization!.id, creator, { object: organization })]);
    const updated = await recordedBy(creator, organization!.id, () => creator.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization!.id), body: { title: 'Renamed inc.' } }));
    const read = (await creator.client.GET('/v1/orgs/{organizationId}', orgPath(organization!.id))).data;
    expect(updated).toEqual([expected('organization.updated', organization!.id, creator, { object: read })]);
    // A patch that changes nothing is no event.
    expect(await recordedBy(creator, organization!.id, () => creator.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(organization!.id), body: {} }))).toEqual([]);
  });

  it('collections: created, updated, moved, transferred (in both organizations, with its spaces), deleted (with its spaces)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    let collectionId = '';
    const created = await recordedBy(admin, org, async () => {
      collectionId = (await admin.client.POST('/v1/orgs/{organizationId}/collections', { ...orgPath(org), body: { title: 'Guides' } })).data!.id;
    });
    expect(created).toEqual([expected('collection.created', org, admin, { object: await getCollection(admin, collectionId) })]);
    const updated = await recordedBy(admin, org, () => admin.client.PATCH('/v1/collections/{collectionId}', { params: { path: { collectionId } }, body: { description: 'How-tos' } }));
    expect(updated).toEqual([expected('collection.updated', org, admin, { object: await getCollection(admin, collectionId) })]);
    const parent = await createCollection(t, admin, organization);
    const moved = await recordedBy(admin, org, () => admin.client.POST('/v1/collections/{collectionId}/move', { params: { path: { collectionId } }, body: { parent: parent.id } }));
    expect(moved).toEqual([expected('collection.moved', org, admin, { object: await getCollection(admin, collectionId) })]);
    const back = await recordedBy(admin, org, () => admin.client.POST('/v1/collections/{collectionId}/move', { params: { path: { collectionId } }, body: { parent: null } }));
    expect(back[0]!.data).toMatchObject({ previousParent: parent.id });

    const inside = await createSpace(t, admin, organization, { parent: { id: collectionId } });
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, admin, 'admin');
    const transferred = await recordedBy(admin, org, () => admin.client.POST('/v1/collections/{collectionId}/transfer', { params: { path: { collectionId } }, body: { organization: target.organization.id } }));
    const moveData = { from: org, to: target.organization.id };
    const collectionThere = await getCollection(admin, collectionId);
    const spaceThere = await getSpace(admin, inside.id);
    expect(transferred).toEqual([
      expected('collection.transferred', org, admin, { object: collectionThere, ...moveData }),
      expected('space.transferred', org, admin, { object: spaceThere, ...moveData }, inside.id),
    ]);
    const there = (await listEvents(admin, target.organization.id)).items;
    expect(there.map((event) => event.type).sort()).toEqual(['collection.transferred', 'space.transferred']);

    // Deleted where it now is: with the space inside, restorable, which has its own event.
    const deleted = await recordedBy(admin, target.organization.id, () => admin.client.DELETE('/v1/collections/{collectionId}', { params: { path: { collectionId } } }));
    const { data: restorable } = await admin.client.POST('/v1/spaces/{spaceId}/restore', spacePath(inside.id));
    expect(deleted).toEqual([
      expected('collection.deleted', target.organization.id, admin, { object: collectionThere }),
      expected('space.deleted', target.organization.id, admin, { object: { ...spaceThere, deletedAt: expect.any(String), updatedAt: expect.any(String) } }, inside.id),
    ]);
    expect(restorable?.id).toBe(inside.id);
  });

  it('spaces: created, duplicated, updated, moved, deleted, restored, transferred', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    let spaceId = '';
    const created = await recordedBy(admin, org, async () => {
      spaceId = (await admin.client.POST('/v1/orgs/{organizationId}/spaces', { ...orgPath(org), body: { title: 'Handbook' } })).data!.id;
    });
    expect(created).toEqual([expected('space.created', org, admin, { object: await getSpace(admin, spaceId) }, spaceId)]);
    let copyId = '';
    const duplicated = await recordedBy(admin, org, async () => {
      copyId = (await admin.client.POST('/v1/spaces/{spaceId}/duplicate', spacePath(spaceId))).data!.id;
    });
    expect(duplicated).toEqual([expected('space.created', org, admin, { object: await getSpace(admin, copyId), duplicatedFrom: spaceId }, copyId)]);
    const updated = await recordedBy(admin, org, () => admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(spaceId), body: { emoji: '📘' } }));
    expect(updated).toEqual([expected('space.updated', org, admin, { object: await getSpace(admin, spaceId) }, spaceId)]);
    const collection = await createCollection(t, admin, organization);
    const moved = await recordedBy(admin, org, () => admin.client.POST('/v1/spaces/{spaceId}/move', { ...spacePath(spaceId), body: { parent: collection.id } }));
    expect(moved).toEqual([expected('space.moved', org, admin, { object: await getSpace(admin, spaceId) }, spaceId)]);
    const deleted = await recordedBy(admin, org, () => admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(spaceId)));
    expect(deleted).toEqual([expected('space.deleted', org, admin, { object: expect.objectContaining({ id: spaceId, deletedAt: expect.any(String) }) }, spaceId)]);
    let restoredBody: unknown;
    const restored = await recordedBy(admin, org, async () => {
      restoredBody = (await admin.client.POST('/v1/spaces/{spaceId}/restore', spacePath(spaceId))).data;
    });
    expect(restored).toEqual([expected('space.restored', org, admin, { object: restoredBody }, spaceId)]);
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, admin, 'admin');
    const transferred = await recordedBy(admin, org, () => admin.client.POST('/v1/spaces/{spaceId}/transfer', { ...spacePath(spaceId), body: { organization: target.organization.id } }));
    const data = { object: await getSpace(admin, spaceId), from: org, to: target.organization.id };
    expect(transferred).toEqual([expected('space.transferred', org, admin, data, spaceId)]);
    expect((await listEvents(admin, target.organization.id)).items).toEqual([expected('space.transferred', target.organization.id, admin, data, spaceId)]);
  });

  it('space.content-updated: the new revision and the pages it added, edited, moved and removed', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization);
    const apply = (changes: unknown[]) => admin.client.POST('/v1/spaces/{spaceId}/content', { ...spacePath(space.id), body: { changes: changes as never } });
    let refs: Record<string, string> = {};
    let revision = '';
    const added = await recordedBy(admin, organization.id, async () => {
      const { data } = await apply([
        { type: 'insert_page', title: 'Guide', slug: 'guide', ref: 'guide' },
        { type: 'insert_page', title: 'Install', slug: 'install', parent: { ref: 'guide' }, ref: 'install', markdown: 'Run it.' },
        { type: 'insert_page', title: 'FAQ', slug: 'faq', ref: 'faq' },
      ]);
      refs = data!.refs;
      revision = data!.revision;
    });
    const page = (id: string, title: string, path: string) => ({ id, title, path });
    expect(added).toEqual([
      expected(
        'space.content-updated',
        organization.id,
        admin,
        {
          revision,
          previousRevision: space.headRevisionId,
          revisionType: 'edits',
          pages: {
            added: expect.arrayContaining([page(refs.guide!, 'Guide', 'guide'), page(refs.install!, 'Install', 'guide/install'), page(refs.faq!, 'FAQ', 'faq')]),
            edited: [],
            moved: [],
            removed: [],
          },
          truncated: false,
          urls: { revision: `http://api.test/v1/spaces/${space.id}/revisions/${revision}`, space: `http://api.test/v1/spaces/${space.id}` },
        },
        space.id,
      ),
    ]);
    expect((added[0]!.data as { pages: { added: unknown[] } }).pages.added).toHaveLength(3);
    const [edited] = await recordedBy(admin, organization.id, () => apply([{ type: 'update_page', page: refs.faq!, markdown: 'Answers.' }, { type: 'update_page', page: refs.install!, parent: null, index: 0 }]));
    expect((edited!.data as { pages: unknown }).pages).toEqual({ added: [], edited: [page(refs.faq!, 'FAQ', 'faq')], moved: [page(refs.install!, 'Install', 'install')], removed: [] });
    // Placed first among the same siblings: only the page placed is listed as moved.
    const [reordered] = await recordedBy(admin, organization.id, () => apply([{ type: 'update_page', page: refs.faq!, index: 0 }]));
    expect((reordered!.data as { pages: unknown }).pages).toEqual({ added: [], edited: [], moved: [page(refs.faq!, 'FAQ', 'faq')], removed: [] });
    // A page removed with its subpages: both listed, as they were.
    await apply([{ type: 'update_page', page: refs.install!, parent: refs.guide!, index: 0 }]);
    const [removed] = await recordedBy(admin, organization.id, () => apply([{ type: 'delete_page', page: refs.guide! }]));
    expect((removed!.data as { pages: { removed: unknown[] } }).pages.removed).toEqual(expect.arrayContaining([page(refs.guide!, 'Guide', 'guide'), page(refs.install!, 'Install', 'guide/install')]));
  });

  it('change requests: opened, updated (subject, content, update from the space), review requested, closed, reopened, merged with the content event', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    const space = await createSpace(t, admin, organization);
    const read = async (id: string) => (await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path: { spaceId: space.id, changeRequestId: id } } })).data!;
    let id = '';
    const opened = await recordedBy(admin, org, async () => {
      id = (await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { ...spacePath(space.id), body: { subject: 'Draft' } })).data!.id;
    });
    expect(opened).toEqual([expected('change-request.opened', org, admin, { object: await read(id) }, space.id)]);
    const crPath = { params: { path: { spaceId: space.id, changeRequestId: id } } };
    const patch = (body: { subject?: string; status?: 'draft' | 'open' | 'archived' }) => admin.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...crPath, body });
    const toDraft = await recordedBy(admin, org, () => patch({ status: 'draft', subject: 'Ready soon' }));
    expect(toDraft).toEqual([expected('change-request.updated', org, admin, { object: await read(id), previousStatus: 'open' }, space.id)]);
    const review = await recordedBy(admin, org, () => patch({ status: 'open' }));
    expect(review).toEqual([expected('change-request.review-requested', org, admin, { object: await read(id), previousStatus: 'draft' }, space.id)]);
    expect((await recordedBy(admin, org, () => patch({ status: 'archived' }))).map((event) => [event.type, (event.data as { previousStatus?: string }).previousStatus])).toEqual([['change-request.closed', 'open']]);
    expect((await recordedBy(admin, org, () => patch({ status: 'open', subject: 'Back' }))).map((event) => event.type)).toEqual(['change-request.reopened', 'change-request.updated']);

    const edited = await recordedBy(admin, org, () =>
      admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', { ...crPath, body: { changes: [{ type: 'insert_page', title: 'Proposed', slug: 'proposed' }] } }),
    );
    expect(edited).toEqual([expected('change-request.updated', org, admin, { object: await read(id) }, space.id)]);
    await admin.client.POST('/v1/spaces/{spaceId}/content', { ...spacePath(space.id), body: { changes: [{ type: 'insert_page', title: 'Meanwhile', slug: 'meanwhile' }] } });
    const pulled = await recordedBy(admin, org, () => admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update', crPath));
    expect(pulled).toEqual([expected('change-request.updated', org, admin, { object: await read(id) }, space.id)]);

    let merge: { revision: string } | undefined;
    const merged = await recordedBy(admin, org, async () => {
      merge = (await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', crPath)).data;
    });
    expect(merged.map((event) => event.type)).toEqual(['space.content-updated', 'change-request.merged']);
    expect(merged[0]!.data).toMatchObject({ revision: merge!.revision, revisionType: 'merge', changeRequest: id, pages: { added: [expect.objectContaining({ title: 'Proposed', path: 'proposed' })] } });
    expect(merged[1]).toEqual(expected('change-request.merged', org, admin, { object: await read(id), revision: merge!.revision, result: 'merge' }, space.id));
  });

  it('comments and replies: created, edited, resolved, reopened, deleted (reactions alone are none)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    const space = await createSpace(t, admin, organization);
    const author = await createMember(t, organization, 'comment');
    await t.db.updateTable('spaces').set({ defaultLevel: 'comment' }).where('id', '=', space.id).execute();
    let commentId = '';
    let posted: components['schemas']['Comment'] | undefined;
    const created = await recordedBy(admin, org, async () => {
      posted = (await author.client.POST('/v1/spaces/{spaceId}/comments', { ...spacePath(space.id), body: { body: { markdown: 'A *question*' } } })).data;
      commentId = posted!.id;
    });
    // As an admin who is not the author sees it, its body in Markdown.
    const adminView = { view: true, edit: false, reply: true, delete: true };
    expect(created).toEqual([expected('comment.created', org, author, { object: { ...posted, permissions: adminView } }, space.id)]);
    const commentPath = { params: { path: { spaceId: space.id, commentId } } };
    const put = (body: Record<string, unknown>) => author.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath, body: body as never });
    const types = async (operation: () => Promise<unknown>) => (await recordedBy(admin, org, operation)).map((event) => event.type);
    expect(await types(() => put({ body: { markdown: 'A better question' } }))).toEqual(['comment.edited']);
    expect(await types(() => put({ resolved: true }))).toEqual(['comment.resolved']);
    expect(await types(() => put({ resolved: false, body: { markdown: 'Still open' } }))).toEqual(['comment.edited', 'comment.reopened']);
    expect(await types(() => put({ addedReactions: ['👍'] }))).toEqual([]);
    // The document format asked by the caller is not the event's.
    const [documentEdit] = await recordedBy(admin, org, () => author.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...commentPath, params: { ...commentPath.params, query: { format: 'document' } }, body: { body: { markdown: 'In **Markdown**' } } }));
    expect((documentEdit!.data as { object: { body: unknown } }).object.body).toEqual({ markdown: 'In **Markdown**' });

    let replyId = '';
    const replied = await recordedBy(admin, org, async () => {
      replyId = (await author.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', { ...commentPath, body: { body: { markdown: 'An answer' } } })).data!.id;
    });
    expect(replied).toEqual([expected('comment-reply.created', org, author, { object: expect.objectContaining({ object: 'comment-reply', id: replyId, body: { markdown: 'An answer' }, permissions: adminView }), comment: commentId }, space.id)]);
    const replyPath = { params: { path: { spaceId: space.id, commentId, commentReplyId: replyId } } };
    expect(await types(() => author.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...replyPath, body: { body: { markdown: 'Edited' } } }))).toEqual(['comment-reply.edited']);
    expect(await types(() => author.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...replyPath, body: { addedReactions: ['🎉'] } }))).toEqual([]);
    const replyDeleted = await recordedBy(admin, org, () => admin.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', replyPath));
    expect(replyDeleted).toEqual([expected('comment-reply.deleted', org, admin, { object: expect.objectContaining({ id: replyId, body: { markdown: 'Edited' } }), comment: commentId }, space.id)]);
    const deleted = await recordedBy(admin, org, () => admin.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}', commentPath));
    expect(deleted).toEqual([expected('comment.deleted', org, admin, { object: expect.objectContaining({ id: commentId, body: { markdown: 'In **Markdown**' } }) }, space.id)]);
  });

  it('sites: created, updated (settings, customization, structure), published, unpublished, deleted', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    const space = await createSpace(t, admin, organization);
    const readSite = async (id: string) => (await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(org, id))).data!;
    let siteId = '';
    const created = await recordedBy(admin, org, async () => {
      siteId = (await createSite(admin.client, org, { title: 'Docs', spaces: [space.id] })).id;
    });
    expect(created).toEqual([expected('site.created', org, admin, { object: await readSite(siteId) })]);
    const path = sitePath(org, siteId);
    const updated = await recordedBy(admin, org, () => admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...path, body: { title: 'Handbook' } }));
    expect(updated).toEqual([expected('site.updated', org, admin, { object: await readSite(siteId) })]);
    const types = async (operation: () => Promise<unknown>) => (await recordedBy(admin, org, operation)).map((event) => event.type);
    expect(await types(() => admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...path, body: { title: 'Handbook' } }))).toEqual(['site.updated']);
    const other = await createSpace(t, admin, organization);
    expect(await types(() => admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { ...path, body: { spaceId: other.id } }))).toEqual(['site.updated']);
    const published = await recordedBy(admin, org, () => admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', path));
    expect(published).toEqual([expected('site.published', org, admin, { object: await readSite(siteId) })]);
    // Publishing a published site changes nothing: no event.
    expect(await types(() => admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', path))).toEqual([]);
    expect(await types(() => admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/unpublish', path))).toEqual(['site.unpublished']);
    const before = await readSite(siteId);
    const deleted = await recordedBy(admin, org, () => admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}', path));
    expect(deleted).toEqual([expected('site.deleted', org, admin, { object: before })]);
  });

  it('members: added (invite link, e-mail domain), role changed, removed; team members changed', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    await t.db.updateTable('organizations').set({ emailDomains: ['joiners.test'] }).where('id', '=', org).execute();
    const { data: invite } = await admin.client.POST('/v1/orgs/{organizationId}/link-invites', { ...orgPath(org), body: { role: 'edit' } });
    const joiner = await createUser(t);
    let member: unknown;
    const added = await recordedBy(admin, org, async () => {
      member = (await joiner.client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', { params: { path: { organizationId: org, inviteId: invite!.id } } })).data;
    });
    expect(added).toEqual([expected('member.added', org, joiner, { object: member })]);
    // Joining again changes nothing.
    const again = () => joiner.client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', { params: { path: { organizationId: org, inviteId: invite!.id } } });
    expect(await recordedBy(admin, org, again)).toEqual([]);
    const byDomain = await createUser(t, { email: 'someone@joiners.test' });
    expect((await recordedBy(admin, org, () => byDomain.client.POST('/v1/orgs/{organizationId}/join', orgPath(org)))).map((event) => event.type)).toEqual(['member.added']);

    const memberPath = { params: { path: { organizationId: org, userId: joiner.user.id } } };
    let changedBody: unknown;
    const changed = await recordedBy(admin, org, async () => {
      changedBody = (await admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath, body: { role: 'review' } })).data;
    });
    expect(changed).toEqual([expected('member.role-changed', org, admin, { object: changedBody, previousRole: 'edit' })]);
    expect(await recordedBy(admin, org, () => admin.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberPath, body: { role: 'review' } }))).toEqual([]);

    const team = await createTeam(t, organization, [admin]);
    const teamPath = { params: { path: { organizationId: org, teamId: team.id } } };
    const joined = await recordedBy(admin, org, () => admin.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members', { ...teamPath, body: { add: [joiner.user.id], memberships: { [admin.user.id]: { role: 'owner' } } } }));
    const teamNow = (await admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamPath)).data;
    expect(joined).toEqual([expected('team.members-changed', org, admin, { object: { ...teamNow, permissions: expect.any(Object) }, added: [joiner.user.id], removed: [], changed: [admin.user.id] })]);
    const left = await recordedBy(admin, org, () => admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { params: { path: { organizationId: org, teamId: team.id, userId: joiner.user.id } } }));
    expect(left.map((event) => (event.data as { removed: string[] }).removed)).toEqual([[joiner.user.id]]);

    const before = (await admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath)).data;
    const removed = await recordedBy(admin, org, () => admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath));
    expect(removed).toEqual([expected('member.removed', org, admin, { object: before })]);
  });

  it('openapi-spec.processed (by the server, with the new version) and import.finished (with the content event)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    const { data: spec } = await admin.client.POST('/v1/orgs/{organizationId}/openapi', { ...orgPath(org), body: { slug: 'api', source: { text: 'openapi: 3.1.0\ninfo: {title: API, version: 1.0.0}\npaths: {}\n' } } });
    const processed = await recordedBy(admin, org, () => processSpec(t.context, org, spec!.id));
    const specPath = { params: { path: { organizationId: org, specSlug: 'api' } } };
    const specNow = (await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', specPath)).data!;
    const version = (await admin.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', { params: { path: { ...specPath.params.path, versionId: specNow.lastVersion! } } })).data;
    expect(processed).toEqual([expected('openapi-spec.processed', org, 'system', { object: specNow, version })]);

    const space = await createSpace(t, admin, organization);
    const archive = zip([{ name: 'README.md', data: '# Welcome\n\nHello.' }]).toString('base64');
    let result: unknown;
    const imported = await recordedBy(admin, org, async () => {
      result = (await admin.client.POST('/v1/spaces/{spaceId}/content/import', { ...spacePath(space.id), body: { source: 'zip', base64: archive } })).data;
    });
    expect(imported.map((event) => event.type)).toEqual(['space.content-updated', 'import.finished']);
    expect(imported[1]).toEqual(expected('import.finished', org, admin, { source: 'zip', result }, space.id));
  });

  it('teams: created, renamed, deleted, with the team as the API answers it', { timeout: 180_000 }, async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    let team: components['schemas']['Team'] | undefined;
    const created = await recordedBy(admin, org, async () => {
      team = (await admin.client.PUT('/v1/orgs/{organizationId}/teams', { ...orgPath(org), body: { title: 'Writers', members: [admin.user.id] } })).data;
    });
    expect(created).toEqual([expected('team.created', org, admin, { object: team })]);
    const teamPath = { params: { path: { organizationId: org, teamId: team!.id } } };
    let renamed: unknown;
    const updated = await recordedBy(admin, org, async () => {
      renamed = (await admin.client.PATCH('/v1/orgs/{organizationId}/teams/{teamId}', { ...teamPath, body: { title: 'Editors' } })).data;
    });
    expect(updated).toEqual([expected('team.updated', org, admin, { object: renamed })]);
    expect(renamed).toMatchObject({ title: 'Editors' });
    const deleted = await recordedBy(admin, org, () => admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamPath));
    expect(deleted).toEqual([expected('team.deleted', org, admin, { object: renamed })]);
    // A refused change records nothing.
    expect(await recordedBy(admin, org, () => admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamPath))).toEqual([]);
  });

  it('grants on spaces and collections: created, updated, revoked, with the grant and what it is on', { timeout: 180_000 }, async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    const space = await createSpace(t, admin, organization, { title: 'Granted' });
    const collection = await createCollection(t, admin, organization, { title: 'Shelf' });
    const member = await createMember(t, organization, 'read');
    const team = await createTeam(t, organization, [member]);

    let grant: unknown;
    const created = await recordedBy(admin, org, async () => {
      grant = (await admin.client.POST('/v1/spaces/{spaceId}/permissions', { ...spacePath(space.id), body: { user: member.user.id, role: 'edit' } })).data;
    });
    expect(created).toEqual([expected('grant.created', org, admin, { object: grant, item: { type: 'space', id: space.id } }, space.id)]);
    const userPath = { params: { path: { spaceId: space.id, userId: member.user.id } } };
    const updated = await recordedBy(admin, org, async () => {
      grant = (await admin.client.PATCH('/v1/spaces/{spaceId}/permissions/users/{userId}', { ...userPath, body: { role: 'admin' } })).data;
    });
    expect(updated).toEqual([expected('grant.updated', org, admin, { object: grant, item: { type: 'space', id: space.id } }, space.id)]);
    const revoked = await recordedBy(admin, org, () => admin.client.DELETE('/v1/spaces/{spaceId}/permissions/users/{userId}', userPath));
    expect(revoked).toEqual([expected('grant.revoked', org, admin, { object: grant, item: { type: 'space', id: space.id } }, space.id)]);
    expect(await recordedBy(admin, org, () => admin.client.DELETE('/v1/spaces/{spaceId}/permissions/users/{userId}', userPath))).toEqual([]);

    const collectionPath = { params: { path: { collectionId: collection.id } } };
    const onCollection = await recordedBy(admin, org, async () => {
      grant = (await admin.client.POST('/v1/collections/{collectionId}/permissions', { ...collectionPath, body: { team: team.id, role: 'comment' } })).data;
    });
    expect(onCollection).toEqual([expected('grant.created', org, admin, { object: grant, item: { type: 'collection', id: collection.id } })]);
    const teamPath = { params: { path: { collectionId: collection.id, teamId: team.id } } };
    expect((await recordedBy(admin, org, () => admin.client.PATCH('/v1/collections/{collectionId}/permissions/teams/{teamId}', { ...teamPath, body: { role: 'edit' } }))).map((event) => event.type)).toEqual(['grant.updated']);
    expect((await recordedBy(admin, org, () => admin.client.DELETE('/v1/collections/{collectionId}/permissions/teams/{teamId}', teamPath))).map((event) => event.type)).toEqual(['grant.revoked']);
  });

  it('custom fields, translation settings and SAML providers: created, updated, deleted, with the object as the API answers it', { timeout: 180_000 }, async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    // Each kind: create, update, delete through the API; each event holds the object as the create and
    // update answered it, and the deletion the object as it was.
    async function lifecycle<T>(kind: string, create: () => Promise<T>, update: () => Promise<T>, remove: () => Promise<unknown>) {
      let object: T | undefined;
      const created = await recordedBy(admin, org, async () => void (object = await create()));
      expect(created).toEqual([expected(`${kind}.created` as EventType, org, admin, { object })]);
      const updated = await recordedBy(admin, org, async () => void (object = await update()));
      expect(updated).toEqual([expected(`${kind}.updated` as EventType, org, admin, { object })]);
      expect(await recordedBy(admin, org, remove)).toEqual([expected(`${kind}.deleted` as EventType, org, admin, { object })]);
      expect(await recordedBy(admin, org, remove)).toEqual([]);
    }
    const fieldPath = { params: { path: { organizationId: org, fieldName: 'audience' } } };
    await lifecycle(
      'custom-field',
      async () => (await admin.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(org), body: { name: 'audience', type: 'select:single', options: ['public', 'internal'] } })).data,
      async () => (await admin.client.PATCH('/v1/orgs/{organizationId}/custom-fields/{fieldName}', { ...fieldPath, body: { title: 'Audience' } })).data,
      () => admin.client.DELETE('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath),
    );
    let settingsId = '';
    const settingsPath = () => ({ params: { path: { organizationId: org, translationSettingsId: settingsId } } });
    await lifecycle(
      'translation-settings',
      async () => {
        const { data } = await admin.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(org), body: { title: 'Docs', languages: ['fr'] } });
        settingsId = data!.id;
        return data;
      },
      async () => (await admin.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...settingsPath(), body: { title: 'Docs', languages: ['fr', 'de'] } })).data,
      () => admin.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath()),
    );
    let providerId = '';
    const providerPath = () => ({ params: { path: { organizationId: org, samlProviderId: providerId } } });
    await lifecycle(
      'saml-provider',
      async () => {
        const { data } = await admin.client.POST('/v1/orgs/{organizationId}/saml', { ...orgPath(org), body: { label: 'Okta' } });
        providerId = data!.id;
        return data;
      },
      async () => (await admin.client.PATCH('/v1/orgs/{organizationId}/saml/{samlProviderId}', { ...providerPath(), body: { label: 'Okta (staff)' } })).data,
      () => admin.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath()),
    );
  });

  it('space.purged: recorded by the server when a deleted space is removed for good', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Old' });
    await admin.client.DELETE('/v1/spaces/{spaceId}', spacePath(space.id));
    await sql`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ${space.id}`.execute(t.db);
    const purged = await recordedBy(admin, organization.id, () => purgeExpiredSpaces(t.db, t.context.lifecycle));
    expect(purged).toEqual([expected('space.purged', organization.id, 'system', { space: space.id }, space.id)]);
    expect(await t.db.selectFrom('spaces').select('id').where('id', '=', space.id).executeTakeFirst()).toBeUndefined();
  });

  it('webhooks: created, updated, pinged, disabled (by the server), deleted — never with the secret', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const org = organization.id;
    let secret = '';
    let webhookId = '';
    const created = await recordedBy(admin, org, async () => {
      const { data } = await admin.client.POST('/v1/orgs/{organizationId}/webhooks', { ...orgPath(org), body: { url: 'https://hooks.example.com/in' } });
      [secret, webhookId] = [data!.secret, data!.id];
    });
    const path = { params: { path: { organizationId: org, webhookId } } };
    const read = async () => (await admin.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', path)).data;
    expect(created).toEqual([expected('webhook.created', org, admin, { object: await read() })]);
    const types = async (operation: () => Promise<unknown>) => (await recordedBy(admin, org, operation)).map((event) => event.type);
    expect(await types(() => admin.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...path, body: { description: 'Chat' } }))).toEqual(['webhook.updated']);
    expect(await types(() => admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/secret', { ...path, body: {} }))).toEqual(['webhook.updated']);
    const pinged = await recordedBy(admin, org, () => admin.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', path));
    expect(pinged).toEqual([expected('webhook.ping', org, admin, { webhook: webhookId })]);

    // Failing for more than five days: the next failed attempt disables it, and the server says so.
    await t.db.updateTable('webhooks').set({ failingSince: new Date(Date.now() - 6 * 86_400_000) }).where('id', '=', webhookId).execute();
    const delivery = await t.db.selectFrom('webhookDeliveries').select(['id', 'attempts']).where('webhookId', '=', webhookId).executeTakeFirstOrThrow();
    const failure = { organizationId: org, deliveryId: delivery.id, webhookId, attempt: 1, startedAt: new Date(), durationMs: 3, statusCode: 500, error: 'the receiver answered 500', response: '', succeeded: false, retryInMs: 5000 };
    const disabled = await recordedBy(admin, org, () => writeResults(t.context, [failure]));
    expect(disabled).toEqual([expected('webhook.disabled', org, 'system', { object: { ...(await read()), enabled: false, disabledReason: 'failing' } })]);

    const before = await read();
    expect(await recordedBy(admin, org, () => admin.client.DELETE('/v1/orgs/{organizationId}/webhooks/{webhookId}', path))).toEqual([expected('webhook.deleted', org, admin, { object: before })]);
    const everything = JSON.stringify((await listEvents(admin, org, { limit: 1000 })).items);
    expect(everything).not.toContain(secret.slice('whsec_'.length));
  });
});

describe('a change that rolls back records nothing', () => {
  it('the change and its event commit together or not at all', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Kept' });
    // Checks at commit that fail for a marked change — of the space row, of the head's pages — after
    // its event was recorded: an event recorded outside the change's transaction would remain.
    await sql`
      CREATE FUNCTION refuse_marked_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.title = 'Rolled back' THEN RAISE EXCEPTION 'refused at commit'; END IF;
        RETURN NULL;
      END $$`.execute(t.db);
    await sql`CREATE CONSTRAINT TRIGGER refuse_marked_space AFTER UPDATE ON spaces DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_marked_change()`.execute(t.db);
    await sql`CREATE CONSTRAINT TRIGGER refuse_marked_page AFTER INSERT ON space_head_pages DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_marked_change()`.execute(t.db);
    try {
      const before = await listEvents(admin, organization.id);
      const renamed = await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'Rolled back' } });
      expect(renamed.response.status).toBe(500);
      const edited = await admin.client.POST('/v1/spaces/{spaceId}/content', { ...spacePath(space.id), body: { changes: [{ type: 'insert_page', title: 'Rolled back' }] } });
      expect(edited.response.status).toBe(500);
      const after = await getSpace(admin, space.id);
      expect([after.title, after.revision]).toEqual(['Kept', space.headRevisionId]);
      expect((await listEvents(admin, organization.id)).count).toBe(before.count);
      // Without the mark, the same operations commit with their events.
      await admin.client.PATCH('/v1/spaces/{spaceId}', { ...spacePath(space.id), body: { title: 'Renamed' } });
      await admin.client.POST('/v1/spaces/{spaceId}/content', { ...spacePath(space.id), body: { changes: [{ type: 'insert_page', title: 'Kept page' }] } });
      expect((await listEvents(admin, organization.id)).items.slice(0, 2).map((event) => event.type)).toEqual(['space.content-updated', 'space.updated']);
    } finally {
      await sql`DROP TRIGGER refuse_marked_space ON spaces`.execute(t.db);
      await sql`DROP TRIGGER refuse_marked_page ON space_head_pages`.execute(t.db);
    }
  });
});

describe('the catalogue', () => {
  it('every event type of the contract was produced by an operation in this file', () => {
    expect([...produced].sort()).toEqual([...CATALOGUE].sort());
  });
});
