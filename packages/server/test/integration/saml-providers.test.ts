// SAML providers: list, create, read, change, delete; and the SSO login options any user may read.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, createSamlProvider, createTeam, createUser, type TestUser } from '../support/factories.js';
import { IDP_CERTIFICATE, IDP_ENTITY_ID, IDP_SSO_URL } from '../support/saml.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const providerPath = (organizationId: string, samlProviderId: string) => ({ params: { path: { organizationId, samlProviderId } } });
const CERTIFICATE = IDP_CERTIFICATE.trim();

function expectedService(organizationId: string, id: string) {
  const entityID = `http://api.test/sso/orgs/${organizationId}/saml/${id}`;
  return { entityID, acsURL: `${entityID}/acs`, startURL: `${entityID}/start` };
}

/** The whole SamlProvider body: pending with only a label unless `fields` say otherwise. */
function expectedProvider(organizationId: string, id: string, label: string, fields: Record<string, unknown> = {}) {
  return {
    object: 'saml-provider',
    id,
    label,
    defaultRole: null,
    createdAt: expect.any(String),
    status: 'pending',
    service: expectedService(organizationId, id),
    urls: { location: `http://api.test/v1/orgs/${organizationId}/saml/${id}` },
    ...fields,
  };
}

const ACTIVE_FIELDS = { entityID: IDP_ENTITY_ID, ssoURL: IDP_SSO_URL, certificate: CERTIFICATE, status: 'active' };

function expectedTeam(id: string, title: string, overrides: Record<string, unknown> = {}) {
  return { object: 'team', id, title, members: 0, spaces: 0, createdAt: expect.any(String), permissions: { view: true, admin: true }, ...overrides };
}

async function adminAndOrganization() {
  return createOrganizationWithAdmin(server());
}

describe('GET /v1/orgs/{organizationId}/saml', () => {
  it('400 for an invalid limit or page', async () => {
    const { admin, organization } = await adminAndOrganization();
    const limit = await admin.client.GET('/v1/orgs/{organizationId}/saml', { params: { path: { organizationId: organization.id }, query: { limit: 0 } } });
    expect(limit.response.status).toBe(400);
    expect(limit.error?.error.issues?.map((issue) => issue.path)).toEqual(['/query/limit']);
    const page = await admin.client.GET('/v1/orgs/{organizationId}/saml', { params: { path: { organizationId: organization.id }, query: { page: 'forged' } } });
    expect(page.response.status).toBe(400);
  });

  it('lists the providers newest first, with their default teams, in pages', async () => {
    const t = server();
    const { admin, organization } = await adminAndOrganization();
    const team = await createTeam(t, organization, [admin], 'Engineering');
    const older = await createSamlProvider(t, organization, { label: 'Okta', defaultTeamId: team.id, defaultRole: 'edit' });
    const newer = await createSamlProvider(t, organization, { label: 'Draft', entityId: null, ssoUrl: null, certificate: null });
    await t.db.updateTable('samlProviders').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', older.id).execute();
    await createSamlProvider(t, (await adminAndOrganization()).organization);

    const { data, response } = await admin.client.GET('/v1/orgs/{organizationId}/saml', orgPath(organization.id));
    expect(response.status).toBe(200);
    expect(data).toEqual({
      count: 2,
      items: [
        expectedProvider(organization.id, newer.id, 'Draft'),
        expectedProvider(organization.id, older.id, 'Okta', {
          ...ACTIVE_FIELDS,
          defaultRole: 'edit',
          defaultTeam: expectedTeam(team.id, 'Engineering', { members: 1 }),
          createdAt: '2026-01-01T00:00:00.000Z',
        }),
      ],
    });
    const first = await admin.client.GET('/v1/orgs/{organizationId}/saml', { params: { path: { organizationId: organization.id }, query: { limit: 1 } } });
    expect(first.data?.items.map((item) => item.id)).toEqual([newer.id]);
    const second = await admin.client.GET('/v1/orgs/{organizationId}/saml', { params: { path: { organizationId: organization.id }, query: { limit: 1, page: first.data!.next!.page } } });
    expect(second.data?.items.map((item) => item.id)).toEqual([older.id]);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('POST /v1/orgs/{organizationId}/saml', () => {
  const create = (who: TestUser, organizationId: string, body: Record<string, unknown>) =>
    who.client.POST('/v1/orgs/{organizationId}/saml', { ...orgPath(organizationId), body: body as never });

  it('400 with the validator’s issues', async () => {
    const { admin, organization } = await adminAndOrganization();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, '/body/label'],
      [{ label: '' }, '/body/label'],
      [{ label: 'x'.repeat(31) }, '/body/label'],
      [{ label: 'x', entityID: 'e'.repeat(1025) }, '/body/entityID'],
      [{ label: 'x', certificate: 'c'.repeat(10001) }, '/body/certificate'],
      [{ label: 'x', ssoURL: 'ftp://idp.example.test/sso' }, '/body/ssoURL'],
      [{ label: 'x', ssoURL: `https://idp.example.test/${'p'.repeat(2048)}` }, '/body/ssoURL'],
      [{ label: 'x', defaultRole: 'owner' }, '/body/defaultRole'],
      [{ label: 'x', defaultTeam: 'bad id!' }, '/body/defaultTeam'],
      [{ label: 'x', status: 'active' }, '/body/status'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await create(admin, organization.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path), JSON.stringify(body)).toContain(path);
    }
  });

  it('400 for a certificate that is not an X.509 PEM certificate, an unusable address, a team of another organization', async () => {
    const t = server();
    const { admin, organization } = await adminAndOrganization();
    const publicKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const body = CERTIFICATE.split('\n').slice(1, -1).join('\n');
    const notCertificates = [
      'not a certificate',
      body, // the base64 without its PEM lines
      publicKey,
      `-----BEGIN CERTIFICATE-----\nTm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----`,
      `${CERTIFICATE}\n${CERTIFICATE}`,
    ];
    for (const certificate of notCertificates) {
      const { response, error } = await create(admin, organization.id, { label: 'x', certificate });
      expect(response.status, certificate.slice(0, 40)).toBe(400);
      expect(error?.error.issues).toEqual([{ path: '/body/certificate', message: expect.stringContaining('X.509') }]);
    }
    const address = await create(admin, organization.id, { label: 'x', ssoURL: 'https://' });
    expect(address.response.status).toBe(400);
    expect(address.error?.error.issues?.map((issue) => issue.path)).toEqual(['/body/ssoURL']);
    const foreignTeam = await createTeam(t, (await adminAndOrganization()).organization);
    for (const defaultTeam of [foreignTeam.id, 'NoSuchTeam']) {
      const { response, error } = await create(admin, organization.id, { label: 'x', defaultTeam });
      expect(response.status).toBe(400);
      expect(error?.error.issues).toEqual([{ path: '/body/defaultTeam', message: 'must be a team of the organization' }]);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/saml', orgPath(organization.id))).data?.count).toBe(0);
  });

  // A stranger's 404 and each role's 403 are the sweep's and the matrix's (also for the operations below).
  it('a refusal below admin creates nothing', async () => {
    const { admin, organization } = await adminAndOrganization();
    const creator = await createMember(server(), organization, 'create');
    expect((await create(creator, organization.id, { label: 'x' })).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/saml', orgPath(organization.id))).data).toEqual({ items: [], count: 0 });
  });

  it('201 with only a label: pending, new members as guests', async () => {
    const { admin, organization } = await adminAndOrganization();
    const { data, response } = await create(admin, organization.id, { label: 'Okta' });
    expect(response.status).toBe(201);
    expect(data).toEqual(expectedProvider(organization.id, data!.id, 'Okta'));
    expect(new Date(data!.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const read = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, data!.id));
    expect(read.data).toEqual(data);
  });

  it('201 with every field: active, with the default team embedded', async () => {
    const t = server();
    const { admin, organization } = await adminAndOrganization();
    const team = await createTeam(t, organization, [], 'Everyone');
    const body = {
      label: 'Company IdP',
      entityID: IDP_ENTITY_ID,
      ssoURL: IDP_SSO_URL,
      certificate: `\n${IDP_CERTIFICATE}\n`,
      defaultTeam: team.id,
      defaultRole: 'read',
    };
    const { data, response } = await create(admin, organization.id, body);
    expect(response.status).toBe(201);
    expect(data).toEqual(
      expectedProvider(organization.id, data!.id, 'Company IdP', { ...ACTIVE_FIELDS, defaultRole: 'read', defaultTeam: expectedTeam(team.id, 'Everyone') }),
    );
    const read = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, data!.id));
    expect(read.data).toEqual(data);
  });
});

describe('GET /v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
  it('400 for a malformed id', async () => {
    const { admin, organization } = await adminAndOrganization();
    const { response, error } = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, 'bad id!'));
    expect(response.status).toBe(400);
    expect(error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/samlProviderId']);
  });

  it('404 for another organization’s provider under one’s own, and for an unknown one', async () => {
    const { admin, organization } = await adminAndOrganization();
    const other = await adminAndOrganization();
    const theirs = await createSamlProvider(server(), other.organization);
    expectRefusal(await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, theirs.id)), 404, 'SAML provider not found');
    expectRefusal(await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, 'NoSuchProvider')), 404, 'SAML provider not found');
  });

  it('200 with the provider', async () => {
    const { admin, organization } = await adminAndOrganization();
    const provider = await createSamlProvider(server(), organization, { label: 'Okta', defaultRole: 'comment' });
    const { data, response } = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, provider.id));
    expect(response.status).toBe(200);
    expect(data).toEqual(expectedProvider(organization.id, provider.id, 'Okta', { ...ACTIVE_FIELDS, defaultRole: 'comment' }));
  });
});

describe('PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
  const patch = (who: TestUser, organizationId: string, id: string, body: Record<string, unknown>) =>
    who.client.PATCH('/v1/orgs/{organizationId}/saml/{samlProviderId}', { ...providerPath(organizationId, id), body: body as never });

  it('400 with the validator’s issues, and for an invalid certificate or team; nothing changes', async () => {
    const { admin, organization } = await adminAndOrganization();
    const provider = await createSamlProvider(server(), organization, { label: 'Okta' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ label: null }, '/body/label'],
      [{ label: '' }, '/body/label'],
      [{ ssoURL: 'mailto:admin@example.test' }, '/body/ssoURL'],
      [{ entityID: 42 }, '/body/entityID'],
      [{ unknown: 1 }, '/body/unknown'],
      [{ certificate: 'nope' }, '/body/certificate'],
      [{ defaultTeam: 'NoSuchTeam' }, '/body/defaultTeam'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await patch(admin, organization.id, provider.id, { label: 'Changed', ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path), JSON.stringify(body)).toContain(path);
    }
    const read = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, provider.id));
    expect(read.data?.label).toBe('Okta');
  });

  it('404 for another organization’s provider or an unknown one; a refusal below admin changes nothing', async () => {
    const { admin, organization } = await adminAndOrganization();
    const theirs = await createSamlProvider(server(), (await adminAndOrganization()).organization);
    expectRefusal(await patch(admin, organization.id, theirs.id, { label: 'Mine' }), 404, 'SAML provider not found');
    expectRefusal(await patch(admin, organization.id, 'NoSuchProvider', { defaultTeam: 'NoSuchTeam' }), 404, 'SAML provider not found');
    const mine = await createSamlProvider(server(), organization);
    const read = () => admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, mine.id));
    const before = (await read()).data;
    const creator = await createMember(server(), organization, 'create');
    expect((await patch(creator, organization.id, mine.id, { label: 'Mine' })).response.status).toBe(403);
    expect((await read()).data).toEqual(before);
  });

  it('sets fields until the provider is active; null removes them and makes it pending again', async () => {
    const t = server();
    const { admin, organization } = await adminAndOrganization();
    const team = await createTeam(t, organization, [], 'Newcomers');
    const { data: created } = await admin.client.POST('/v1/orgs/{organizationId}/saml', { ...orgPath(organization.id), body: { label: 'Okta' } });
    const id = created!.id;

    const partial = await patch(admin, organization.id, id, { entityID: IDP_ENTITY_ID, ssoURL: IDP_SSO_URL });
    expect(partial.response.status).toBe(200);
    expect(partial.data).toEqual(expectedProvider(organization.id, id, 'Okta', { entityID: IDP_ENTITY_ID, ssoURL: IDP_SSO_URL }));

    const active = await patch(admin, organization.id, id, { label: 'Okta SSO', certificate: CERTIFICATE, defaultTeam: team.id, defaultRole: 'review' });
    expect(active.data).toEqual(
      expectedProvider(organization.id, id, 'Okta SSO', { ...ACTIVE_FIELDS, defaultRole: 'review', defaultTeam: expectedTeam(team.id, 'Newcomers') }),
    );

    const unchanged = await patch(admin, organization.id, id, {});
    expect(unchanged.data).toEqual(active.data);

    const cleared = await patch(admin, organization.id, id, { certificate: null, defaultTeam: null, defaultRole: null });
    expect(cleared.data).toEqual(expectedProvider(organization.id, id, 'Okta SSO', { entityID: IDP_ENTITY_ID, ssoURL: IDP_SSO_URL }));
    const read = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, id));
    expect(read.data).toEqual(cleared.data);
  });

  it('deleting the default team removes it from the provider', async () => {
    const t = server();
    const { admin, organization } = await adminAndOrganization();
    const team = await createTeam(t, organization);
    const provider = await createSamlProvider(t, organization, { label: 'Okta', defaultTeamId: team.id });
    await admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', { params: { path: { organizationId: organization.id, teamId: team.id } } });
    const read = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, provider.id));
    expect(read.data).toEqual(expectedProvider(organization.id, provider.id, 'Okta', ACTIVE_FIELDS));
  });
});

describe('DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
  it('400 for a malformed id', async () => {
    const { admin, organization } = await adminAndOrganization();
    const { response, error } = await admin.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, 'bad id!'));
    expect(response.status).toBe(400);
    expect(error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/samlProviderId']);
  });

  it('404 for another organization’s provider or an unknown one; a refusal below admin deletes nothing', async () => {
    const { admin, organization } = await adminAndOrganization();
    const other = await adminAndOrganization();
    const theirs = await createSamlProvider(server(), other.organization);
    expectRefusal(await admin.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, theirs.id)), 404, 'SAML provider not found');
    expectRefusal(await admin.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, 'NoSuchProvider')), 404, 'SAML provider not found');
    expect((await other.admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(other.organization.id, theirs.id))).response.status).toBe(200);
    const mine = await createSamlProvider(server(), organization);
    const creator = await createMember(server(), organization, 'create');
    expect((await creator.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, mine.id))).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, mine.id))).response.status).toBe(200);
  });

  it('204, then the provider is gone', async () => {
    const { admin, organization } = await adminAndOrganization();
    const provider = await createSamlProvider(server(), organization);
    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, provider.id));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, provider.id))).response.status).toBe(404);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/saml', orgPath(organization.id))).data).toEqual({ items: [], count: 0 });
  });
});

describe('GET /v1/orgs/{organizationId}/sso', () => {
  it('400 for a malformed id; 404 for an unknown organization', async () => {
    const user = await createUser(server());
    const malformed = await user.client.GET('/v1/orgs/{organizationId}/sso', orgPath('bad id!'));
    expect(malformed.response.status).toBe(400);
    expect(malformed.error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/organizationId']);
    expect((await user.client.GET('/v1/orgs/{organizationId}/sso', orgPath('NoSuchOrganization'))).response.status).toBe(404);
  });

  it('404 for a non-member, as for an unknown organization', async () => {
    const { organization } = await adminAndOrganization();
    await createSamlProvider(server(), organization, { label: 'Okta' });
    const outsider = await createUser(server());
    const { response, error } = await outsider.client.GET('/v1/orgs/{organizationId}/sso', orgPath(organization.id));
    expect(response.status).toBe(404);
    expect(error?.error).toEqual({ code: 404, message: 'Organization not found' });
  });

  it('lists the active providers, newest first, to members (guests and members disabled by SSO enforcement included)', async () => {
    const t = server();
    const { organization } = await adminAndOrganization();
    const older = await createSamlProvider(t, organization, { label: 'Okta' });
    const newer = await createSamlProvider(t, organization, { label: 'Azure' });
    await createSamlProvider(t, organization, { label: 'Pending', certificate: null });
    await createSamlProvider(t, (await adminAndOrganization()).organization, { label: 'Elsewhere' });
    await t.db.updateTable('samlProviders').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', older.id).execute();
    const expected = {
      items: [
        { id: newer.id, label: 'Azure', startURL: expectedService(organization.id, newer.id).startURL },
        { id: older.id, label: 'Okta', startURL: expectedService(organization.id, older.id).startURL },
      ],
    };
    const disabled = await createMember(t, organization, 'edit');
    await t.db.updateTable('organizations').set({ sso: true }).where('id', '=', organization.id).execute();
    for (const who of [disabled, await createMember(t, organization, null), await createMember(t, organization, 'admin')]) {
      const { data, response } = await who.client.GET('/v1/orgs/{organizationId}/sso', orgPath(organization.id));
      expect(response.status).toBe(200);
      expect(data).toEqual(expected);
    }
  });
});
