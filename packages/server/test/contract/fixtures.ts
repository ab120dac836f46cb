// The world the contract sweep runs in: an owner's organization and its resources (one id per path
// parameter), and an outsider who belongs to none of it. A path parameter without a fixture is an
// error (a random id would read as absent for the owner too, and the outsider's 404 would prove nothing).
import type { TestServer } from '../support/harness.js';
import { createOrganization, createUser, type TestUser } from '../support/factories.js';
import { processSpec } from '../../src/areas/openapi-specs/openapi-specs.service.js';

export type SweepWorld = {
  owner: TestUser;
  outsider: TestUser;
  /** Fixture values by path-parameter name, owned by `owner`. */
  params: Record<string, string>;
  /** Values that differ under some paths (a change request's comments are not the space's). */
  paramsUnder: Array<{ prefix: string; params: Record<string, string> }>;
};

/** `tag` tells apart the worlds of one server (the fuzz suite builds one per writing operation). */
export async function buildSweepWorld(t: TestServer, tag = ''): Promise<SweepWorld> {
  const owner = await createUser(t, { email: `owner${tag}@sweep.test` });
  const outsider = await createUser(t, { email: `outsider${tag}@elsewhere.test` });
  const organization = await createOrganization(t, owner, { emailDomains: ['sweep.test'] });
  const { data: token } = await owner.client.POST('/v1/user/tokens', { body: { label: 'sweep' } });
  const organizationPath = { params: { path: { organizationId: organization.id } } };
  const { data: collection } = await owner.client.POST('/v1/orgs/{organizationId}/collections', { ...organizationPath, body: { title: 'Sweep' } });
  const { data: space } = await owner.client.POST('/v1/orgs/{organizationId}/spaces', { ...organizationPath, body: { title: 'Sweep', parent: collection!.id } });
  const { data: team } = await owner.client.PUT('/v1/orgs/{organizationId}/teams', { ...organizationPath, body: { title: 'Sweep', members: [owner.user.id] } });
  const { data: invite } = await owner.client.POST('/v1/orgs/{organizationId}/link-invites', { ...organizationPath, body: { role: 'read' } });
  // Pending (label only): \`GET .../sso\`, open to any user, then lists nothing of the owner's.
  const { data: samlProvider } = await owner.client.POST('/v1/orgs/{organizationId}/saml', { ...organizationPath, body: { label: 'Sweep' } });
  // The sweep hands the outsider every fixture id, the invite's secret included: with invite links
  // off, joining through it is refused (403) instead of making the outsider a member for the
  // operations that follow. Joining itself is tested in test/integration/invites.test.ts.
  await owner.client.PATCH('/v1/orgs/{organizationId}', { ...organizationPath, body: { inviteLinks: false } });
  // Grants for the permission paths' {userId} and {teamId} (the owner already holds admin on what they created).
  const grants = [
    await owner.client.POST('/v1/collections/{collectionId}/permissions', { params: { path: { collectionId: collection!.id } }, body: { team: team!.id, role: 'edit' } }),
    await owner.client.POST('/v1/spaces/{spaceId}/permissions', { params: { path: { spaceId: space!.id } }, body: { team: team!.id, role: 'edit' } }),
  ];
  if (!invite || !samlProvider || grants.some((result) => result.response.status !== 201)) throw new Error('the sweep world could not be built');
  const spacePath = { params: { path: { spaceId: space!.id } } };
  const { data: content } = await owner.client.POST('/v1/spaces/{spaceId}/content', {
    ...spacePath,
    body: {
      changes: [
        { type: 'insert_page', title: 'Sweep page', slug: 'sweep-page', ref: 'page', markdown: 'Owned by the sweep owner.' },
        { type: 'insert_file', name: 'sweep.txt', contentType: 'text/plain', base64: Buffer.from('sweep').toString('base64'), ref: 'file' },
      ],
    },
  });
  const { data: file } = await owner.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', {
    params: { path: { spaceId: space!.id, fileId: content!.refs.file! } },
  });
  const { data: changeRequest } = await owner.client.POST('/v1/spaces/{spaceId}/change-requests', { ...spacePath, body: { subject: 'Sweep' } });
  // A space comment with a reply (the same ids are absent under the change request: its family is another).
  const { data: comment } = await owner.client.POST('/v1/spaces/{spaceId}/comments', { ...spacePath, body: { page: content!.refs.page!, body: { markdown: 'Sweep' } } });
  const { data: reply } = await owner.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', {
    params: { path: { spaceId: space!.id, commentId: comment!.id } },
    body: { body: { markdown: 'Sweep reply' } },
  });
  const changeRequestPath = { params: { path: { spaceId: space!.id, changeRequestId: changeRequest!.id } } };
  const { data: changeRequestComment } = await owner.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', {
    ...changeRequestPath,
    body: { body: { markdown: 'Sweep' } },
  });
  const { data: changeRequestReply } = await owner.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', {
    params: { path: { ...changeRequestPath.params.path, commentId: changeRequestComment!.id } },
    body: { body: { markdown: 'Sweep reply' } },
  });
  // A site with a section in a group, a site space and a share link (unpublished: a stranger sees none of it).
  const { data: site } = await owner.client.POST('/v1/orgs/{organizationId}/sites', { ...organizationPath, body: { title: 'Sweep site' } });
  const sitePath = { params: { path: { organizationId: organization.id, siteId: site!.id } } };
  const { data: section } = await owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath, body: { spaceId: space!.id, title: 'Sweep' } });
  const { data: group } = await owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...sitePath, body: { title: 'Sweep', sections: [section!.id] } });
  const { data: shareLink } = await owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath, body: { label: 'Sweep' } });
  // A hostname pending verification: its check (verifySiteHostname) asks the harness's DNS, which refuses.
  await owner.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath, body: { hostname: `docs-${site!.id.toLowerCase()}.sweep.test` } });
  const { data: redirect } = await owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...sitePath, body: { source: '/sweep-old', target: { kind: 'url', url: 'https://example.com/sweep' } } });
  if (!section || !group || !shareLink || !redirect) throw new Error('the sweep site could not be built');
  // Organization settings: an OpenAPI spec processed into a version, translation settings, a custom field.
  const { data: openAPISpec } = await owner.client.POST('/v1/orgs/{organizationId}/openapi', {
    ...organizationPath,
    body: { slug: 'sweep', source: { text: 'openapi: 3.1.0\ninfo: {title: Sweep, version: 1.0.0}\npaths: {}\n' } },
  });
  await processSpec(t.context, organization.id, openAPISpec!.id);
  const { data: processed } = await owner.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', { params: { path: { organizationId: organization.id, specSlug: 'sweep' } } });
  const { data: translationSettings } = await owner.client.POST('/v1/orgs/{organizationId}/translations', { ...organizationPath, body: { title: 'Sweep' } });
  await owner.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...organizationPath, body: { name: 'sweep', type: 'text' } });
  // A webhook (never sent to: the sweep's server runs no jobs) with a delivery, and an event.
  const { data: webhook } = await owner.client.POST('/v1/orgs/{organizationId}/webhooks', { ...organizationPath, body: { url: 'https://hooks.example.com/sweep' } });
  const webhookPath = { params: { path: { organizationId: organization.id, webhookId: webhook!.id } } };
  const { data: delivery } = await owner.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', webhookPath);
  const { data: events } = await owner.client.GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId: organization.id }, query: { limit: 1 } } });
  if (!delivery || !events?.items[0]) throw new Error('the sweep webhook could not be built');
  return {
    owner,
    outsider,
    params: {
      organizationId: organization.id,
      userId: owner.user.id,
      tokenId: token!.id,
      emailDomain: 'sweep.test',
      collectionId: collection!.id,
      spaceId: space!.id,
      teamId: team!.id,
      inviteId: invite!.id,
      pageId: content!.refs.page!,
      fileId: content!.refs.file!,
      revisionId: content!.revision,
      changeRequestId: changeRequest!.id,
      pagePath: 'sweep-page',
      signature: new URL(file!.downloadURL).pathname.split('/').pop()!,
      samlProviderId: samlProvider!.id,
      commentId: comment!.id,
      commentReplyId: reply!.id,
      siteId: site!.id,
      siteSectionId: section.id,
      siteSectionGroupId: group.id,
      siteSpaceId: section.siteSpaces[0]!.id,
      shareLinkId: shareLink.id,
      siteRedirectId: redirect.id,
      specSlug: 'sweep',
      versionId: processed!.lastVersion!,
      translationSettingsId: translationSettings!.id,
      fieldName: 'sweep',
      webhookId: webhook!.id,
      webhookDeliveryId: delivery.id,
      eventId: events.items[0].id,
    },
    paramsUnder: [
      {
        prefix: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
        params: { commentId: changeRequestComment!.id, commentReplyId: changeRequestReply!.id },
      },
    ],
  };
}

/** The fixture value of path parameter `name` in `path`; throws when the world has none. */
export function fixtureFor(world: SweepWorld, path: string, name: string): string {
  const under = world.paramsUnder.find((entry) => path.startsWith(entry.prefix) && name in entry.params);
  const value = under ? under.params[name] : world.params[name];
  if (value === undefined) throw new Error(`No sweep fixture for the path parameter {${name}} of ${path}: add one to buildSweepWorld (test/contract/fixtures.ts)`);
  return value;
}
