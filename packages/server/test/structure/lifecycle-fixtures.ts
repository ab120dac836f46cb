// Each area's rows in the round-trip world (lifecycle-round-trip.test.ts): one fixture per area, typed
// by the registry's area names, so a new area does not compile until it says how to fill its tables;
// the test then fails while any owned table is empty. Fixtures write through the API where that is how
// rows come to be (content, change requests, comments), and directly where only the rows matter.
// Rows of following tables must be ones their transfer keeps (user grants of a target member, values
// of fields the target defines): the test compares everything that moves.
import { sql } from 'kysely';
import type { areas } from '../../src/areas/index.js';
import { newId } from '../../src/ids.js';
import type { OrganizationRow, CollectionRow, SpaceRow } from '../authz/types.js';
import { createCr, editCr } from '../support/change-requests.js';
import { postComment, postReply } from '../support/comments.js';
import { edit, pngBytes } from '../support/content.js';
import { createInvite, createSamlProvider, createTeam, grant, type TestUser } from '../support/factories.js';
import type { TestServer } from '../support/harness.js';

export type LifecycleWorld = {
  t: TestServer;
  /** Admin of both organizations: transfers and duplicates. */
  owner: TestUser;
  /** A `read` member of both organizations (grants to them travel). */
  member: TestUser;
  source: OrganizationRow;
  target: OrganizationRow;
  /** The transferred collection, with `inner` inside it and `space` inside that. */
  collection: CollectionRow;
  inner: CollectionRow;
  space: SpaceRow;
  /** Filled by the change-requests fixture. */
  changeRequest?: { id: string; revision: string };
};

type AreaName = (typeof areas)[number]['name'];
type Fixture = (w: LifecycleWorld) => Promise<void>;

const hash = (text: string) => Buffer.from(text.padEnd(64, '0').slice(0, 64), 'hex');

export const fixtures: { [Name in AreaName]: Fixture } = {
  // Users and their tokens come with every TestUser.
  users: async () => {},
  organizations: async () => {},
  members: async () => {},
  teams: async (w) => void (await createTeam(w.t, w.source, [w.member])),
  invites: async (w) => void (await createInvite(w.t, w.source, w.owner)),
  saml: async (w) => {
    const provider = await createSamlProvider(w.t, w.source);
    await w.t.db
      .insertInto('samlConsumedAssertions')
      .values({ organizationId: w.source.id, providerId: provider.id, assertionId: newId(), expiresAt: new Date(Date.now() + 3_600_000) })
      .execute();
  },
  // The world's collections and space are these areas' rows.
  collections: async () => {},
  spaces: async () => {},
  permissions: async (w) => {
    await grant(w.t, { kind: 'space', item: w.space }, { user: w.member }, 'comment');
    await grant(w.t, { kind: 'collection', item: w.inner }, { user: w.member }, 'edit');
  },
  content: async (w) => {
    await edit(w.owner, w.space.id, [
      { type: 'insert_page', title: 'Home', ref: 'home', markdown: 'Welcome to [the guide](https://example.com/guide) and the lifecycle' },
      { type: 'insert_page', title: 'Child', parent: { ref: 'home' }, markdown: 'A child page' },
      { type: 'insert_file', name: 'logo.png', base64: pngBytes(4, 4).toString('base64') },
      { type: 'upsert_reusable_content', title: 'Snippet', markdown: 'Shared words' },
    ]);
    await w.t.db.insertInto('contentGarbageMarks').values({ organizationId: w.source.id }).onConflict((oc) => oc.doNothing()).execute();
  },
  'change-requests': async (w) => {
    const request = await createCr(w.owner, w.space.id, { subject: 'A change' });
    const result = await editCr(w.owner, w.space.id, request.id, [{ type: 'insert_page', title: 'Proposed', markdown: 'A proposal' }]);
    w.changeRequest = { id: request.id, revision: result.revision };
    await w.t.db
      .insertInto('revisionConflicts')
      .values({ organizationId: w.source.id, revisionId: result.revision, ordinal: 0, kind: 'page_field', pageId: 'p1', field: 'title', base: '"a"', ours: '"b"', theirs: '"c"', resolution: 'theirs' })
      .execute();
  },
  import: async () => {},
  pdf: async (w) => {
    await w.t.db
      .insertInto('revisionPdfs')
      .values({ organizationId: w.source.id, revisionId: w.changeRequest!.revision, variant: 'default', pdf: Buffer.from('%PDF-1.7'), byteLength: 8 })
      .execute();
  },
  comments: async (w) => {
    const comment = await postComment(w.owner, w.space.id, { body: { markdown: 'A comment' } });
    const reply = await postReply(w.owner, w.space.id, comment.id, 'A reply');
    const { response } = await w.owner.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', {
      params: { path: { spaceId: w.space.id, changeRequestId: w.changeRequest!.id } },
      body: { body: { markdown: 'On the request' } },
    });
    if (response.status !== 200) throw new Error(`change-request comment answered ${response.status}`);
    const organizationId = w.source.id;
    await w.t.db.insertInto('commentReactions').values({ organizationId, commentId: comment.id, emoji: '👍', userId: w.member.user.id }).execute();
    await w.t.db.insertInto('commentReplyReactions').values({ organizationId, replyId: reply.id, emoji: '🎉', userId: w.owner.user.id }).execute();
    await w.t.db.insertInto('commentAnchors').values({ organizationId, commentId: comment.id, documentHash: hash('ab'), nodeId: 'n1', nodePreview: 'Welcome' }).execute();
    await sql`INSERT INTO comment_list_versions (organization_id, space_id, context_key, version) VALUES (${organizationId}, ${w.space.id}, '', 3)
      ON CONFLICT (organization_id, space_id, context_key) DO UPDATE SET version = 3`.execute(w.t.db);
  },
  sites: async (w) => {
    const { data, response } = await w.owner.client.POST('/v1/orgs/{organizationId}/sites', {
      params: { path: { organizationId: w.source.id } },
      body: { title: 'Docs', spaces: [w.space.id] },
    });
    if (response.status !== 201) throw new Error(`site answered ${response.status}`);
    const siteId = data!.id;
    const group = newId();
    await w.t.db.insertInto('siteSectionGroups').values({ organizationId: w.source.id, siteId, id: group, title: 'Group', position: '1' }).execute();
    await w.t.db.insertInto('siteSections').values({ organizationId: w.source.id, siteId, id: newId(), title: 'Section', path: 'section', position: '1', groupId: group }).execute();
    await w.t.db.insertInto('siteShareLinks').values({ organizationId: w.source.id, siteId, id: newId(), label: 'Reviewers', keyHash: hash('cd') }).execute();
    await w.t.db.insertInto('siteAddresses').values({ organizationId: w.source.id, siteId, address: `docs-${newId().toLowerCase()}.example.com` }).execute();
    // Redirects, feedback and the insights' daily counts: only the rows matter (issue 28).
    await w.t.db.insertInto('siteRedirects').values({ organizationId: w.source.id, siteId, id: newId(), source: '/old', targetKind: 'url', targetUrl: 'https://example.com/new', permanent: true }).execute();
    const pageId = newId();
    await w.t.db.insertInto('siteFeedback').values({ organizationId: w.source.id, siteId, id: newId(), spaceId: w.space.id, pageId, revisionId: newId(), rating: 'good', comment: 'Clear' }).execute();
    await w.t.db.insertInto('sitePageViews').values({ organizationId: w.source.id, siteId, spaceId: w.space.id, pageId, day: new Date('2026-11-28T00:00:00Z'), kind: 'page', views: 3 }).execute();
    await w.t.db.insertInto('siteSearches').values({ organizationId: w.source.id, siteId, day: new Date('2026-11-28T00:00:00Z'), query: 'install', searches: 2, zeroResults: 0 }).execute();
    // A page's social image (a cache): only the row matters.
    await w.t.db.insertInto('siteSocialImages').values({ organizationId: w.source.id, siteId, spaceId: w.space.id, pageId, inputHash: 'hash', png: Buffer.from('png') }).execute();
  },
  'openapi-specs': async (w) => {
    const specId = newId();
    await w.t.db.insertInto('openapiSpecs').values({ organizationId: w.source.id, id: specId, slug: 'petstore', sourceText: 'openapi: 3.1.0' }).execute();
    await w.t.db
      .insertInto('openapiSpecVersions')
      .values({ organizationId: w.source.id, specId, id: newId(), contentHash: 'ef01', filesystem: JSON.stringify({ entrypoint: 'openapi.yaml', files: {} }), bundle: '{}' })
      .execute();
  },
  translations: async (w) => {
    await w.t.db.insertInto('translationSettings').values({ organizationId: w.source.id, id: newId(), title: 'French', languages: ['fr'] }).execute();
  },
  'custom-fields': async (w) => {
    // The target defines the same field, so the value travels.
    for (const organization of [w.source, w.target]) {
      await w.t.db.insertInto('customFieldDefinitions').values({ organizationId: organization.id, id: newId(), name: 'team', type: 'text' }).execute();
    }
    await w.t.db.insertInto('spaceCustomFieldValues').values({ organizationId: w.source.id, spaceId: w.space.id, field: 'team', value: JSON.stringify('Docs') }).execute();
  },
  // The content fixture's edits index the space (sections, titles, words) and extract its links.
  search: async () => {},
  links: async () => {},
  // Every change above recorded its events.
  events: async () => {},
  // Only the rows matter: a disabled webhook (nothing is sent), a delivery of one of the source's events, an attempt.
  webhooks: async (w) => {
    const organizationId = w.source.id;
    const event = await w.t.db.selectFrom('events').where('organizationId', '=', organizationId).select('id').limit(1).executeTakeFirstOrThrow();
    const webhookId = newId();
    const deliveryId = newId();
    await w.t.db.insertInto('webhooks').values({ organizationId, id: webhookId, url: 'https://hooks.example.com/in', enabled: false, secret: Buffer.from('sealed') }).execute();
    await w.t.db.insertInto('webhookDeliveries').values({ organizationId, id: deliveryId, webhookId, eventId: event.id, state: 'succeeded', attempts: 1 }).execute();
    await w.t.db.insertInto('webhookDeliveryAttempts').values({ organizationId, deliveryId, attempt: 1, startedAt: new Date(), durationMs: 12, statusCode: 204 }).execute();
  },
};
