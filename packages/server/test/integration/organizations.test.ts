import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../support/harness.js';
import { addMember, createMember, createOrganization, createOrganizationWithAdmin, createUser } from '../support/factories.js';

const server = useTestServer();

/** Orders rows deterministically: rows made within one millisecond would otherwise tie. */
async function setCreatedAt(t: TestServer, organizationId: string, createdAt: string) {
  await t.db.updateTable('organizations').set({ createdAt } as never).where('id', '=', organizationId).execute();
}

const fixedFields = {
  object: 'organization',
  type: 'business',
  plan: 'enterprise',
  internal_isOnNewTrial: true,
  billing: { interval: 'yearly', endDate: null, hasPaymentFailed: false, isScheduledToCancel: false },
  trial: { status: 'notapplicable' },
};
const allPermissions = {
  view: true, admin: true, ownTeam: true, createContent: true, createOpenAPISpec: true,
  viewBilling: true, listMembers: true, listTeams: true, listIntegrations: true,
};

describe('POST /v1/orgs', () => {
  it('400 naming each invalid field', async () => {
    const alice = await createUser(server());
    const { error, response } = await alice.client.POST('/v1/orgs', {
      body: { title: 'A', hostname: 'Bad_Host', emailDomains: ['Example.COM'] },
    });
    expect(response.status).toBe(400);
    expect(error?.error.issues?.map((issue) => issue.path).sort()).toEqual(['/body/emailDomains/0', '/body/hostname', '/body/title']);
    expect((await alice.client.GET('/v1/orgs')).data?.count).toBe(0);
  });

  it('creates the organization with the caller as admin', async () => {
    const t = server();
    const alice = await createUser(t);
    const { data, response } = await alice.client.POST('/v1/orgs', {
      body: { title: 'Acme Docs', useCase: 'productDocs', emailDomains: ['acme.test'], hostname: 'acme-docs' },
    });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      ...fixedFields,
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Acme Docs',
      createdAt: expect.any(String),
      emailDomains: ['acme.test'],
      hostname: 'acme-docs',
      useCase: 'productDocs',
      defaultRole: 'read',
      sso: false,
      ai: false,
      inviteLinks: true,
      urls: { location: `http://api.test/v1/orgs/${data!.id}`, app: `http://app.test/o/${data!.id}` },
      permissions: allPermissions,
    });
    const member = await t.db.selectFrom('organizationMembers').selectAll().where('organizationId', '=', data!.id).execute();
    expect(member).toEqual([expect.objectContaining({ userId: alice.user.id, role: 'admin' })]);
    expect((await alice.client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: data!.id } } })).data).toEqual(data);
  });

  it('409 for a hostname another organization uses', async () => {
    const t = server();
    const alice = await createUser(t);
    await alice.client.POST('/v1/orgs', { body: { title: 'First', hostname: 'taken-name' } });
    const { error, response } = await alice.client.POST('/v1/orgs', { body: { title: 'Second', hostname: 'taken-name' } });
    expect(response.status).toBe(409);
    expect(error?.error.message).toMatch(/hostname/);
  });
});

describe('GET /v1/orgs', () => {
  it('400 for an unknown parameter', async () => {
    const alice = await createUser(server());
    const { response } = await alice.client.GET('/v1/orgs', { params: { query: { sort: 'x' } as never } });
    expect(response.status).toBe(400);
  });

  it('lists the caller’s organizations (guest included) with their permissions, newest first, in pages', async () => {
    const t = server();
    const alice = await createUser(t);
    const stranger = await createUser(t);
    const owned = await createOrganization(t, alice, { title: 'Owned' });
    const other = await createOrganization(t, stranger, { title: 'Guest of' });
    await addMember(t, other, alice, null);
    await createOrganization(t, stranger, { title: 'Not mine' });
    await setCreatedAt(t, owned.id, '2026-01-01T00:00:00.000Z');
    await setCreatedAt(t, other.id, '2026-02-01T00:00:00.000Z');

    const first = await alice.client.GET('/v1/orgs', { params: { query: { limit: 1 } } });
    expect(first.data?.count).toBe(2);
    expect(first.data?.items).toHaveLength(1);
    expect(first.data?.items[0]).toMatchObject({ id: other.id, title: 'Guest of' });
    expect(first.data?.items[0]?.permissions).toEqual({
      view: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false,
      viewBilling: false, listMembers: false, listTeams: false, listIntegrations: false,
    });
    const second = await alice.client.GET('/v1/orgs', { params: { query: { limit: 1, page: first.data!.next!.page } } });
    expect(second.data?.items.map((o) => o.id)).toEqual([owned.id]);
    expect(second.data?.items[0]?.permissions).toEqual(allPermissions);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('GET /v1/orgs/{organizationId}', () => {
  it('400 for a malformed id', async () => {
    const alice = await createUser(server());
    const { response } = await alice.client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: '%20' } } });
    expect(response.status).toBe(400);
  });

  it('404 for a non-member, as for an unknown id', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    for (const organizationId of [organization.id, 'doesNotExist00000000']) {
      const { error, response } = await outsider.client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId } } });
      expect(response.status).toBe(404);
      expect(error).toEqual({ error: { code: 404, message: 'Organization not found' } });
    }
  });

  it('reads as each role, with the permissions of that role', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const expected = {
      read: { createContent: false, listMembers: true },
      create: { createContent: true, listMembers: true },
      guest: { createContent: false, listMembers: false },
    } as const;
    for (const [role, flags] of Object.entries(expected)) {
      const member = await createMember(t, organization, role === 'guest' ? null : (role as 'read' | 'create'));
      const { data } = await member.client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: organization.id } } });
      expect(data?.permissions).toMatchObject({ view: true, admin: false, ...flags });
      expect(data?.id).toBe(organization.id);
    }
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  const path = (organizationId: string) => ({ params: { path: { organizationId } } });

  it('400 for invalid fields, changing nothing', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const { error, response } = await admin.client.PATCH('/v1/orgs/{organizationId}', {
      ...path(organization.id),
      body: { title: 'x'.repeat(256), logo: 'ftp://example.com/logo.png', defaultRole: 'owner' as never },
    });
    expect(response.status).toBe(400);
    expect(error?.error.issues?.map((issue) => issue.path)).toEqual(expect.arrayContaining(['/body/title', '/body/logo', '/body/defaultRole']));
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}', path(organization.id));
    expect(data?.title).toBe(organization.title);
  });

  it('400 for a defaultContent site that is not a site of the organization', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { error, response } = await admin.client.PATCH('/v1/orgs/{organizationId}', {
      ...path(organization.id),
      body: { defaultContent: { type: 'site', site: 'noSuchSite0000000000' } },
    });
    expect(response.status).toBe(400);
    expect(error?.error.issues).toEqual([{ path: '/body/defaultContent/site', message: 'is not a site of this organization' }]);
  });

  it('404 for a non-member; 403 for a member below admin', async () => {
    const t = server();
    const { organization } = await createOrganizationWithAdmin(t);
    const outsider = await createUser(t);
    expect((await outsider.client.PATCH('/v1/orgs/{organizationId}', { ...path(organization.id), body: { title: 'Hacked' } })).response.status).toBe(404);
    for (const role of ['create', 'read', null] as const) {
      const member = await createMember(t, organization, role);
      const { error, response } = await member.client.PATCH('/v1/orgs/{organizationId}', { ...path(organization.id), body: { title: 'Hacked' } });
      expect(response.status).toBe(403);
      expect(error?.error.code).toBe(403);
    }
  });

  it('409 for a hostname another organization uses', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await admin.client.POST('/v1/orgs', { body: { title: 'Other', hostname: 'claimed' } });
    const { response } = await admin.client.PATCH('/v1/orgs/{organizationId}', { ...path(organization.id), body: { hostname: 'claimed' } });
    expect(response.status).toBe(409);
  });

  it('updates the given fields and leaves the rest', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const { data, response } = await admin.client.PATCH('/v1/orgs/{organizationId}', {
      ...path(organization.id),
      body: {
        title: 'Renamed',
        emailDomains: ['renamed.test'],
        hostname: 'renamed',
        defaultRole: 'comment',
        logo: 'https://cdn.example.com/logo.png',
        sso: true,
        ai: true,
        inviteLinks: false,
      },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      ...fixedFields,
      id: organization.id,
      title: 'Renamed',
      createdAt: organization.createdAt.toISOString(),
      emailDomains: ['renamed.test'],
      hostname: 'renamed',
      defaultRole: 'comment',
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { location: `http://api.test/v1/orgs/${organization.id}`, app: `http://app.test/o/${organization.id}`, logo: 'https://cdn.example.com/logo.png' },
      permissions: allPermissions,
    });
    const cleared = await admin.client.PATCH('/v1/orgs/{organizationId}', { ...path(organization.id), body: { logo: null, hostname: null, defaultRole: null } });
    expect(cleared.data).toMatchObject({ title: 'Renamed', defaultRole: null, sso: true });
    expect(cleared.data?.hostname).toBeUndefined();
    expect(cleared.data?.urls.logo).toBeUndefined();
    const { data: readBack } = await admin.client.GET('/v1/orgs/{organizationId}', path(organization.id));
    expect(readBack).toEqual(cleared.data);
  });

  it('an empty body changes nothing', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const { data, response } = await admin.client.PATCH('/v1/orgs/{organizationId}', { ...path(organization.id), body: {} });
    expect(response.status).toBe(200);
    expect(data?.title).toBe(organization.title);
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  it('400 for a domain that is too long', async () => {
    const alice = await createUser(server());
    const { response } = await alice.client.GET('/v1/email-domains/{emailDomain}/orgs', {
      params: { path: { emailDomain: `${'a'.repeat(260)}.test` } },
    });
    expect(response.status).toBe(400);
  });

  it('shows member organizations, and joinable ones for the caller’s own domain only', async () => {
    const t = server();
    const owner = await createUser(t, { email: 'owner@corp.test' });
    const joinable = await createOrganization(t, owner, { title: 'Corp', emailDomains: ['corp.test'] });
    const alsoCorp = await createOrganization(t, owner, { title: 'Corp 2', emailDomains: ['corp.test', 'other.test'] });
    await createOrganization(t, owner, { title: 'Unrelated', emailDomains: ['unrelated.test'] });
    await setCreatedAt(t, joinable.id, '2026-01-01T00:00:00.000Z');
    await setCreatedAt(t, alsoCorp.id, '2026-02-01T00:00:00.000Z');

    const colleague = await createUser(t, { email: 'colleague@Corp.test' });
    const own = await colleague.client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: 'CORP.test' } } });
    expect(own.data?.organizations.map((o) => o.id)).toEqual([alsoCorp.id, joinable.id]);
    expect(own.data?.organizations[0]?.permissions.view).toBe(false);

    // Another domain: only organizations the caller belongs to.
    const foreign = await colleague.client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: 'other.test' } } });
    expect(foreign.data).toEqual({ organizations: [] });
    await addMember(t, alsoCorp, colleague, 'read');
    const asMember = await colleague.client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: 'other.test' } } });
    expect(asMember.data?.organizations.map((o) => o.id)).toEqual([alsoCorp.id]);
    expect(asMember.data?.organizations[0]?.permissions.view).toBe(true);
  });
});
