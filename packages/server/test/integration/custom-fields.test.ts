// Custom fields: an organization's definitions (list, create, read, change, delete) and the values its
// spaces carry (read with `read` on the space, set with `edit`, all or nothing), through transfers,
// duplicates and option changes.
import { createContentWorkspace } from '@content-workspace/sdk';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { customFieldsArea } from '../../src/areas/custom-fields/index.js';
import type { Role } from '../../src/db/schema.js';
import { newId } from '../../src/ids.js';
import { useTestServer } from '../support/harness.js';
import { addMember, createMember, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { expectRefusal } from '../support/refusals.js';

const server = useTestServer();

const orgPath = (organizationId: string) => ({ params: { path: { organizationId } } });
const fieldPath = (organizationId: string, fieldName: string) => ({ params: { path: { organizationId, fieldName } } });
const spacePath = (spaceId: string) => ({ params: { path: { spaceId } } });
const NON_ADMIN: Array<Role | null> = ['create', 'review', 'edit', 'comment', 'read', null];

type Definition = { name: string; type: 'text' | 'number' | 'boolean' | 'tags' | 'select:single' | 'select:multi'; title?: string; description?: string; placeholder?: string; options?: string[] };

function expectedDefinition(organizationId: string, fields: Definition, permissions = { view: true, edit: true }) {
  return {
    id: expect.any(String),
    ...fields,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    urls: { location: `http://api.test/v1/orgs/${organizationId}/custom-fields/${fields.name}` },
    permissions,
  };
}

async function define(admin: TestUser, organizationId: string, body: Definition) {
  const { data, response, error } = await admin.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(organizationId), body });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

/** An organization with one field of each type. */
async function organizationWithFields() {
  const { admin, organization } = await createOrganizationWithAdmin(server());
  const fields: Definition[] = [
    { name: 'owner', type: 'text' },
    { name: 'priority', type: 'number' },
    { name: 'reviewed', type: 'boolean' },
    { name: 'labels', type: 'tags' },
    { name: 'stage', type: 'select:single', options: ['draft', 'beta', 'ga'] },
    { name: 'audience', type: 'select:multi', options: ['developers', 'administrators', 'end-users'] },
  ];
  for (const field of fields) await define(admin, organization.id, field);
  return { admin, organization };
}

const patchValues = (who: TestUser, spaceId: string, values: Record<string, { value: unknown }>) =>
  who.client.PATCH('/v1/spaces/{spaceId}/custom-fields', { ...spacePath(spaceId), body: { values } as never });

async function valuesOf(who: TestUser, spaceId: string) {
  const { data, response } = await who.client.GET('/v1/spaces/{spaceId}/custom-fields', spacePath(spaceId));
  expect(response.status).toBe(200);
  return Object.fromEntries(data!.map((item) => [item.customField.name, item.value]));
}

describe('POST /v1/orgs/{organizationId}/custom-fields', () => {
  it('400 for every limit and pattern, naming the field', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'text' }, '/body/name'],
      [{ name: '', type: 'text' }, '/body/name'],
      [{ name: 'x'.repeat(51), type: 'text' }, '/body/name'],
      [{ name: 'Owner', type: 'text' }, '/body/name'],
      [{ name: 'the owner', type: 'text' }, '/body/name'],
      [{ name: 'owner' }, '/body/type'],
      [{ name: 'owner', type: 'date' }, '/body/type'],
      [{ name: 'owner', type: 'text', title: 'x'.repeat(101) }, '/body/title'],
      [{ name: 'owner', type: 'text', description: 'x'.repeat(201) }, '/body/description'],
      [{ name: 'owner', type: 'text', placeholder: 'x'.repeat(101) }, '/body/placeholder'],
      [{ name: 'stage', type: 'select:single', options: [] }, '/body/options'],
      [{ name: 'stage', type: 'select:single', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, '/body/options'],
      [{ name: 'stage', type: 'select:single', options: [''] }, '/body/options/0'],
      [{ name: 'stage', type: 'select:single', options: ['a', 'x'.repeat(41)] }, '/body/options/1'],
      [{ name: 'stage', type: 'select:single', options: ['a', 'b', 'a'] }, '/body/options'],
      [{ name: 'stage', type: 'select:single' }, '/body/options'],
      [{ name: 'stage', type: 'select:multi' }, '/body/options'],
      [{ name: 'owner', type: 'text', options: ['a'] }, '/body/options'],
      [{ name: 'owner', type: 'text', extra: true }, '/body/extra'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(organization.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path), JSON.stringify(body)).toContain(path);
    }
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields', orgPath(organization.id))).data?.count).toBe(0);
  });

  it('409 for a name already used in the organization, and beyond 100 fields', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await define(admin, organization.id, { name: 'owner', type: 'text' });
    const taken = await admin.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(organization.id), body: { name: 'owner', type: 'number' } });
    expect(taken.response.status).toBe(409);
    expect(taken.error?.error.message).toBe('A custom field named "owner" already exists');
    // Another organization may use the same name.
    const other = await createOrganizationWithAdmin(t);
    await define(other.admin, other.organization.id, { name: 'owner', type: 'number' });

    await t.db
      .insertInto('customFieldDefinitions')
      .values(Array.from({ length: 99 }, (_, i) => ({ organizationId: organization.id, id: newId(), name: `field-${i}`, type: 'text' as const })))
      .execute();
    const full = await admin.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(organization.id), body: { name: 'one-more', type: 'text' } });
    expect(full.response.status).toBe(409);
    expect(full.error?.error.message).toBe('The organization already has 100 custom fields, the most it may have');
  });

  it('404 for another organization; 403 below admin and for guests', async () => {
    const { organization } = await createOrganizationWithAdmin(server());
    const stranger = await createOrganizationWithAdmin(server());
    const body = { name: 'owner', type: 'text' as const };
    expect((await stranger.admin.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(organization.id), body })).response.status).toBe(404);
    for (const role of NON_ADMIN) {
      const member = await createMember(server(), organization, role);
      expect((await member.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...orgPath(organization.id), body })).response.status, `role ${role}`).toBe(403);
    }
  });

  it('creates a field of each type, with its options for the select types (through the SDK)', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const cw = createContentWorkspace({ baseUrl: t.url, token: admin.token, throwOnError: true, maxRetries: 0 });
    const full: Definition = {
      name: 'audience',
      type: 'select:multi',
      title: 'Audience',
      description: 'Who the space is written for.',
      placeholder: 'Pick the readers',
      options: ['developers', 'administrators', 'end-users'],
    };
    const { data } = await cw.customFields.create({ organizationId: organization.id, body: full });
    expect(data).toEqual(expectedDefinition(organization.id, full));
    for (const field of [
      { name: 'owner', type: 'text', title: 'Owner' },
      { name: 'priority', type: 'number' },
      { name: 'reviewed', type: 'boolean' },
      { name: 'labels_v2', type: 'tags' },
      { name: 'stage', type: 'select:single', options: ['ga'] },
    ] as Definition[]) {
      expect(await define(admin, organization.id, field)).toEqual(expectedDefinition(organization.id, field));
    }
    const read = await cw.customFields.get({ organizationId: organization.id, fieldName: 'audience' });
    expect(read.data).toEqual(data);
  });
});

describe('GET /v1/orgs/{organizationId}/custom-fields', () => {
  it('400 for an invalid limit or page; 404 for another organization; 403 for guests', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const limit = await admin.client.GET('/v1/orgs/{organizationId}/custom-fields', { params: { path: { organizationId: organization.id }, query: { limit: 0 } } });
    expect(limit.error?.error.issues?.map((issue) => issue.path)).toEqual(['/query/limit']);
    const page = await admin.client.GET('/v1/orgs/{organizationId}/custom-fields', { params: { path: { organizationId: organization.id }, query: { page: 'forged' } } });
    expect(page.response.status).toBe(400);
    const stranger = await createOrganizationWithAdmin(server());
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/custom-fields', orgPath(organization.id))).response.status).toBe(404);
    const guest = await createMember(server(), organization, null);
    expect((await guest.client.GET('/v1/orgs/{organizationId}/custom-fields', orgPath(organization.id))).response.status).toBe(403);
  });

  it('lists newest first, in pages, with the reader’s permissions', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    await define(admin, organization.id, { name: 'owner', type: 'text', title: 'Owner' });
    await define(admin, organization.id, { name: 'stage', type: 'select:single', options: ['draft', 'ga'] });
    await t.db.updateTable('customFieldDefinitions').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('organizationId', '=', organization.id).where('name', '=', 'owner').execute();
    const other = await createOrganizationWithAdmin(t);
    await define(other.admin, other.organization.id, { name: 'elsewhere', type: 'text' });

    const reader = await createMember(t, organization, 'read');
    const readerPermissions = { view: true, edit: false };
    const { data } = await reader.client.GET('/v1/orgs/{organizationId}/custom-fields', orgPath(organization.id));
    expect(data).toEqual({
      count: 2,
      items: [
        expectedDefinition(organization.id, { name: 'stage', type: 'select:single', options: ['draft', 'ga'] }, readerPermissions),
        { ...expectedDefinition(organization.id, { name: 'owner', type: 'text', title: 'Owner' }, readerPermissions), createdAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    const first = await reader.client.GET('/v1/orgs/{organizationId}/custom-fields', { params: { path: { organizationId: organization.id }, query: { limit: 1 } } });
    expect(first.data?.items.map((item) => item.name)).toEqual(['stage']);
    const second = await reader.client.GET('/v1/orgs/{organizationId}/custom-fields', { params: { path: { organizationId: organization.id }, query: { limit: 1, page: first.data!.next!.page } } });
    expect(second.data?.items.map((item) => item.name)).toEqual(['owner']);
    expect(second.data?.next).toBeUndefined();
  });
});

describe('GET /v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  it('400 for a malformed name; 404 for an unknown one and across organizations; 403 for guests', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    await define(admin, organization.id, { name: 'owner', type: 'text' });
    const malformed = await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'Owner'));
    expect(malformed.error?.error.issues?.map((issue) => issue.path)).toEqual(['/path/fieldName']);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'nobody'))).response.status).toBe(404);
    const stranger = await createOrganizationWithAdmin(server());
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).response.status).toBe(404);
    expect((await stranger.admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(stranger.organization.id, 'owner'))).response.status).toBe(404);
    const guest = await createMember(server(), organization, null);
    expect((await guest.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).response.status).toBe(403);
  });
});

describe('PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  const patch = (who: TestUser, organizationId: string, name: string, body: Record<string, unknown>) =>
    who.client.PATCH('/v1/orgs/{organizationId}/custom-fields/{fieldName}', { ...fieldPath(organizationId, name), body: body as never });

  it('400 for the limits, for name and type (fixed), and for options outside the select types', async () => {
    const { admin, organization } = await organizationWithFields();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['owner', { title: 'x'.repeat(101) }, '/body/title'],
      ['owner', { description: 'x'.repeat(201) }, '/body/description'],
      ['owner', { placeholder: 'x'.repeat(101) }, '/body/placeholder'],
      ['owner', { name: 'renamed' }, '/body/name'],
      ['owner', { type: 'number' }, '/body/type'],
      ['owner', { options: ['a'] }, '/body/options'],
      ['stage', { options: [] }, '/body/options'],
      ['stage', { options: null }, '/body/options'],
      ['stage', { options: ['a', 'a'] }, '/body/options'],
    ];
    for (const [name, body, path] of cases) {
      const { response, error } = await patch(admin, organization.id, name, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path)).toContain(path);
    }
  });

  // A stranger's 404 and each role's 403 are the sweep's and the matrix's.
  it('404 for an unknown name; a refusal below admin changes nothing', async () => {
    const { admin, organization } = await organizationWithFields();
    expectRefusal(await patch(admin, organization.id, 'nobody', { title: 'x' }), 404, 'Custom field not found');
    const before = (await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).data;
    const creator = await createMember(server(), organization, 'create');
    expect((await patch(creator, organization.id, 'owner', { title: 'x' })).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).data).toEqual(before);
  });

  it('sets and removes (null) the texts; new options replace the old', async () => {
    const { admin, organization } = await createOrganizationWithAdmin(server());
    const created = await define(admin, organization.id, { name: 'stage', type: 'select:single', title: 'Stage', placeholder: 'Pick one', options: ['draft', 'ga'] });
    const { data, response } = await patch(admin, organization.id, 'stage', { title: 'Release stage', placeholder: null, description: 'How far along', options: ['draft', 'beta', 'ga'] });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      ...expectedDefinition(organization.id, { name: 'stage', type: 'select:single', title: 'Release stage', description: 'How far along', options: ['draft', 'beta', 'ga'] }),
      id: created.id,
      createdAt: created.createdAt,
    });
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'stage'))).data).toEqual(data);
  });

  it('removing options takes them out of the values that use them, and nothing else', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const [first, second, third] = [await createSpace(t, admin, organization), await createSpace(t, admin, organization), await createSpace(t, admin, organization)];
    expect((await patchValues(admin, first.id, { stage: { value: 'beta' }, audience: { value: ['administrators', 'developers', 'end-users'] } })).response.status).toBe(204);
    expect((await patchValues(admin, second.id, { stage: { value: 'ga' }, audience: { value: ['developers'] } })).response.status).toBe(204);
    expect((await patchValues(admin, third.id, { audience: { value: ['end-users'] } })).response.status).toBe(204);

    expect((await patch(admin, organization.id, 'stage', { options: ['draft', 'ga'] })).response.status).toBe(200);
    expect((await patch(admin, organization.id, 'audience', { options: ['end-users', 'partners'] })).response.status).toBe(200);

    expect(await valuesOf(admin, first.id)).toEqual({ audience: ['end-users'] });
    expect(await valuesOf(admin, second.id)).toEqual({ stage: 'ga', audience: [] });
    expect(await valuesOf(admin, third.id)).toEqual({ audience: ['end-users'] });
  });
});

describe('DELETE /v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  it('404 for an unknown name; a refusal below admin deletes nothing', async () => {
    const { admin, organization } = await organizationWithFields();
    expectRefusal(await admin.client.DELETE('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'nobody')), 404, 'Custom field not found');
    const creator = await createMember(server(), organization, 'create');
    expect((await creator.client.DELETE('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).response.status).toBe(403);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).response.status).toBe(200);
  });

  it('deletes the definition (204) and every space’s value of it', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    await patchValues(admin, space.id, { owner: { value: 'Docs team' }, priority: { value: 2 } });
    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'));
    expect(response.status).toBe(204);
    expect(await valuesOf(admin, space.id)).toEqual({ priority: 2 });
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', fieldPath(organization.id, 'owner'))).response.status).toBe(404);
    // Defined again, the field starts without values.
    await define(admin, organization.id, { name: 'owner', type: 'text' });
    expect(await valuesOf(admin, space.id)).toEqual({ priority: 2 });
  });
});

describe('GET /v1/spaces/{spaceId}/custom-fields', () => {
  it('404 for a member who cannot see the space (no default level), with the error body', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization, { defaultLevel: null });
    const member = await createMember(t, organization, 'read');
    expectRefusal(await member.client.GET('/v1/spaces/{spaceId}/custom-fields', spacePath(space.id)), 404, 'Space not found');
  });

  it('answers the values with their definitions, by field name, to anyone who can read the space', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    const reader = await createMember(t, organization, 'read');
    expect((await reader.client.GET('/v1/spaces/{spaceId}/custom-fields', spacePath(space.id))).data).toEqual([]);
    await patchValues(admin, space.id, { stage: { value: 'beta' }, owner: { value: 'Platform team' }, reviewed: { value: false }, audience: { value: ['developers'] } });
    const readerPermissions = { view: true, edit: false };
    const { data, response } = await reader.client.GET('/v1/spaces/{spaceId}/custom-fields', spacePath(space.id));
    expect(response.status).toBe(200);
    expect(data).toEqual([
      { customField: expectedDefinition(organization.id, { name: 'audience', type: 'select:multi', options: ['developers', 'administrators', 'end-users'] }, readerPermissions), value: ['developers'] },
      { customField: expectedDefinition(organization.id, { name: 'owner', type: 'text' }, readerPermissions), value: 'Platform team' },
      { customField: expectedDefinition(organization.id, { name: 'reviewed', type: 'boolean' }, readerPermissions), value: false },
      { customField: expectedDefinition(organization.id, { name: 'stage', type: 'select:single', options: ['draft', 'beta', 'ga'] }, readerPermissions), value: 'beta' },
    ]);
    // A public space's values are read by anyone signed in, who sees no definition permissions.
    const publicSpace = await createSpace(t, admin, organization, { visibility: 'public' });
    await patchValues(admin, publicSpace.id, { priority: { value: 1.5 } });
    const outsider = (await createOrganizationWithAdmin(t)).admin;
    const cw = createContentWorkspace({ baseUrl: t.url, token: outsider.token, throwOnError: true, maxRetries: 0 });
    expect((await cw.spaces.customFields.get({ spaceId: publicSpace.id })).data).toEqual([
      { customField: expectedDefinition(organization.id, { name: 'priority', type: 'number' }, { view: false, edit: false }), value: 1.5 },
    ]);
  });
});

describe('PATCH /v1/spaces/{spaceId}/custom-fields', () => {
  it('400 for names and values the schema refuses', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    const cases: Array<[unknown, string]> = [
      [{}, '/body/values'],
      [{ values: [] }, '/body/values'],
      [{ values: { Owner: { value: 'x' } } }, '/body/values'],
      [{ values: { owner: {} } }, '/body/values/owner/value'],
      [{ values: { owner: 'x' } }, '/body/values/owner'],
      [{ values: { owner: { value: 'x', extra: 1 } } }, '/body/values/owner/extra'],
      [{ values: { owner: { value: 'x'.repeat(257) } } }, '/body/values/owner/value'],
      [{ values: { labels: { value: [''] } } }, '/body/values/labels/value'],
      [{ values: { labels: { value: ['x'.repeat(257)] } } }, '/body/values/labels/value'],
      [{ values: { labels: { value: [1] } } }, '/body/values/labels/value'],
      [{ values: { owner: { value: { nested: true } } } }, '/body/values/owner/value'],
      [{ values: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { value: 1 }])) }, '/body/values'],
    ];
    for (const [body, path] of cases) {
      const { response, error } = await admin.client.PATCH('/v1/spaces/{spaceId}/custom-fields', { ...spacePath(space.id), body: body as never });
      expect(response.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(error?.error.issues?.map((issue) => issue.path).some((issuePath) => issuePath.startsWith(path)), `${JSON.stringify(error)} for ${path}`).toBe(true);
    }
  });

  it('400 naming each unknown field and each value its type or options refuse; nothing is written', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    await patchValues(admin, space.id, { owner: { value: 'Before' } });
    const refused: Array<[string, unknown, string]> = [
      ['owner', 3, 'must be a string of at most 256 characters (text)'],
      ['priority', '3', 'must be a finite number (number)'],
      ['reviewed', 'yes', 'must be true or false (boolean)'],
      ['labels', 'one', 'must be an array of strings (tags)'],
      ['labels', ['a', 'a'], 'must not repeat a value (tags)'],
      ['stage', 'alpha', 'must be one of the options ["draft","beta","ga"] (select:single)'],
      ['audience', ['developers', 'managers'], '"managers" is not one of the options ["developers","administrators","end-users"] (select:multi)'],
      ['audience', 'developers', 'must be an array of options (select:multi)'],
      // A lone surrogate is not Unicode text: jsonb would refuse it (a 500 before this check).
      ['labels', ['ok', 'broken \ud800'], 'must be Unicode text without U+0000 or lone surrogates'],
    ];
    for (const [name, value, message] of refused) {
      const values = { owner: { value: 'After' }, [name]: { value } };
      const { response, error } = await patchValues(admin, space.id, values);
      expect(response.status, JSON.stringify(values)).toBe(400);
      expect(error?.error.issues, JSON.stringify(values)).toEqual([{ path: `/body/values/${name}/value`, message }]);
    }
    // 1e400 is a JSON number that parsing makes infinite: refused too (by the validator).
    const infinite = await fetch(`${t.url}/v1/spaces/${space.id}/custom-fields`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: '{"values":{"owner":{"value":"After"},"priority":{"value":1e400}}}',
    });
    expect(infinite.status).toBe(400);
    expect(((await infinite.json()) as { error: { issues: Array<{ path: string }> } }).error.issues.map((issue) => issue.path)).toContain('/body/values/priority/value');
    const unknown = await patchValues(admin, space.id, { owner: { value: 'After' }, nobody: { value: 1 }, ghost: { value: null } });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.error.issues).toEqual([
      { path: '/body/values/nobody', message: '"nobody" is not a custom field of the organization' },
      { path: '/body/values/ghost', message: '"ghost" is not a custom field of the organization' },
    ]);
    // Another organization's field is unknown here.
    const other = await createOrganizationWithAdmin(t);
    await define(other.admin, other.organization.id, { name: 'elsewhere', type: 'text' });
    expect((await patchValues(admin, space.id, { elsewhere: { value: 'x' } })).response.status).toBe(400);
    expect(await valuesOf(admin, space.id)).toEqual({ owner: 'Before' });
  });

  it('404 for a space the caller cannot see; 403 below edit', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    const stranger = await createOrganizationWithAdmin(t);
    expect((await patchValues(stranger.admin, space.id, { owner: { value: 'x' } })).response.status).toBe(404);
    for (const role of ['read', 'comment'] as const) {
      const member = await createMember(t, organization, role);
      expect((await patchValues(member, space.id, { owner: { value: 'x' } })).response.status, role).toBe(403);
    }
    const editor = await createMember(t, organization, 'edit');
    expect((await patchValues(editor, space.id, { owner: { value: 'Edited' } })).response.status).toBe(204);
    expect(await valuesOf(admin, space.id)).toEqual({ owner: 'Edited' });
  });

  it('sets values of every type, replaces them, and removes them with null (204)', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    const all = {
      owner: { value: 'Platform team' },
      priority: { value: -2.5 },
      reviewed: { value: true },
      labels: { value: ['api', 'v2'] },
      stage: { value: 'ga' },
      audience: { value: ['end-users', 'developers'] },
    };
    const set = await patchValues(admin, space.id, all);
    expect(set.response.status).toBe(204);
    expect(set.data).toBeUndefined();
    expect(await valuesOf(admin, space.id)).toEqual(Object.fromEntries(Object.entries(all).map(([name, { value }]) => [name, value])));

    expect((await patchValues(admin, space.id, { priority: { value: 0 }, labels: { value: [] }, reviewed: { value: null }, stage: { value: null } })).response.status).toBe(204);
    expect(await valuesOf(admin, space.id)).toEqual({ owner: 'Platform team', priority: 0, labels: [], audience: ['end-users', 'developers'] });
    // Removing a value that is not set is fine; an empty map changes nothing.
    expect((await patchValues(admin, space.id, { stage: { value: null } })).response.status).toBe(204);
    expect((await patchValues(admin, space.id, {})).response.status).toBe(204);
    expect(Object.keys(await valuesOf(admin, space.id))).toEqual(['audience', 'labels', 'owner', 'priority']);
  });
});

describe('values through a transfer and a duplicate', () => {
  it('a transferred space keeps the values whose field the target defines by name, with a type and options they fit', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    await patchValues(admin, space.id, {
      owner: { value: 'Platform team' },
      priority: { value: 3 },
      reviewed: { value: true },
      labels: { value: ['api'] },
      stage: { value: 'beta' },
      audience: { value: ['developers', 'end-users'] },
    });
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, admin, 'admin');
    await define(target.admin, target.organization.id, { name: 'owner', type: 'text' }); // same type: kept
    await define(target.admin, target.organization.id, { name: 'priority', type: 'text' }); // another type: dropped
    await define(target.admin, target.organization.id, { name: 'labels', type: 'select:multi', options: ['api', 'sdk'] }); // fits the options: kept
    await define(target.admin, target.organization.id, { name: 'stage', type: 'select:single', options: ['draft', 'ga'] }); // not an option there: dropped
    await define(target.admin, target.organization.id, { name: 'audience', type: 'select:multi', options: ['developers'] }); // one option missing: dropped
    // `reviewed` is not defined there: dropped.

    const { response } = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { ...spacePath(space.id), body: { organization: target.organization.id } });
    expect(response.status).toBe(200);
    const { data } = await target.admin.client.GET('/v1/spaces/{spaceId}/custom-fields', spacePath(space.id));
    expect(data).toEqual([
      { customField: expectedDefinition(target.organization.id, { name: 'labels', type: 'select:multi', options: ['api', 'sdk'] }), value: ['api'] },
      { customField: expectedDefinition(target.organization.id, { name: 'owner', type: 'text' }), value: 'Platform team' },
    ]);
    // The source organization keeps its definitions and no value of the space.
    expect((await admin.client.GET('/v1/orgs/{organizationId}/custom-fields', orgPath(organization.id))).data?.count).toBe(6);
    const left = await t.db.selectFrom('spaceCustomFieldValues').select('field').where('organizationId', '=', organization.id).execute();
    expect(left).toEqual([]);
  });

  it('a duplicate keeps every value', async () => {
    const t = server();
    const { admin, organization } = await organizationWithFields();
    const space = await createSpace(t, admin, organization);
    await patchValues(admin, space.id, { owner: { value: 'Platform team' }, audience: { value: ['developers'] } });
    const { data: copy, response } = await admin.client.POST('/v1/spaces/{spaceId}/duplicate', spacePath(space.id));
    expect(response.status).toBe(201);
    expect(await valuesOf(admin, copy!.id)).toEqual({ owner: 'Platform team', audience: ['developers'] });
    // Independent afterwards.
    await patchValues(admin, copy!.id, { owner: { value: null } });
    expect(await valuesOf(admin, space.id)).toEqual({ owner: 'Platform team', audience: ['developers'] });
  });
});

describe('races', () => {
  it('the constraint violations the area answers with 409 are constraints of its tables', async () => {
    const names = Object.keys(customFieldsArea.conflicts ?? {});
    const { rows } = await sql<{ conname: string }>`SELECT conname FROM pg_constraint WHERE conname = ANY(${names}::text[])`.execute(server().db);
    expect(rows.map((row) => row.conname).sort()).toEqual([...names].sort());
  });
});
