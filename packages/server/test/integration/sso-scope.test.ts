// What an organization's identity provider can reach. It is configured by that organization's admin, so
// it is only as trusted as that admin: these tests play the admin as an attacker, registering a provider
// through the API with a certificate of their own (the test identity provider's, made locally with
// openssl, test/fixtures) and posting self-made assertions to the real ACS. A token it issues must reach
// that organization alone, the provider must sign in only members and accounts it created, and no token
// may mint one that reaches further or lives longer.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { components, ContentWorkspaceClient } from '@content-workspace/sdk';
import { useTestServer } from '../support/harness.js';
import { addMember, createCollection, createInvite, createMember, createOrganization, createSpace, createUser, type TestUser } from '../support/factories.js';
import { edit } from '../support/content.js';
import { IDP_CERTIFICATE, IDP_ENTITY_ID, IDP_SSO_URL, samlResponse } from '../support/saml.js';

const server = useTestServer();

type Service = components['schemas']['SamlProvider']['service'];
type Provider = { organization: { id: string }; id: string; service: Service };

const unique = () => randomBytes(4).toString('hex');
const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const spacePath = (spaceId: string) => ({ params: { path: { spaceId } } });

/** The admin registers an identity provider of their own making, as any admin may. */
async function registerProvider(admin: TestUser, organization: { id: string }): Promise<Provider> {
  const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/saml', {
    ...orgPath(organization.id),
    body: { label: 'Own IdP', entityID: IDP_ENTITY_ID, ssoURL: IDP_SSO_URL, certificate: IDP_CERTIFICATE, defaultRole: 'read' },
  });
  expect(response.status).toBe(201);
  expect(data!.status).toBe('active');
  return { organization, id: data!.id, service: data!.service };
}

/** Posts a self-made assertion for `email` to the provider's ACS: the token on success, else the status. */
async function signIn(provider: Provider, email: string): Promise<{ status: number; token?: string; client?: ContentWorkspaceClient }> {
  const { response } = await server()
    .client()
    .POST('/sso/orgs/{organizationId}/saml/{samlProviderId}/acs', {
      params: { path: { organizationId: provider.organization.id, samlProviderId: provider.id } },
      body: { SAMLResponse: samlResponse({ service: provider.service, email }) },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) return { status: response.status };
  const token = location.slice(location.indexOf('#token=') + '#token='.length);
  return { status: 303, token, client: server().client(token) };
}

async function signedIn(provider: Provider, email: string): Promise<ContentWorkspaceClient> {
  const result = await signIn(provider, email);
  expect(result.status).toBe(303);
  return result.client!;
}

async function tokensOf(userId: string) {
  return server().db.selectFrom('apiTokens').select(['id', 'organizationId', 'expiresAt']).where('userId', '=', userId).execute();
}

async function membershipsOf(userId: string): Promise<string[]> {
  const rows = await server().db.selectFrom('organizationMembers').select('organizationId').where('userId', '=', userId).execute();
  return rows.map((row) => row.organizationId).sort();
}

/**
 * Organization A (whose admin attacks) and organization B, with a reviewer in both; B holds a private
 * space with a page, a public and an unlisted space, and a collection.
 */
async function buildWorld() {
  const t = server();
  const adminA = await createUser(t);
  const adminB = await createUser(t);
  const orgA = await createOrganization(t, adminA);
  const orgB = await createOrganization(t, adminB);
  const reviewer = await createUser(t, { email: `reviewer-${unique()}@example.com` });
  await addMember(t, orgA, reviewer, 'review');
  await addMember(t, orgB, reviewer, 'edit');
  const spaceA = await createSpace(t, adminA, orgA);
  const privateB = await createSpace(t, adminB, orgB);
  const { refs } = await edit(adminB, privateB.id, [{ type: 'insert_page', title: 'Secret plans', ref: 'page', markdown: 'Only for B.' }]);
  const publicB = await createSpace(t, adminB, orgB, { visibility: 'public' });
  const unlistedB = await createSpace(t, adminB, orgB, { visibility: 'unlisted' });
  const collectionB = await createCollection(t, adminB, orgB);
  const provider = await registerProvider(adminA, orgA);
  return { adminA, adminB, orgA, orgB, reviewer, spaceA, privateB, pageB: refs!.page!, publicB, unlistedB, collectionB, provider };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** Every read of organization B the reviewer may make with a personal token: status by request. */
async function readsOfB(client: ContentWorkspaceClient, w: World): Promise<Record<string, number>> {
  const status = async (request: Promise<{ response: Response }>) => (await request).response.status;
  return {
    space: await status(client.GET('/v1/spaces/{spaceId}', spacePath(w.privateB.id))),
    page: await status(client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: w.privateB.id, pageId: w.pageB } } })),
    content: await status(client.GET('/v1/spaces/{spaceId}/content', spacePath(w.privateB.id))),
    publicSpace: await status(client.GET('/v1/spaces/{spaceId}', spacePath(w.publicB.id))),
    unlistedSpace: await status(client.GET('/v1/spaces/{spaceId}', spacePath(w.unlistedB.id))),
    collection: await status(client.GET('/v1/collections/{collectionId}', { params: { path: { collectionId: w.collectionB.id } } })),
    organization: await status(client.GET('/v1/orgs/{organizationId}', orgPath(w.orgB.id))),
    spaces: await status(client.GET('/v1/orgs/{organizationId}/spaces', orgPath(w.orgB.id))),
    collections: await status(client.GET('/v1/orgs/{organizationId}/collections', orgPath(w.orgB.id))),
    members: await status(client.GET('/v1/orgs/{organizationId}/members', orgPath(w.orgB.id))),
    ping: await status(client.POST('/v1/orgs/{organizationId}/ping', orgPath(w.orgB.id))),
    sso: await status(client.GET('/v1/orgs/{organizationId}/sso', orgPath(w.orgB.id))),
  };
}

const everywhere = (status: number) =>
  Object.fromEntries(
    ['space', 'page', 'content', 'publicSpace', 'unlistedSpace', 'collection', 'organization', 'spaces', 'collections', 'members', 'ping', 'sso'].map((key) => [key, status]),
  );

describe('a token issued through an organization’s SSO reaches that organization only', () => {
  it('attack 1: the admin’s own provider signs in a member of two organizations; the token reads nothing of the other one (404)', async () => {
    const w = await buildWorld();
    // The same person's personal token reads all of it: the 404s below come from the scope alone.
    expect(await readsOfB(w.reviewer.client, w)).toEqual(everywhere(200));

    const token = await signedIn(w.provider, w.reviewer.user.email);
    expect(await readsOfB(token, w)).toEqual(everywhere(404));
    // Inside its organization it works as the member.
    expect((await token.GET('/v1/user')).data?.id).toBe(w.reviewer.user.id);
    expect((await token.GET('/v1/orgs/{organizationId}', orgPath(w.orgA.id))).response.status).toBe(200);
    expect((await token.GET('/v1/spaces/{spaceId}', spacePath(w.spaceA.id))).response.status).toBe(200);
  });

  it('GET /v1/orgs lists only its organization; the e-mail-domain lookup shows at most it', async () => {
    const t = server();
    const domain = `scope-${unique()}.test`;
    const admin = await createUser(t);
    const [orgA, orgB] = [await createOrganization(t, admin, { emailDomains: [domain] }), await createOrganization(t, admin, { emailDomains: [domain] })];
    const joinable = await createOrganization(t, admin, { emailDomains: [domain] });
    const member = await createUser(t, { email: `member@${domain}` });
    await addMember(t, orgA, member, 'read');
    await addMember(t, orgB, member, 'read');
    const token = await signedIn(await registerProvider(admin, orgA), member.user.email);

    const personal = await member.client.GET('/v1/orgs');
    expect(personal.data?.items.map((item) => item.id).sort()).toEqual([orgA.id, orgB.id].sort());
    const scoped = await token.GET('/v1/orgs');
    expect(scoped.data).toEqual({ items: [expect.objectContaining({ id: orgA.id })], count: 1 });

    const lookup = (client: ContentWorkspaceClient) => client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: domain } } });
    expect((await lookup(member.client)).data?.organizations.map((item) => item.id).sort()).toEqual([orgA.id, orgB.id, joinable.id].sort());
    expect((await lookup(token)).data?.organizations.map((item) => item.id)).toEqual([orgA.id]);
  });

  it('GET /v1/users/{userId}: only users of its organization (and the caller)', async () => {
    const w = await buildWorld();
    const token = await signedIn(w.provider, w.reviewer.user.email);
    const user = (client: ContentWorkspaceClient, who: TestUser) => client.GET('/v1/users/{userId}', { params: { path: { userId: who.user.id } } });
    expect((await user(w.reviewer.client, w.adminB)).response.status).toBe(200);
    expect((await user(token, w.adminB)).response.status).toBe(404);
    expect((await user(token, w.adminA)).response.status).toBe(200);
    expect((await user(token, w.reviewer)).response.status).toBe(200);
  });

  it('cannot join another organization, by invite or by e-mail domain (404); nothing joined', async () => {
    const w = await buildWorld();
    const other = await createOrganization(server(), w.adminB, { emailDomains: ['example.com'] });
    const invite = await createInvite(server(), other, w.adminB, 'edit');
    const token = await signedIn(w.provider, w.reviewer.user.email);
    const byInvite = (client: ContentWorkspaceClient) =>
      client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', { params: { path: { organizationId: other.id, inviteId: invite.id } } });
    const byDomain = (client: ContentWorkspaceClient) => client.POST('/v1/orgs/{organizationId}/join', orgPath(other.id));

    expect((await byInvite(token)).response.status).toBe(404);
    expect((await byDomain(token)).response.status).toBe(404);
    expect(await membershipsOf(w.reviewer.user.id)).toEqual([w.orgA.id, w.orgB.id].sort());
    // With a personal token the same calls join.
    expect((await byDomain(w.reviewer.client)).response.status).toBe(201);
    expect((await byInvite(w.reviewer.client)).response.status).toBe(200);
  });

  it('cannot transfer a space or a collection to another organization (404)', async () => {
    const w = await buildWorld();
    const owner = await createMember(server(), w.orgA, 'admin');
    await addMember(server(), w.orgB, owner, 'admin');
    const [space, spare] = [await createSpace(server(), owner, w.orgA), await createSpace(server(), owner, w.orgA)];
    const collection = await createCollection(server(), owner, w.orgA);
    const token = await signedIn(w.provider, owner.user.email);

    const toB = { body: { organization: w.orgB.id } };
    expect((await token.POST('/v1/spaces/{spaceId}/transfer', { ...spacePath(space.id), ...toB })).response.status).toBe(404);
    expect((await token.POST('/v1/collections/{collectionId}/transfer', { params: { path: { collectionId: collection.id } }, ...toB })).response.status).toBe(404);
    expect((await w.adminA.client.GET('/v1/spaces/{spaceId}', spacePath(space.id))).data?.organization).toBe(w.orgA.id);
    // The same transfer with the owner's personal token goes through.
    expect((await owner.client.POST('/v1/spaces/{spaceId}/transfer', { ...spacePath(spare.id), ...toB })).response.status).toBe(200);
  });

  it('attack 3: may not create organizations or read or manage personal tokens (403); nothing is created', async () => {
    const w = await buildWorld();
    const token = await signedIn(w.provider, w.reviewer.user.email);
    const before = await tokensOf(w.reviewer.user.id);

    const minted = await token.POST('/v1/user/tokens', { body: { label: 'forever' } });
    expect(minted.response.status).toBe(403);
    expect(minted.error?.error).toEqual({ code: 403, message: 'A token issued through an organization’s single sign-on may not do this: use a personal token' });
    expect((await token.GET('/v1/user/tokens')).response.status).toBe(403);
    const personal = before.find((row) => row.organizationId === null)!;
    expect((await token.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: personal.id } } })).response.status).toBe(403);
    expect((await token.POST('/v1/orgs', { body: { title: 'Escape hatch' } })).response.status).toBe(403);

    expect(await tokensOf(w.reviewer.user.id)).toEqual(before);
    expect(await membershipsOf(w.reviewer.user.id)).toEqual([w.orgA.id, w.orgB.id].sort());
    // The personal token lists the SSO one with its organization and its 14-day expiry.
    const listed = await w.reviewer.client.GET('/v1/user/tokens');
    const sso = listed.data!.items.find((item) => item.label === 'SSO: Own IdP')!;
    expect(sso.organization).toBe(w.orgA.id);
    expect(new Date(sso.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 13 * 86_400_000);
  });

  it('does not follow its user into an organization they join later', async () => {
    const w = await buildWorld();
    const member = await createMember(server(), w.orgA, 'read');
    const token = await signedIn(w.provider, member.user.email);
    const invite = await createInvite(server(), w.orgB, w.adminB, 'edit');
    const joined = await member.client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', { params: { path: { organizationId: w.orgB.id, inviteId: invite.id } } });
    expect(joined.response.status).toBe(201);

    expect((await member.client.GET('/v1/spaces/{spaceId}', spacePath(w.privateB.id))).response.status).toBe(200);
    expect((await token.GET('/v1/spaces/{spaceId}', spacePath(w.privateB.id))).response.status).toBe(404);
    expect((await token.GET('/v1/orgs')).data?.items.map((item) => item.id)).toEqual([w.orgA.id]);
  });
});

describe('an organization’s identity provider signs in only its members and the accounts it created', () => {
  it('attack 2: after listing a domain, the admin’s provider cannot take over an existing account of no organization (403); nothing is created', async () => {
    const w = await buildWorld();
    const outsider = await createUser(server(), { email: `outsider-${unique()}@example.com` });
    const patched = await w.adminA.client.PATCH('/v1/orgs/{organizationId}', { ...orgPath(w.orgA.id), body: { emailDomains: ['example.com'] } });
    expect(patched.response.status).toBe(200);

    const before = await tokensOf(outsider.user.id);
    const refused = await signIn(w.provider, outsider.user.email);
    expect(refused.status).toBe(403);
    expect(await membershipsOf(outsider.user.id)).toEqual([]);
    expect(await tokensOf(outsider.user.id)).toEqual(before);
  });

  it('refuses an account another organization’s provider created, even in its own domain and once it belongs to no organization (403)', async () => {
    const t = server();
    const domain = `shared-${unique()}.test`;
    const [adminA, adminB] = [await createUser(t), await createUser(t)];
    const orgA = await createOrganization(t, adminA, { emailDomains: [domain] });
    const orgB = await createOrganization(t, adminB, { emailDomains: [domain] });
    const email = `newcomer@${domain}`;
    await signedIn(await registerProvider(adminB, orgB), email);
    const created = (await t.db.selectFrom('users').select(['id', 'createdByOrganizationId']).where('email', '=', email).executeTakeFirstOrThrow())!;
    expect(created.createdByOrganizationId).toBe(orgB.id);
    const providerA = await registerProvider(adminA, orgA);
    expect((await signIn(providerA, email)).status).toBe(403);

    await adminB.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId: orgB.id, userId: created.id } } });
    expect(await membershipsOf(created.id)).toEqual([]);
    expect((await signIn(providerA, email)).status).toBe(403);
    expect(await membershipsOf(created.id)).toEqual([]);
  });

  it('signs in again an account it created, after its member was removed', async () => {
    const t = server();
    const domain = `own-${unique()}.test`;
    const admin = await createUser(t);
    const organization = await createOrganization(t, admin, { emailDomains: [domain] });
    const provider = await registerProvider(admin, organization);
    const email = `newcomer@${domain}`;
    const first = await signedIn(provider, email);
    const me = (await first.GET('/v1/user')).data!;

    const removed = await admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId: organization.id, userId: me.id } } });
    expect(removed.response.status).toBe(204);
    expect((await first.GET('/v1/user')).response.status).toBe(401);

    const again = await signedIn(provider, email);
    expect((await again.GET('/v1/user')).data?.id).toBe(me.id);
    expect(await membershipsOf(me.id)).toEqual([organization.id]);
  });
});

describe('a member’s tokens scoped to an organization end with their membership', () => {
  it('removed by an admin, or leaving: the scoped token stops at once (401) and is deleted; other tokens stay', async () => {
    const w = await buildWorld();
    const removedMember = await createMember(server(), w.orgA, 'edit');
    const removedToken = await signedIn(w.provider, removedMember.user.email);
    const leaver = w.reviewer;
    const leaverToken = await signedIn(w.provider, leaver.user.email);
    // Both tokens are cached by now.
    expect((await removedToken.GET('/v1/user')).response.status).toBe(200);
    expect((await leaverToken.GET('/v1/user')).response.status).toBe(200);

    const memberPath = (userId: string) => ({ params: { path: { organizationId: w.orgA.id, userId } } });
    expect((await w.adminA.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(removedMember.user.id))).response.status).toBe(204);
    expect((await removedToken.GET('/v1/user')).response.status).toBe(401);
    // A member leaves with the scoped token itself.
    expect((await leaverToken.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath(leaver.user.id))).response.status).toBe(204);
    expect((await leaverToken.GET('/v1/user')).response.status).toBe(401);

    for (const who of [removedMember, leaver]) {
      expect((await tokensOf(who.user.id)).map((row) => row.organizationId)).toEqual([null]);
      expect((await who.client.GET('/v1/user')).response.status).toBe(200);
    }
    expect((await leaver.client.GET('/v1/spaces/{spaceId}', spacePath(w.privateB.id))).response.status).toBe(200);
  });
});

describe('a token never creates one that lives longer than itself', () => {
  it('a new token expires with the calling token by default; a later expiry is a 400; an earlier one is kept', async () => {
    const alice = await createUser(server());
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const { data: limited } = await alice.client.POST('/v1/user/tokens', { body: { label: 'three days', expiresAt } });
    const client = server().client(limited!.token);

    const inherited = await client.POST('/v1/user/tokens', { body: { label: 'child' } });
    expect(inherited.response.status).toBe(201);
    expect(inherited.data?.expiresAt).toBe(expiresAt);

    const later = await client.POST('/v1/user/tokens', { body: { label: 'longer', expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() } });
    expect(later.response.status).toBe(400);
    expect(later.error?.error.issues).toEqual([{ path: '/body/expiresAt', message: `must not be later than the expiry of the token making it (${expiresAt})` }]);

    const earlier = new Date(Date.now() + 86_400_000).toISOString();
    expect((await client.POST('/v1/user/tokens', { body: { label: 'shorter', expiresAt: earlier } })).data?.expiresAt).toBe(earlier);
    const labels = (await alice.client.GET('/v1/user/tokens')).data!.items.map((item) => item.label);
    expect(labels.sort()).toEqual(['child', 'shorter', 'test', 'three days']);
  });
});
