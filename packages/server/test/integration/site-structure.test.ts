// A site's structure: sections, section groups, site spaces — limits, order and moves, defaults,
// deletes and their cascades, conditions — and how spaces' lifecycles reach it (delete/restore,
// transfer, purge, duplicate) and their `urls.published`.
import { describe, expect, it } from 'vitest';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { useTestServer } from '../support/harness.js';
import { addMember, createMember, createOrganizationWithAdmin, createSpace, type TestUser } from '../support/factories.js';
import { addSection, addSiteSpace, createGroup, createSite, publish, sitePath } from '../support/sites.js';

const server = useTestServer();

type Org = { id: string };

async function world() {
  const t = server();
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const spaces = await Promise.all(['Guide', 'API', 'Changelog', 'Extra'].map((title) => createSpace(t, admin, organization, { title })));
  const site = await createSite(admin.client, organization.id, { title: 'Docs' });
  return { t, admin, organization, spaces, site };
}

const sectionPath = (organizationId: string, siteId: string, siteSectionId: string) => ({ params: { path: { organizationId, siteId, siteSectionId } } });
const groupPath = (organizationId: string, siteId: string, siteSectionGroupId: string) => ({ params: { path: { organizationId, siteId, siteSectionGroupId } } });
const siteSpacePath = (organizationId: string, siteId: string, siteSpaceId: string) => ({ params: { path: { organizationId, siteId, siteSpaceId } } });

async function sections(user: TestUser, organization: Org, siteId: string) {
  return (await user.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/sections', sitePath(organization.id, siteId))).data!.items;
}

async function siteSpaces(user: TestUser, organization: Org, siteId: string, query: { default?: boolean } = {}) {
  return (await user.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { params: { path: { organizationId: organization.id, siteId }, query } })).data!.items;
}

describe('site sections', () => {
  it('adds a section holding the space, 201 with the whole body; the first is the default', async () => {
    const { admin, organization, spaces, site } = await world();
    const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organization.id, site.id), body: { spaceId: spaces[0]!.id, title: 'Getting started' } });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      object: 'site-section',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Getting started',
      default: true,
      path: 'getting-started',
      siteSpaces: [
        {
          object: 'site-space',
          id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
          path: 'guide',
          section: data!.id,
          space: expect.objectContaining({ object: 'space', id: spaces[0]!.id, title: 'Guide', urls: { location: `http://api.test/v1/spaces/${spaces[0]!.id}`, app: `http://app.test/s/${spaces[0]!.id}` } }),
          title: 'Guide',
          default: true,
          urls: {},
        },
      ],
      urls: {},
    });
    const second = await addSection(admin.client, organization.id, site.id, spaces[1]!.id);
    expect(second).toMatchObject({ title: 'API', path: 'api', default: false });
    // Same title again: the path stays unique in the site.
    expect((await addSection(admin.client, organization.id, site.id, spaces[2]!.id, 'API')).path).toBe('api-2');
    expect((await sections(admin, organization, site.id)).map((section) => section.path)).toEqual(['getting-started', 'api', 'api-2']);
  });

  it('400 for the seed’s limits; 404 for another organization’s space or site; 403 below admin', async () => {
    const { t, admin, organization, spaces, site } = await world();
    for (const [body, path] of [
      [{}, '/body/spaceId'],
      [{ spaceId: spaces[0]!.id, title: 'x'.repeat(65) }, '/body/title'],
      [{ spaceId: spaces[0]!.id, title: 'x' }, '/body/title'],
      [{ spaceId: 'bad id' }, '/body/spaceId'],
    ] as const) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organization.id, site.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.[0]?.path).toBe(path);
    }
    const other = await createOrganizationWithAdmin(t);
    const foreignSpace = await createSpace(t, other.admin, other.organization);
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organization.id, site.id), body: { spaceId: foreignSpace.id } })).response.status).toBe(404);
    const foreignSite = await createSite(other.admin.client, other.organization.id, { title: 'Theirs' });
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organization.id, foreignSite.id), body: { spaceId: spaces[0]!.id } })).response.status).toBe(404);
    // An admin of both organizations still cannot put one organization's space in the other's site.
    await addMember(t, other.organization, admin, 'admin');
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organization.id, site.id), body: { spaceId: foreignSpace.id } })).response.status).toBe(404);
    const creator = await createMember(t, organization, 'create');
    expect((await creator.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organization.id, site.id), body: { spaceId: spaces[0]!.id } })).response.status).toBe(403);
    expect(await sections(admin, organization, site.id)).toEqual([]);
  });

  it('a site with site spaces at its root moves them into a section of their own first (the default)', async () => {
    const { admin, organization, spaces } = await world();
    const site = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [spaces[0]!.id, spaces[1]!.id] });
    await addSection(admin.client, organization.id, site.id, spaces[2]!.id, 'Changes');
    const all = await sections(admin, organization, site.id);
    expect(all.map((section) => [section.title, section.default, section.siteSpaces.map((siteSpace) => siteSpace.path)])).toEqual([
      ['Guide', true, ['guide', 'api']],
      ['Changes', false, ['changelog']],
    ]);
    expect((await siteSpaces(admin, organization, site.id)).every((siteSpace) => siteSpace.section)).toBe(true);
  });

  it('PATCH: 400 for each limit and pattern, a condition’s syntax with its position; 409 for a taken path; null removes', async () => {
    const { admin, organization, spaces, site } = await world();
    const first = await addSection(admin.client, organization.id, site.id, spaces[0]!.id, 'Guides');
    const second = await addSection(admin.client, organization.id, site.id, spaces[1]!.id, 'Reference');
    const path = sectionPath(organization.id, site.id, second.id);
    for (const [body, where] of [
      [{ title: 'x' }, '/body/title'],
      [{ title: 'x'.repeat(129) }, '/body/title'],
      [{ path: '' }, '/body/path'],
      [{ path: 'x'.repeat(101) }, '/body/path'],
      [{ path: 'Has Spaces' }, '/body/path'],
      [{ path: '../up' }, '/body/path'],
      [{ condition: '' }, '/body/condition'],
      [{ condition: 'x'.repeat(1025) }, '/body/condition'],
      [{ icon: 'x'.repeat(51) }, '/body/icon'],
      [{ description: 'x'.repeat(257) }, '/body/description'],
      [{ defaultSiteSpace: first.siteSpaces[0]!.id }, '/body/defaultSiteSpace'],
    ] as const) {
      const { response, error } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...path, body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.[0]?.path, JSON.stringify(error)).toBe(where);
    }
    const syntax = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...path, body: { condition: 'visitor.claims.plan ===' } });
    expect(syntax.error?.error.issues).toEqual([{ path: '/body/condition', message: 'Invalid syntax: Unexpected token (at position 23)' }]);
    const hostile = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...path, body: { condition: 'visitor.claims.constructor.constructor("return process")()' } });
    expect(hostile.response.status).toBe(400);
    const taken = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...path, body: { path: 'guides' } });
    expect(taken.response.status).toBe(409);

    const { data } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', {
      ...path,
      body: { title: 'API reference', path: 'api', icon: 'book-open', description: 'Every endpoint', condition: 'visitor.claims.plan === "pro"' },
    });
    expect(data).toEqual({
      object: 'site-section',
      id: second.id,
      title: 'API reference',
      description: 'Every endpoint',
      default: false,
      path: 'api',
      condition: 'visitor.claims.plan === "pro"',
      icon: 'book-open',
      siteSpaces: [expect.objectContaining({ id: second.siteSpaces[0]!.id, default: true })],
      urls: {},
    });
    const { data: cleared } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...path, body: { icon: null, description: null, condition: null } });
    expect(cleared).not.toHaveProperty('icon');
    expect(cleared).not.toHaveProperty('description');
    expect(cleared).not.toHaveProperty('condition');
    expect(cleared?.title).toBe('API reference');
  });

  it('sets the section’s default site space', async () => {
    const { admin, organization, spaces, site } = await world();
    const section = await addSection(admin.client, organization.id, site.id, spaces[0]!.id, 'Guides');
    const extra = await addSiteSpace(admin.client, organization.id, site.id, spaces[1]!.id, section.id);
    const { data } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { ...sectionPath(organization.id, site.id, section.id), body: { defaultSiteSpace: extra.id } });
    expect(data?.siteSpaces.map((siteSpace) => [siteSpace.id, siteSpace.default])).toEqual([
      [section.siteSpaces[0]!.id, false],
      [extra.id, true],
    ]);
  });

  it('deletes a section with its site spaces, 205; the next section becomes the default', async () => {
    const { t, admin, organization, spaces, site } = await world();
    const [a, b, c] = [
      await addSection(admin.client, organization.id, site.id, spaces[0]!.id, 'Alpha'),
      await addSection(admin.client, organization.id, site.id, spaces[1]!.id, 'Beta'),
      await addSection(admin.client, organization.id, site.id, spaces[2]!.id, 'Gamma'),
    ];
    await addSiteSpace(admin.client, organization.id, site.id, spaces[3]!.id, a.id);
    const { response } = await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', sectionPath(organization.id, site.id, a.id));
    expect(response.status).toBe(205);
    expect((await sections(admin, organization, site.id)).map((section) => [section.id, section.default])).toEqual([
      [b.id, true],
      [c.id, false],
    ]);
    expect(await t.db.selectFrom('siteSpaces').select('id').where('sectionId', '=', a.id).execute()).toEqual([]);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organization.id, site.id))).data?.siteSpaces).toBe(2);
    // The last section when deleted: the previous one.
    await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organization.id, site.id), body: { defaultSiteSection: c.id } });
    await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', sectionPath(organization.id, site.id, c.id));
    expect((await sections(admin, organization, site.id)).map((section) => [section.id, section.default])).toEqual([[b.id, true]]);
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', sectionPath(organization.id, site.id, c.id))).response.status).toBe(404);
  });

  it('moves before or after a sibling; 400 for both, neither, itself, or a reference from another site or level', async () => {
    const { admin, organization, spaces, site } = await world();
    const [a, b, c] = [
      await addSection(admin.client, organization.id, site.id, spaces[0]!.id, 'Alpha'),
      await addSection(admin.client, organization.id, site.id, spaces[1]!.id, 'Beta'),
      await addSection(admin.client, organization.id, site.id, spaces[2]!.id, 'Gamma'),
    ];
    const move = (sectionId: string, position: unknown) =>
      admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move', { ...sectionPath(organization.id, site.id, sectionId), body: { position: position as never } });
    const { data, response } = await move(c.id, { before: { type: 'site-section', siteSection: a.id } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: c.id, title: 'Gamma' });
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Gamma', 'Alpha', 'Beta']);
    await move(c.id, { after: { type: 'site-section', id: b.id } });
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    // Repeated moves between the same neighbours keep exact positions.
    for (let i = 0; i < 40; i++) await move(c.id, { before: { type: 'site-section', siteSection: i % 2 ? b.id : a.id } });
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Alpha', 'Gamma', 'Beta']);

    const otherSite = await createSite(admin.client, organization.id, { title: 'Other' });
    const foreign = await addSection(admin.client, organization.id, otherSite.id, spaces[0]!.id);
    const group = await createGroup(admin.client, organization.id, site.id, 'Group', [b.id]);
    for (const position of [
      {},
      { before: { type: 'site-section', siteSection: a.id }, after: { type: 'site-section', siteSection: a.id } },
      { before: { type: 'site-section', siteSection: c.id } },
      { before: { type: 'site-section', siteSection: foreign.id } },
      { before: { type: 'site-section', siteSection: b.id } },
      { before: { type: 'site-space', siteSpace: a.siteSpaces[0]!.id } },
      { after: { type: 'site-section', siteSection: a.id, id: a.id } },
    ]) {
      const { response: refused } = await move(c.id, position);
      expect(refused.status, JSON.stringify(position)).toBe(400);
    }
    // At the top level a section may go next to a group.
    await move(c.id, { after: { type: 'site-section', id: group.id } });
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });
});

describe('site section groups', () => {
  it('creates a group of sections (201, whole body), lists groups in order with their sections', async () => {
    const { admin, organization, spaces, site } = await world();
    const [a, b] = [await addSection(admin.client, organization.id, site.id, spaces[0]!.id, 'Alpha'), await addSection(admin.client, organization.id, site.id, spaces[1]!.id, 'Beta')];
    const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...sitePath(organization.id, site.id), body: { title: 'Develop', icon: 'code', sections: [b.id, a.id] } });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      object: 'site-section-group',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Develop',
      icon: 'code',
      sections: [expect.objectContaining({ id: b.id, sectionGroup: data!.id, default: false }), expect.objectContaining({ id: a.id, sectionGroup: data!.id, default: true })],
    });
    const empty = await createGroup(admin.client, organization.id, site.id, 'Later');
    const { data: list } = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', sitePath(organization.id, site.id));
    expect(list).toEqual({ count: 2, items: [data, { object: 'site-section-group', id: empty.id, title: 'Later', sections: [] }] });
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Beta', 'Alpha']);
  });

  it('400 for the seed’s limits and sections of another site; 409 past 50 groups; 403 below admin', async () => {
    const { t, admin, organization, spaces, site } = await world();
    const otherSite = await createSite(admin.client, organization.id, { title: 'Other' });
    const foreign = await addSection(admin.client, organization.id, otherSite.id, spaces[0]!.id);
    for (const [body, path] of [
      [{}, '/body/title'],
      [{ title: '' }, '/body/title'],
      [{ title: 'x'.repeat(101) }, '/body/title'],
      [{ title: 'G', icon: 'x'.repeat(51) }, '/body/icon'],
      [{ title: 'G', sections: [foreign.id] }, '/body/sections/0'],
    ] as const) {
      const { response, error } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...sitePath(organization.id, site.id), body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.[0]?.path).toBe(path);
    }
    const group = await createGroup(admin.client, organization.id, site.id, 'G');
    for (const body of [{ title: '' }, { title: 'x'.repeat(101) }, { icon: 'x'.repeat(51) }]) {
      expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', { ...groupPath(organization.id, site.id, group.id), body })).response.status).toBe(400);
    }
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', { ...groupPath(organization.id, otherSite.id, group.id), body: { title: 'X' } })).response.status).toBe(404);
    const reader = await createMember(t, organization, 'read');
    expect((await reader.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', groupPath(organization.id, site.id, group.id))).response.status).toBe(403);
    await t.db
      .insertInto('siteSectionGroups')
      .values(Array.from({ length: 49 }, (_, i) => ({ organizationId: organization.id, siteId: site.id, id: `group${String(i).padStart(15, '0')}`, title: `G${i}`, position: String(100 + i) })))
      .execute();
    expect((await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...sitePath(organization.id, site.id), body: { title: 'One more' } })).response.status).toBe(409);
  });

  it('updates, adds and removes sections (removed ones go right after the group), moves, deletes (sections stay where the group was)', async () => {
    const { admin, organization, spaces, site } = await world();
    const [a, b, c] = [
      await addSection(admin.client, organization.id, site.id, spaces[0]!.id, 'Alpha'),
      await addSection(admin.client, organization.id, site.id, spaces[1]!.id, 'Beta'),
      await addSection(admin.client, organization.id, site.id, spaces[2]!.id, 'Gamma'),
    ];
    const group = await createGroup(admin.client, organization.id, site.id, 'Develop', [a.id]);
    const path = groupPath(organization.id, site.id, group.id);
    const { data: renamed } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', { ...path, body: { title: 'Build', icon: 'hammer' } });
    expect(renamed).toMatchObject({ title: 'Build', icon: 'hammer' });
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', { ...path, body: { icon: null } })).data).not.toHaveProperty('icon');

    const { data: added, response } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections', { ...path, body: { sectionId: c.id } });
    expect(response.status).toBe(201);
    expect(added?.sections.map((section) => section.id)).toEqual([a.id, c.id]);
    // The group came last: Beta, [group: Alpha, Gamma].
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Beta', 'Alpha', 'Gamma']);

    const removed = await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}', {
      params: { path: { organizationId: organization.id, siteId: site.id, siteSectionGroupId: group.id, siteSectionId: a.id } },
    });
    expect(removed.response.status).toBe(205);
    expect((await sections(admin, organization, site.id)).map((section) => [section.title, section.sectionGroup ?? null])).toEqual([
      ['Beta', null],
      ['Gamma', group.id],
      ['Alpha', null],
    ]);
    expect(
      (await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}', {
        params: { path: { organizationId: organization.id, siteId: site.id, siteSectionGroupId: group.id, siteSectionId: b.id } },
      })).response.status,
    ).toBe(404);

    const moved = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move', { ...path, body: { position: { after: { type: 'site-section', id: a.id } } } });
    expect(moved.response.status).toBe(200);
    expect(moved.data).toMatchObject({ id: group.id, sections: [expect.objectContaining({ id: c.id })] });
    expect((await sections(admin, organization, site.id)).map((section) => section.title)).toEqual(['Beta', 'Alpha', 'Gamma']);
    const refused = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move', { ...path, body: { position: { after: { type: 'site-section', id: c.id } } } });
    expect(refused.response.status).toBe(400);

    await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections', { ...path, body: { sectionId: a.id } });
    await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move', { ...path, body: { position: { before: { type: 'site-section', id: b.id } } } });
    // [group: Gamma, Alpha], Beta → delete the group: Gamma, Alpha, Beta where it was.
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', path)).response.status).toBe(205);
    expect((await sections(admin, organization, site.id)).map((section) => [section.title, section.sectionGroup ?? null])).toEqual([
      ['Gamma', null],
      ['Alpha', null],
      ['Beta', null],
    ]);
  });
});

describe('site spaces', () => {
  it('adds to the default section, a given section, or the root of a site without sections (201, whole body)', async () => {
    const { admin, organization, spaces, site } = await world();
    const { data, response } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { ...sitePath(organization.id, site.id), body: { spaceId: spaces[0]!.id } });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      object: 'site-space',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      path: 'guide',
      space: expect.objectContaining({ id: spaces[0]!.id }),
      title: 'Guide',
      default: true,
      urls: {},
    });
    const other = await createSite(admin.client, organization.id, { title: 'Sectioned' });
    const a = await addSection(admin.client, organization.id, other.id, spaces[0]!.id, 'Alpha');
    const b = await addSection(admin.client, organization.id, other.id, spaces[1]!.id, 'Beta');
    expect((await addSiteSpace(admin.client, organization.id, other.id, spaces[2]!.id)).section).toBe(a.id);
    expect((await addSiteSpace(admin.client, organization.id, other.id, spaces[2]!.id, b.id)).section).toBe(b.id);
    // A space may be in several sections and sites, once per section.
    const twice = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { ...sitePath(organization.id, other.id), body: { spaceId: spaces[2]!.id, sectionId: b.id } });
    expect(twice.response.status).toBe(409);
    const foreign = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { ...sitePath(organization.id, other.id), body: { spaceId: spaces[3]!.id, sectionId: site.id } });
    expect(foreign.error?.error.issues).toEqual([{ path: '/body/sectionId', message: 'is not a section of this site' }]);
  });

  it('lists in the site’s order with the default filter; PATCH 400/409 and null; moves; deletes with the next as default', async () => {
    const { t, admin, organization, spaces, site } = await world();
    const added = [];
    for (const space of spaces.slice(0, 3)) added.push(await addSiteSpace(admin.client, organization.id, site.id, space.id));
    const [guide, api, changelog] = added as [(typeof added)[number], (typeof added)[number], (typeof added)[number]];
    expect((await siteSpaces(admin, organization, site.id)).map((row) => row.path)).toEqual(['guide', 'api', 'changelog']);
    expect((await siteSpaces(admin, organization, site.id, { default: true })).map((row) => row.id)).toEqual([guide.id]);
    expect((await siteSpaces(admin, organization, site.id, { default: false })).map((row) => row.id)).toEqual([api.id, changelog.id]);
    const page = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { params: { path: { organizationId: organization.id, siteId: site.id }, query: { limit: 2 } } });
    const next = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { params: { path: { organizationId: organization.id, siteId: site.id }, query: { limit: 2, page: page.data!.next!.page } } });
    expect([...page.data!.items, ...next.data!.items].map((row) => row.id)).toEqual([guide.id, api.id, changelog.id]);
    expect(page.data?.count).toBe(3);

    const path = siteSpacePath(organization.id, site.id, api.id);
    for (const [body, where] of [
      [{ path: '' }, '/body/path'],
      [{ path: 'x'.repeat(101) }, '/body/path'],
      [{ path: 'a/b' }, '/body/path'],
      [{ condition: '' }, '/body/condition'],
      [{ condition: 'x'.repeat(1025) }, '/body/condition'],
      [{ condition: 'this.x' }, '/body/condition'],
      [{ condition: 'visitor.claims.a(' }, '/body/condition'],
    ] as const) {
      const { response, error } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', { ...path, body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.issues?.[0]?.path).toBe(where);
    }
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', { ...path, body: { path: 'guide' } })).response.status).toBe(409);
    const { data } = await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', {
      ...path,
      body: { path: 'reference', condition: 'visitor.claims.roles.includes("developer")' },
    });
    expect(data).toEqual({ object: 'site-space', id: api.id, path: 'reference', space: expect.objectContaining({ id: spaces[1]!.id }), title: 'API', default: false, condition: 'visitor.claims.roles.includes("developer")', urls: {} });
    expect((await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', { ...path, body: { condition: null } })).data).not.toHaveProperty('condition');

    const move = (id: string, position: unknown) =>
      admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move', { ...siteSpacePath(organization.id, site.id, id), body: { position: position as never } });
    expect((await move(changelog.id, { before: { type: 'site-space', siteSpace: guide.id } })).data?.id).toBe(changelog.id);
    expect((await siteSpaces(admin, organization, site.id)).map((row) => row.id)).toEqual([changelog.id, guide.id, api.id]);
    const otherSite = await createSite(admin.client, organization.id, { title: 'Other', spaces: [spaces[3]!.id] });
    const foreign = (await siteSpaces(admin, organization, otherSite.id))[0]!;
    for (const position of [{}, { before: { type: 'site-space', siteSpace: foreign.id } }, { after: { type: 'site-space', siteSpace: changelog.id } }, { after: { type: 'site-section', siteSection: guide.id } }]) {
      expect((await move(changelog.id, position)).response.status, JSON.stringify(position)).toBe(400);
    }

    // Deleting the default: the next one (in order) becomes it.
    expect((await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', siteSpacePath(organization.id, site.id, guide.id))).response.status).toBe(205);
    expect((await siteSpaces(admin, organization, site.id)).map((row) => [row.id, row.default])).toEqual([
      [changelog.id, false],
      [api.id, true],
    ]);
    await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', siteSpacePath(organization.id, site.id, changelog.id));
    expect((await siteSpaces(admin, organization, site.id)).map((row) => [row.id, row.default])).toEqual([[api.id, true]]);
    expect((await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organization.id, site.id))).data?.siteSpaces).toBe(1);
    expect(await t.db.selectFrom('spaces').select('id').where('id', '=', spaces[0]!.id).execute()).toHaveLength(1);
  });

  it('409 past 500 site spaces; 404 for another organization’s site space; readers see the structure, not private spaces they cannot read', async () => {
    const { t, admin, organization, spaces, site } = await world();
    const added = await addSiteSpace(admin.client, organization.id, site.id, spaces[0]!.id);
    const other = await createOrganizationWithAdmin(t);
    expect((await other.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', { ...siteSpacePath(other.organization.id, site.id, added.id), body: { path: 'x' } })).response.status).toBe(404);
    const reader = await createMember(t, organization, 'read');
    await t.db.updateTable('spaces').set({ defaultLevel: null }).where('id', '=', spaces[0]!.id).execute();
    const seen = await siteSpaces(reader, organization, site.id);
    expect(seen).toEqual([{ object: 'site-space', id: added.id, path: 'guide', title: 'Guide', default: true, urls: {} }]);
    // 499 more rows under throwaway sections reach the limit.
    const sectionIds = Array.from({ length: 499 }, (_, i) => `sec${String(i).padStart(17, '0')}`);
    await t.db.insertInto('siteSections').values(sectionIds.map((id, i) => ({ organizationId: organization.id, siteId: site.id, id, title: id, path: id, position: String(10 + i) }))).execute();
    await t.db.insertInto('siteSpaces').values(sectionIds.map((sectionId, i) => ({ organizationId: organization.id, siteId: site.id, id: `ss${String(i).padStart(18, '0')}`, spaceId: spaces[1]!.id, sectionId, path: 'p', position: '1' }))).execute();
    const { response } = await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { ...sitePath(organization.id, site.id), body: { spaceId: spaces[2]!.id, sectionId: sectionIds[0] } });
    expect(response.status).toBe(409);
  });
});

describe('spaces and their sites', () => {
  it('urls.published: the address in the first published site holding the space, in reads and lists', async () => {
    const { t, admin, organization, spaces } = await world();
    const [guide] = spaces;
    const first = await createSite(admin.client, organization.id, { title: 'First', spaces: [guide!.id] });
    const second = await createSite(admin.client, organization.id, { title: 'Second' });
    await t.db.updateTable('sites').set({ createdAt: '2026-01-01T00:00:00.000Z' } as never).where('id', '=', first.id).execute();
    const section = await addSection(admin.client, organization.id, second.id, guide!.id, 'Guides');
    const read = async () => (await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: guide!.id } } })).data!.urls;
    expect(await read()).not.toHaveProperty('published');
    await publish(admin.client, organization.id, second.id);
    expect((await read()).published).toBe(`http://api.test/s/${second.id}/guides/guide`);
    await publish(admin.client, organization.id, first.id);
    expect((await read()).published).toBe(`http://api.test/s/${first.id}/guide`);
    const listed = (await admin.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: organization.id } } })).data!.items;
    expect(listed.map((space) => [space.title, space.urls.published ?? null]).sort()).toEqual([
      ['API', null],
      ['Changelog', null],
      ['Extra', null],
      ['Guide', `http://api.test/s/${first.id}/guide`],
    ]);
    await admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/unpublish', sitePath(organization.id, first.id));
    expect((await read()).published).toBe(`http://api.test/s/${second.id}/guides/guide`);
    await admin.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', sectionPath(organization.id, second.id, section.id));
    expect(await read()).not.toHaveProperty('published');
    expect((await t.db.selectFrom('spaces').select('inPublishedSite').where('id', '=', guide!.id).executeTakeFirstOrThrow()).inPublishedSite).toBe(false);
  });

  it('a deleted space leaves the published structure and the counts while restorable, and comes back on restore', async () => {
    const { admin, organization, spaces } = await world();
    const site = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [spaces[0]!.id, spaces[1]!.id] });
    await publish(admin.client, organization.id, site.id);
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: spaces[0]!.id } } });
    const count = async () => (await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', sitePath(organization.id, site.id))).data?.siteSpaces;
    expect(await count()).toBe(1);
    // The API default falls to the next live site space while the default's space is deleted.
    expect((await siteSpaces(admin, organization, site.id)).map((row) => [row.title, row.default])).toEqual([['API', true]]);
    const published = await admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', sitePath(organization.id, site.id));
    expect(published.data?.structure.structure.map((item) => ('title' in item ? item.title : null))).toEqual(['API']);
    await admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: spaces[0]!.id } } });
    expect(await count()).toBe(2);
    expect((await siteSpaces(admin, organization, site.id)).map((row) => [row.title, row.default])).toEqual([
      ['Guide', true],
      ['API', false],
    ]);
    expect((await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: spaces[0]!.id } } })).data?.urls.published).toBe(`http://api.test/s/${site.id}/guide`);
  });

  it('a space transferred to another organization leaves its sites (the next site space becomes the default); the sites stay', async () => {
    const { t, admin, organization, spaces } = await world();
    const site = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [spaces[0]!.id, spaces[1]!.id] });
    await publish(admin.client, organization.id, site.id);
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, admin, 'admin');
    const { response } = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: spaces[0]!.id } }, body: { organization: target.organization.id } });
    expect(response.status).toBe(200);
    expect((await siteSpaces(admin, organization, site.id)).map((row) => [row.title, row.default])).toEqual([['API', true]]);
    expect(await t.db.selectFrom('siteSpaces').select('id').where('spaceId', '=', spaces[0]!.id).execute()).toEqual([]);
    const moved = await admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: spaces[0]!.id } } });
    expect(moved.data?.organization).toBe(target.organization.id);
    expect(moved.data?.urls).not.toHaveProperty('published');
  });

  it('the purge removes a space’s site spaces with it; a duplicate starts in no site', async () => {
    const { t, admin, organization, spaces } = await world();
    const site = await createSite(admin.client, organization.id, { title: 'Docs', spaces: [spaces[0]!.id, spaces[1]!.id] });
    await publish(admin.client, organization.id, site.id);
    const { data: copy } = await admin.client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId: spaces[1]!.id } } });
    expect(copy?.urls).not.toHaveProperty('published');
    expect(await t.db.selectFrom('siteSpaces').select('id').where('spaceId', '=', copy!.id).execute()).toEqual([]);
    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: spaces[0]!.id } } });
    await t.db.updateTable('spaces').set({ deletedAt: new Date(Date.now() - 8 * 86_400_000) }).where('id', '=', spaces[0]!.id).execute();
    expect(await purgeExpiredSpaces(t.db, t.context.lifecycle)).toBe(1);
    expect(await t.db.selectFrom('siteSpaces').select(['spaceId', 'isDefault']).where('siteId', '=', site.id).execute()).toEqual([{ spaceId: spaces[1]!.id, isDefault: true }]);
  });
});
