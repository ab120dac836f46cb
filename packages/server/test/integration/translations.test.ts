// Translation settings: list, create, read, replace, delete; languages as canonical BCP 47 tags.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/db/schema.js';
import { useTestServer } from '../support/harness.js';
import { createMember, createOrganizationWithAdmin, type TestUser } from '../support/factories.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const settingsPath = (organizationId: string, translationSettingsId: string) => ({ params: { path: { organizationId, translationSettingsId } } });
const NON_ADMIN: Role[] = ['create', 'review', 'edit', 'comment', 'read'];

function expectedSettings(organizationId: string, id: string, fields: { title: string; languages: string[] }, permissions = { view: true, edit: true }) {
  return {
    object: 'translation-settings',
    id,
    ...fields,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    permissions,
    urls: { location: `http://api.test/v1/orgs/${organizationId}/translations/${id}` },
  };
}

async function createSettings(admin: TestUser, organizationId: string, body: { title: string; languages?: string[] }) {
  const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(organizationId), body });
  expect(response.status).toBe(201);
  return data!;
}

describe('POST /v1/orgs/{organizationId}/translations', () => {
  it('400 for every limit and pattern, naming the field', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, '/body/title'],
      [{ title: '' }, '/body/title'],
      [{ title: 'x'.repeat(101) }, '/body/title'],
      [{ title: 'Docs', languages: 'fr' }, '/body/languages'],
      [{ title: 'Docs', languages: ['f'] }, '/body/languages/0'],
      [{ title: 'Docs', languages: ['fr', 'e'.repeat(65)] }, '/body/languages/1'],
      [{ title: 'Docs', languages: ['fr', 'en US'] }, '/body/languages/1'],
      [{ title: 'Docs', languages: Array.from({ length: 101 }, (_, i) => `x${i}`) }, '/body/languages'],
      [{ title: 'Docs', extra: 1 }, '/body/extra'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(organization.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path), JSON.stringify(body)).toContain(path);
    }
  });

  it('400 for a tag that is not BCP 47, or repeats another once canonical; nothing is created', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const malformed = await admin.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(organization.id), body: { title: 'Docs', languages: ['fr', 'x-private'] } });
    expect(malformed.response.status).toBe(400);
    expect(malformed.error?.error.issues).toEqual([{ path: '/body/languages/1', message: '"x-private" is not a well-formed BCP 47 language tag' }]);
    const repeated = await admin.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(organization.id), body: { title: 'Docs', languages: ['pt-BR', 'fr', 'pt-br'] } });
    expect(repeated.response.status).toBe(400);
    expect(repeated.error?.error.issues).toEqual([{ path: '/body/languages/2', message: '"pt-br" repeats /body/languages/0 (both are pt-BR)' }]);
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/translations', orgPath(organization.id));
    expect(data).toEqual({ items: [], count: 0 });
  });

  it('404 for another organization; 403 below admin and for guests', async () => {
    const { organization } = await createOrganizationWithAdmin(server());
    const stranger = await createOrganizationWithAdmin(server());
    const body = { title: 'Docs' };
    expect((await stranger.admin.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(organization.id), body })).response.status).toBe(404);
    for (const role of [...NON_ADMIN, null]) {
      const member = await createMember(server(), organization, role);
      expect((await member.client.POST('/v1/orgs/{organizationId}/translations', { ...orgPath(organization.id), body })).response.status, `role ${role}`).toBe(403);
    }
  });

  it('creates the settings with canonical languages, in the order given', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const created = await createSettings(admin, organization.id, { title: 'Product documentation', languages: ['fr', 'en-us', 'zh-hant-tw', 'es-419'] });
    expect(created).toEqual(expectedSettings(organization.id, created.id, { title: 'Product documentation', languages: ['fr', 'en-US', 'zh-Hant-TW', 'es-419'] }));
    const bare = await createSettings(admin, organization.id, { title: 'Later' });
    expect(bare).toEqual(expectedSettings(organization.id, bare.id, { title: 'Later', languages: [] }));
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, created.id));
    expect(data).toEqual(created);
  });
});

describe('GET /v1/orgs/{organizationId}/translations', () => {
  it('400 for an invalid limit or page', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const limit = await admin.client.GET('/v1/orgs/{organizationId}/translations', { params: { path: { organizationId: organization.id }, query: { limit: 1001 } } });
    expect(limit.error?.error.issues?.map((issue) => issue.path)).toEqual(['/query/limit']);
    const page = await admin.client.GET('/v1/orgs/{organizationId}/translations', { params: { path: { organizationId: organization.id }, query: { page: 'forged' } } });
    expect(page.response.status).toBe(400);
  });

  it('lists newest first, in pages, with the reader’s permissions', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const older = await createSettings(admin, organization.id, { title: 'Older', languages: ['de'] });
    const newer = await createSettings(admin, organization.id, { title: 'Newer' });
    await t.db.updateTable('translationSettings').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', older.id).execute();
    const other = await createOrganizationWithAdmin(t);
    await createSettings(other.admin, other.organization.id, { title: 'Elsewhere' });

    const reader = await createMember(t, organization, 'read');
    const { data } = await reader.client.GET('/v1/orgs/{organizationId}/translations', orgPath(organization.id));
    const readerPermissions = { view: true, edit: false };
    expect(data).toEqual({
      count: 2,
      items: [
        expectedSettings(organization.id, newer.id, { title: 'Newer', languages: [] }, readerPermissions),
        { ...expectedSettings(organization.id, older.id, { title: 'Older', languages: ['de'] }, readerPermissions), createdAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    const first = await reader.client.GET('/v1/orgs/{organizationId}/translations', { params: { path: { organizationId: organization.id }, query: { limit: 1 } } });
    expect(first.data?.items.map((item) => item.id)).toEqual([newer.id]);
    const second = await reader.client.GET('/v1/orgs/{organizationId}/translations', { params: { path: { organizationId: organization.id }, query: { limit: 1, page: first.data!.next!.page } } });
    expect(second.data?.items.map((item) => item.id)).toEqual([older.id]);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('GET /v1/orgs/{organizationId}/translations/{translationSettingsId}', () => {
  it('404 for an unknown id and for another organization’s; 403 for guests', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const settings = await createSettings(admin, organization.id, { title: 'Docs' });
    const stranger = await createOrganizationWithAdmin(server());
    expect((await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, 'unknownSettingsId00'))).response.status).toBe(404);
    // Another organization's id through the caller's own organization reads as absent too.
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(stranger.organization.id, settings.id))).response.status).toBe(404);
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).response.status).toBe(404);
    const guest = await createMember(server(), organization, null);
    expect((await guest.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).response.status).toBe(403);
    const path = await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, 'bad id!'));
    expect(path.error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/translationSettingsId']);
  });
});

describe('PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}', () => {
  it('400 for the limits and for languages; nothing changes', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const settings = await createSettings(admin, organization.id, { title: 'Docs', languages: ['fr'] });
    for (const [body, path] of [
      [{}, '/body/title'],
      [{ title: 'x'.repeat(101) }, '/body/title'],
      [{ title: 'Docs', languages: ['de', 'DE'] }, '/body/languages/1'],
      [{ title: 'Docs', languages: ['12345678901'] }, '/body/languages/0'],
    ] as Array<[Record<string, unknown>, string]>) {
      const { response, error } = await admin.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...settingsPath(organization.id, settings.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path)).toContain(path);
    }
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id));
    expect(data).toEqual(settings);
  });

  // A stranger's 404 and each role's 403 are the sweep's and the matrix's.
  it('404 for an unknown id or another organization’s under one’s own; a refusal below admin changes nothing', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const settings = await createSettings(admin, organization.id, { title: 'Docs' });
    const stranger = await createOrganizationWithAdmin(server());
    const body = { title: 'Renamed' };
    expectRefusal(await admin.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...settingsPath(organization.id, 'unknownSettingsId00'), body }), 404, 'Translation settings not found');
    expectRefusal(await stranger.admin.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...settingsPath(stranger.organization.id, settings.id), body }), 404, 'Translation settings not found');
    const creator = await createMember(server(), organization, 'create');
    expect((await creator.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...settingsPath(organization.id, settings.id), body })).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).data?.title).toBe('Docs');
  });

  it('sets the title, replaces the languages when given and keeps them when not', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const settings = await createSettings(admin, organization.id, { title: 'Docs', languages: ['fr', 'de'] });
    await t.db.updateTable('translationSettings').set({ updatedAt: '2026-01-01T00:00:00.000Z' }).where('id', '=', settings.id).execute();
    const put = (body: { title: string; languages?: string[] }) =>
      admin.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...settingsPath(organization.id, settings.id), body });

    const renamed = await put({ title: 'Handbook' });
    expect(renamed.response.status).toBe(200);
    expect(renamed.data).toEqual(expectedSettings(organization.id, settings.id, { title: 'Handbook', languages: ['fr', 'de'] }));
    expect(renamed.data!.createdAt).toBe(settings.createdAt);
    expect(renamed.data!.updatedAt).not.toBe('2026-01-01T00:00:00.000Z');

    expect((await put({ title: 'Handbook', languages: ['ja', 'pt-br'] })).data?.languages).toEqual(['ja', 'pt-BR']);
    expect((await put({ title: 'Handbook', languages: [] })).data?.languages).toEqual([]);
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id));
    expect(data).toEqual(expectedSettings(organization.id, settings.id, { title: 'Handbook', languages: [] }));
  });
});

describe('DELETE /v1/orgs/{organizationId}/translations/{translationSettingsId}', () => {
  it('404 for an unknown id or another organization’s under one’s own; a refusal below admin deletes nothing', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const settings = await createSettings(admin, organization.id, { title: 'Docs' });
    const stranger = await createOrganizationWithAdmin(server());
    expectRefusal(await admin.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, 'unknownSettingsId00')), 404, 'Translation settings not found');
    expectRefusal(await stranger.admin.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(stranger.organization.id, settings.id)), 404, 'Translation settings not found');
    const creator = await createMember(server(), organization, 'create');
    expect((await creator.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).response.status).toBe(200);
  });

  it('deletes them (205); they read as absent afterwards', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const settings = await createSettings(admin, organization.id, { title: 'Docs' });
    const kept = await createSettings(admin, organization.id, { title: 'Kept' });
    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id));
    expect(response.status).toBe(205);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).response.status).toBe(404);
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', settingsPath(organization.id, settings.id))).response.status).toBe(404);
    const { data } = await admin.client.GET('/v1/orgs/{organizationId}/translations', orgPath(organization.id));
    expect(data?.items.map((item) => item.id)).toEqual([kept.id]);
  });
});
