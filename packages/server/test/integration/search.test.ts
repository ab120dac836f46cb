import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backfillSearchIndex } from '../../src/content/search/backfill.js';
import { insertSections, type SectionRow } from '../../src/content/search/index.repository.js';
import { MAX_MATCHED_SECTIONS, searchPages } from '../../src/content/search/search.js';
import { purgeExpiredSpaces } from '../../src/areas/spaces/purge-spaces.job.js';
import { edit } from '../support/content.js';
import { createCr, editCr, mergeCr } from '../support/change-requests.js';
import { addMember, createCollection, createMember, createOrganizationWithAdmin, createSpace, grant, type TestUser } from '../support/factories.js';
import { useTestServer, type TestServer } from '../support/harness.js';
import { zip } from '../support/zip.js';

const server = useTestServer();

const spaceSearch = (user: TestUser, spaceId: string, query: string, extra: { page?: string; limit?: number } = {}) =>
  user.client.GET('/v1/spaces/{spaceId}/search', { params: { path: { spaceId }, query: { query, ...extra } } });
const orgSearch = (user: TestUser, organizationId: string, query: string, extra: { page?: string; limit?: number } = {}) =>
  user.client.GET('/v1/orgs/{organizationId}/search', { params: { path: { organizationId }, query: { query, ...extra } } });

/** Titles of the pages a space search finds. */
async function found(user: TestUser, spaceId: string, query: string): Promise<string[]> {
  const { data, error } = await spaceSearch(user, spaceId, query);
  if (!data) throw new Error(JSON.stringify(error));
  return data.items.map((item) => item.title);
}

/** A search row as the index writes it: section `ordinal` of page `pageId` (0: the page's lead, under its title). */
const row = (pageId: string, ordinal: number, pageTitle: string, text: string): SectionRow => ({
  pageId, ordinal, documentHash: null, sectionId: ordinal === 0 ? pageId : `part-${ordinal}`, sectionTitle: ordinal === 0 ? pageTitle : `Part ${ordinal}`,
  pageTitle, pagePath: pageId, hidden: false, noIndex: false, body: text, head: ordinal === 0 ? pageTitle : `Part ${ordinal}`,
  headWeight: ordinal === 0 ? 'A' : 'B', description: '', text, headFallback: '', fallback: '',
});

const GUIDE = [
  'The server starts on a fresh machine.',
  '',
  '## Installation',
  '',
  'Run the installer, then check the connection to the database.',
  '',
  '## Upgrade',
  '',
  'Call `getSpaceById` after the upgrade; the helper `snake_case_name` is gone.',
  '',
  '## Café',
  '',
  'Le résumé du café crème. 全文検索エンジンを使う。',
].join('\n');

async function world(t: TestServer) {
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const space = await createSpace(t, admin, organization, { title: 'Handbook' });
  const result = await edit(admin, space.id, [
    { type: 'insert_page', ref: 'guides', title: 'Guides', markdown: 'All the guides.' },
    { type: 'insert_page', ref: 'install', parent: { ref: 'guides' }, title: 'Install the server', description: 'How to install it', markdown: GUIDE },
    { type: 'insert_page', ref: 'faq', title: 'Questions', markdown: 'Ask about the installation here.\n\n## Hidden answers\n\nNothing about servers.' },
  ]);
  return { admin, organization, space, ids: result.refs as Record<'guides' | 'install' | 'faq', string> };
}

describe('GET /v1/spaces/{spaceId}/search', () => {
  it('400 without a query, for one over 512 characters, and for a cursor of another query', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const missing = await admin.client.GET('/v1/spaces/{spaceId}/search', { params: { path: { spaceId: space.id }, query: {} as { query: string } } });
    expect(missing.response.status).toBe(400);
    expect(missing.error?.error.issues).toEqual([expect.objectContaining({ path: '/query/query' })]);
    const long = await spaceSearch(admin, space.id, 'a'.repeat(513));
    expect(long.error?.error.issues).toEqual([expect.objectContaining({ path: '/query/query' })]);
    const first = await spaceSearch(admin, space.id, 'install', { limit: 1 });
    expect(first.data!.next).toBeDefined();
    const other = await spaceSearch(admin, space.id, 'server', { page: first.data!.next!.page });
    expect(other.response.status).toBe(400);
  });


  it('answers pages best first (title matches first), each with its matching sections and snippets', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    const { data, response } = await spaceSearch(admin, space.id, 'installation');
    expect(response.status).toBe(200);
    const app = `http://app.test/s/${space.id}`;
    expect(data).toEqual({
      items: [
        {
          id: ids.install,
          title: 'Install the server',
          path: 'guides/install-the-server',
          urls: { app: `${app}/guides/install-the-server` },
          sections: [
            {
              id: ids.install,
              title: 'Install the server',
              path: 'guides/install-the-server',
              body: 'How to install it The server starts on a fresh machine.',
              urls: { app: `${app}/guides/install-the-server` },
            },
            {
              id: 'installation',
              title: 'Installation',
              path: 'guides/install-the-server#installation',
              body: 'Run the installer, then check the connection to the database.',
              urls: { app: `${app}/guides/install-the-server#installation` },
            },
          ],
        },
        {
          id: ids.faq,
          title: 'Questions',
          path: 'questions',
          urls: { app: `${app}/questions` },
          sections: [{ id: ids.faq, title: 'Questions', path: 'questions', body: 'Ask about the installation here.', urls: { app: `${app}/questions` } }],
        },
      ],
      count: 2,
    });
  });

  it('shows the text around a match deep in a long section', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const long = `${'Filler words about nothing. '.repeat(150)}The platypus crêperie opens at noon. ${'More filler here. '.repeat(100)}`;
    await edit(admin, space.id, [{ type: 'insert_page', title: 'Long read', markdown: `Intro.\n\n## Deep\n\n${long}` }]);
    for (const query of ['platypus', 'creperie']) {
      const { data } = await spaceSearch(admin, space.id, query);
      const body = data!.items[0]!.sections[0]!.body;
      expect(body).toContain('The platypus crêperie opens at noon.');
      expect(body).toMatch(/^….{0,300}…$/su);
    }
  });

  it('reads web-search syntax: phrases, exclusions, or', async () => {
    const t = server();
    const { admin, space } = await world(t);
    expect(await found(admin, space.id, '"fresh machine"')).toEqual(['Install the server']);
    expect(await found(admin, space.id, '"machine fresh"')).toEqual([]);
    expect(await found(admin, space.id, 'installation -database')).toEqual(['Questions']);
    expect(await found(admin, space.id, 'guides or questions')).toEqual(expect.arrayContaining(['Guides', 'Questions']));
    expect(await found(admin, space.id, '-installation')).toEqual([]);
  });

  it('matches the last word as a prefix, even past its stem (type-ahead)', async () => {
    const t = server();
    const { admin, space } = await world(t);
    expect(await found(admin, space.id, 'conne')).toEqual(['Install the server']);
    // "installation" stems to "instal": the prefix "installa" still finds it through the words it starts.
    expect(await found(admin, space.id, 'installa')).toEqual(['Install the server', 'Questions']);
    // Finished words are not prefixes: only the typo pass could widen them, and nothing resembles this one.
    expect(await found(admin, space.id, 'zqxw ')).toEqual([]);
  });

  it('ignores accents both ways', async () => {
    const t = server();
    const { admin, space } = await world(t);
    expect(await found(admin, space.id, 'resume cafe')).toEqual(['Install the server']);
    expect(await found(admin, space.id, 'Installatión')).toEqual(['Install the server', 'Questions']);
  });

  it('finds a misspelt word through the words it resembles when nothing matches exactly, and pages on', async () => {
    const t = server();
    const { admin, space } = await world(t);
    expect(await found(admin, space.id, 'conection ')).toEqual(['Install the server']);
    expect(await found(admin, space.id, 'databse installer')).toEqual(['Install the server']);
    const first = await spaceSearch(admin, space.id, 'instalation ', { limit: 1 });
    expect(first.data!.count).toBe(2);
    const second = await spaceSearch(admin, space.id, 'instalation ', { limit: 1, page: first.data!.next!.page });
    expect(second.data!.items.map((item) => item.title)).toEqual(['Questions']);
    expect(second.data!.next).toBeUndefined();
  });

  it('finds code identifiers by their parts and CJK text by its characters', async () => {
    const t = server();
    const { admin, space } = await world(t);
    expect(await found(admin, space.id, 'getSpaceById')).toEqual(['Install the server']);
    expect(await found(admin, space.id, 'SpaceById')).toEqual(['Install the server']);
    expect(await found(admin, space.id, 'snake_case_name')).toEqual(['Install the server']);
    expect(await found(admin, space.id, '検索')).toEqual(['Install the server']);
    expect(await found(admin, space.id, 'エンジン')).toEqual(['Install the server']);
  });

  it('finds a page whose title matches first, even past the first matching sections of a very common word', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Large' });
    // More sections mention the word in their text than a search ranks, all on pages before the one
    // whose title has it in primary-key order (space, page, section): rows written in bulk, as the index does.
    const pages = Math.ceil(MAX_MATCHED_SECTIONS / 5) + 20;
    const rows = Array.from({ length: pages }, (_, p) =>
      Array.from({ length: 5 }, (_, ordinal) => row(`a${String(p).padStart(5, '0')}`, ordinal, `Notes ${p}`, 'The server restarts at night.')),
    ).flat();
    rows.push(row('zzzz', 0, 'Server guide', 'Read this first.'));
    await insertSections(t.db, organization.id, space.id, rows);

    const { data } = await spaceSearch(admin, space.id, 'server');
    expect(data!.items[0]).toEqual(expect.objectContaining({ id: 'zzzz', title: 'Server guide' }));
    const inOrganization = await orgSearch(admin, organization.id, 'server');
    expect(inOrganization.data!.items[0]!.pages[0]).toEqual(expect.objectContaining({ id: 'zzzz', title: 'Server guide' }));
  });

  /**
   * A space of 120 pages whose title says "lantern" and whose two sections say "lantern" and "dusk"
   * (240 sections), then two pages, written last, saying "wicks"; its search scope.
   */
  async function lanternSpace(t: ReturnType<typeof server>) {
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Lanterns' });
    const rows = Array.from({ length: 120 }, (_, p) => [0, 1].map((ordinal) => row(`b${String(p).padStart(4, '0')}`, ordinal, `Lantern ${p}`, 'Light the lantern at dusk.'))).flat();
    rows.push(row('c0001', 0, 'Wicks', 'A lantern wick.'), row('c0002', 0, 'Oil', 'Wicks burn oil.'));
    await insertSections(t.db, organization.id, space.id, rows);
    return { kind: 'spaces' as const, spaces: [{ organizationId: organization.id, spaceId: space.id }] };
  }

  it('reads no more matches than a caller\'s bound, the total then flagged as a lower bound; the default bound counts them all', async () => {
    const t = server();
    const scope = await lanternSpace(t);
    const window = { offset: 0, limit: 8 };

    // 50 sections (pages b0000–b0024) and 30 titles (b0000–b0029) read: 30 pages counted, and said to be a lower bound.
    const bounded = await searchPages(t.db, scope, 'lantern', window, undefined, { sections: 50, titles: 30, sectionsPerPage: 5 });
    expect(bounded).toMatchObject({ total: 30, totalIsLowerBound: true, mode: 'exact' });
    expect(bounded.pages.map((page) => page.pageId)).toEqual(['b0000', 'b0001', 'b0002', 'b0003', 'b0004', 'b0005', 'b0006', 'b0007']);
    // The default bound (a results page's) reads every match here: an exact count.
    expect(await searchPages(t.db, scope, 'lantern', window)).toMatchObject({ total: 121, totalIsLowerBound: false });
    // Fewer matches than the bound: exact too, with the same bound.
    const few = await searchPages(t.db, scope, 'wicks', window, undefined, { sections: 50, titles: 30, sectionsPerPage: 5 });
    expect(few).toMatchObject({ total: 2, totalIsLowerBound: false });
    expect(few.pages.map((page) => page.title)).toEqual(['Wicks', 'Oil']);
  });

  it('with a bound on the rows read (two words or more): keeps what matched among them, a count said to be a lower bound; words rare together come from the index, exactly', async () => {
    const t = server();
    const scope = await lanternSpace(t);
    const window = { offset: 0, limit: 8 };
    const bound = { sections: 200, titles: 200, sectionsPerPage: 1, read: { sections: 40, titles: 10, enough: 3 } };

    // Two words common together: of the 40 sections read, all match (20 pages at most), and more may match.
    const common = await searchPages(t.db, scope, 'lantern dusk', window, undefined, bound);
    expect(common.totalIsLowerBound).toBe(true);
    expect(common.total).toBeGreaterThanOrEqual(8);
    expect(common.total).toBeLessThanOrEqual(20);
    expect(common.pages).toHaveLength(8);
    // Two words in fewer than `enough` of the rows read: every match, from the index, counted exactly.
    const rare = await searchPages(t.db, scope, 'wicks oil', window, undefined, bound);
    expect(rare).toMatchObject({ total: 1, totalIsLowerBound: false, mode: 'exact' });
    expect(rare.pages.map((page) => page.title)).toEqual(['Oil']);
    // The last a short prefix: the one section that says both.
    const together = await searchPages(t.db, scope, 'lantern wi', window, undefined, bound);
    expect(together).toMatchObject({ total: 1, totalIsLowerBound: false });
    expect(together.pages.map((page) => page.title)).toEqual(['Wicks']);
    // Nothing matching: nothing, not a lower bound.
    expect(await searchPages(t.db, scope, 'walrus tusk', window, 'exact', bound)).toMatchObject({ total: 0, totalIsLowerBound: false });
    // Only stop words (`we`, being typed): nothing, without reading a row (one statement: the query's resolution).
    let statements = 0;
    const counted = t.db.withPlugin({ transformQuery: (args) => (statements++, args.node), transformResult: async (args) => args.result });
    expect(await searchPages(counted, scope, 'we', window, undefined, bound)).toMatchObject({ total: 0, pages: [] });
    expect(statements).toBe(1);
    // One word: its sections are read as without the bound on rows (the planner estimates a word well:
    // the first 200, pages b0000–b0099), its titles with it (10 read, all matching).
    const one = await searchPages(t.db, scope, 'lantern', window, undefined, bound);
    expect(one.totalIsLowerBound).toBe(true);
    expect(one.total).toBeGreaterThanOrEqual(100);
    expect(one.total).toBeLessThanOrEqual(110);
    // One word in few titles: none among the 10 read, so the index gives its titles; its sections as above.
    const few = await searchPages(t.db, scope, 'wicks', window, undefined, bound);
    expect(few).toMatchObject({ total: 2, totalIsLowerBound: false });
    expect(few.pages.map((page) => page.title)).toEqual(['Wicks', 'Oil']);
    // A space with fewer rows than the bound reads them all: an exact count.
    const wide = { sections: 2_000, titles: 2_000, sectionsPerPage: 1, read: { sections: 1_000, titles: 1_000, enough: 3 } };
    expect(await searchPages(t.db, scope, 'lantern dusk', window, undefined, wide)).toMatchObject({ total: 120, totalIsLowerBound: false });
  });

  it('with a bound on the rows read, reads the scope\'s first rows in key order, wherever the table stores them', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const space = await createSpace(t, admin, organization, { title: 'Stored backwards' });
    // 120 pages whose two sections say "ember" and "glow", stored last page first.
    const rows = Array.from({ length: 120 }, (_, p) => [0, 1].map((ordinal) => row(`p${String(p).padStart(4, '0')}`, ordinal, `Ember ${p}`, 'An ember aglow.'))).flat();
    await insertSections(t.db, organization.id, space.id, rows.reverse());
    const scope = { kind: 'spaces' as const, spaces: [{ organizationId: organization.id, spaceId: space.id }] };
    const bound = { sections: 200, titles: 200, sectionsPerPage: 1, read: { sections: 40, titles: 10, enough: 3 } };
    // The 40 sections read are pages p0000–p0019's (the first 40 the table stores are p0100–p0119's),
    // whatever plan PostgreSQL picks: here a sequential scan, as for a space that is most of its table.
    const found = await t.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      return searchPages(trx, scope, 'ember aglow', { offset: 0, limit: 8 }, undefined, bound);
    });
    expect(found).toMatchObject({ total: 20, totalIsLowerBound: true });
    expect(found.pages.map((page) => page.pageId)).toEqual(['p0000', 'p0001', 'p0002', 'p0003', 'p0004', 'p0005', 'p0006', 'p0007']);
  });

  it('with `titlesSuffice`: no section is read when that many pages match by their title (the count then a lower bound), and sections are when fewer do', async () => {
    const t = server();
    const scope = await lanternSpace(t);
    const window = { offset: 0, limit: 8 };
    const bound = { sections: 2_000, titles: 200, sectionsPerPage: 1, titlesSuffice: 8 };

    // 120 titles say "lantern": the eight shown are title matches whatever the sections say, so the page
    // whose body alone says it (Wicks) is not counted (121 with sections read), and the count is a lower bound.
    const titled = await searchPages(t.db, scope, 'lantern', window, undefined, bound);
    expect(titled).toMatchObject({ total: 120, totalIsLowerBound: true, mode: 'exact' });
    expect(titled.pages.map((page) => page.title)).toEqual(Array.from({ length: 8 }, (_, p) => `Lantern ${p}`));
    // The returned pages still carry their best section (its snippet).
    expect(titled.pages.every((page) => page.sections.length === 1 && page.sections[0]!.body.includes('lantern'))).toBe(true);
    // One title says "wicks": the sections are read, and the count is exact.
    expect(await searchPages(t.db, scope, 'wicks', window, undefined, bound)).toMatchObject({ total: 2, totalIsLowerBound: false, pages: [{ title: 'Wicks' }, { title: 'Oil' }] });
    // With an excluded word the sections are read too (the exclusion drops title matches after their count).
    expect(await searchPages(t.db, scope, 'lantern -oil', window, undefined, bound)).toMatchObject({ total: 121, totalIsLowerBound: false });
  });

  it('includes hidden pages (members read them through the API too)', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    await edit(admin, space.id, [{ type: 'update_page', page: ids.faq, hidden: true }]);
    expect(await found(admin, space.id, 'questions')).toEqual(['Questions']);
  });
});

describe('search index maintenance', () => {
  it('follows batches: new bodies, titles, moves and deletions', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    await edit(admin, space.id, [{ type: 'update_page', page: ids.faq, title: 'Frequent questions', markdown: 'Only zebras here.' }]);
    expect(await found(admin, space.id, 'zebras')).toEqual(['Frequent questions']);
    expect(await found(admin, space.id, 'installation')).toEqual(['Install the server']);
    // Moving the parent changes the child's path without re-tokenising it.
    await edit(admin, space.id, [{ type: 'update_page', page: ids.guides, slug: 'manuals' }]);
    const { data } = await spaceSearch(admin, space.id, 'installer');
    expect(data!.items[0]!.path).toBe('manuals/install-the-server');
    await edit(admin, space.id, [{ type: 'delete_page', page: ids.guides }]);
    expect(await found(admin, space.id, 'machine')).toEqual([]);
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_sections WHERE space_id = ${space.id}`.execute(t.db);
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('follows merges of change requests (and ignores unmerged ones)', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    const cr = await createCr(admin, space.id);
    await editCr(admin, space.id, cr.id, [{ type: 'update_page', page: ids.faq, markdown: 'Penguins live here.' }]);
    expect(await found(admin, space.id, 'penguins')).toEqual([]);
    await mergeCr(admin, space.id, cr.id);
    expect(await found(admin, space.id, 'penguins')).toEqual(['Questions']);
  });

  it('follows imports into the space, and into a change request once it is merged', async () => {
    const t = server();
    const { admin, space } = await world(t);
    const archive = (word: string) =>
      zip([{ name: 'README.md', data: `# Imported ${word}\n\nThe ${word} lives here.\n\n## Habitat\n\nRivers of the ${word}.\n` }]).toString('base64');
    const imported = await admin.client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId: space.id } }, body: { source: 'zip', base64: archive('platypus') } });
    expect(imported.response.status).toBe(201);
    const { data } = await spaceSearch(admin, space.id, 'platypus rivers');
    expect(data!.items).toEqual([
      expect.objectContaining({ title: 'Imported platypus', sections: [expect.objectContaining({ title: 'Habitat', body: 'Rivers of the platypus.' })] }),
    ]);

    const cr = await createCr(admin, space.id);
    const intoRequest = await admin.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', {
      params: { path: { spaceId: space.id, changeRequestId: cr.id } },
      body: { source: 'zip', base64: archive('wombat') },
    });
    expect(intoRequest.response.status).toBe(201);
    expect(await found(admin, space.id, 'wombat')).toEqual([]);
    await mergeCr(admin, space.id, cr.id);
    expect(await found(admin, space.id, 'wombat')).toEqual(['Imported wombat']);
  });

  it('copies rows to a duplicate, moves them with a transfer, hides deleted spaces and drops purged ones', async () => {
    const t = server();
    const { admin, organization, space } = await world(t);
    const { data: copy } = await admin.client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId: space.id } } });
    expect(await found(admin, copy!.id, 'fresh')).toEqual(['Install the server']);

    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, admin, 'admin');
    const moved = await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: copy!.id } }, body: { organization: target.organization.id } });
    expect(moved.response.status).toBe(200);
    expect(await found(admin, copy!.id, 'fresh')).toEqual(['Install the server']);
    // The target organization learnt the words: its typo pass finds them.
    expect(await found(admin, copy!.id, 'frresh ')).toEqual(['Install the server']);
    const inOrg = await orgSearch(admin, target.organization.id, 'fresh');
    expect(inOrg.data!.items.map((item) => item.id)).toEqual([copy!.id]);
    expect((await orgSearch(admin, organization.id, 'fresh')).data!.items.map((item) => item.id)).toEqual([space.id]);

    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    expect((await orgSearch(admin, organization.id, 'fresh')).data!.count).toBe(0);
    await admin.client.POST('/v1/spaces/{spaceId}/restore', { params: { path: { spaceId: space.id } } });
    expect((await orgSearch(admin, organization.id, 'fresh')).data!.count).toBe(1);

    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    await sql`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ${space.id}`.execute(t.db);
    await purgeExpiredSpaces(t.db, t.context.lifecycle);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_sections WHERE space_id = ${space.id}`.execute(t.db);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('keeps page titles in step: renames, hiding (for published search), deletions, duplicates, transfers and purges', async () => {
    const t = server();
    const { admin, organization, space, ids } = await world(t);
    const titled = async (spaceId: string) =>
      (await sql<{ pageId: string; organizationId: string; hidden: boolean }>`
        SELECT page_id, organization_id, hidden FROM search_titles WHERE space_id = ${spaceId} ORDER BY page_id`.execute(t.db)).rows;
    expect((await titled(space.id)).map((row) => row.pageId)).toEqual([ids.guides, ids.install, ids.faq].sort());

    // A stale title row would still list the page (with no section) for its old title.
    await edit(admin, space.id, [{ type: 'update_page', page: ids.faq, title: 'Walrus answers' }]);
    expect(await found(admin, space.id, 'walrus')).toEqual(['Walrus answers']);
    expect(await found(admin, space.id, 'questions')).toEqual([]);

    // Published-site search leaves hidden pages out, their titles included.
    await edit(admin, space.id, [{ type: 'update_page', page: ids.faq, hidden: true }]);
    expect((await titled(space.id)).find((row) => row.pageId === ids.faq)?.hidden).toBe(true);
    const published = { kind: 'spaces' as const, spaces: [{ organizationId: organization.id, spaceId: space.id }], publishedOnly: true };
    expect((await searchPages(t.db, published, 'walrus', { offset: 0, limit: 10 })).pages).toEqual([]);
    expect((await searchPages(t.db, published, 'install', { offset: 0, limit: 10 })).pages.map((page) => page.title)).toEqual(['Install the server']);

    await edit(admin, space.id, [{ type: 'delete_page', page: ids.faq }]);
    expect((await titled(space.id)).map((row) => row.pageId)).toEqual([ids.guides, ids.install].sort());

    const { data: copy } = await admin.client.POST('/v1/spaces/{spaceId}/duplicate', { params: { path: { spaceId: space.id } } });
    expect((await titled(copy!.id)).length).toBe(2);
    const target = await createOrganizationWithAdmin(t);
    await addMember(t, target.organization, admin, 'admin');
    await admin.client.POST('/v1/spaces/{spaceId}/transfer', { params: { path: { spaceId: copy!.id } }, body: { organization: target.organization.id } });
    expect((await titled(copy!.id)).map((row) => row.organizationId)).toEqual([target.organization.id, target.organization.id]);
    expect((await orgSearch(admin, target.organization.id, 'install')).data!.items[0]!.pages[0]!.title).toBe('Install the server');

    await admin.client.DELETE('/v1/spaces/{spaceId}', { params: { path: { spaceId: space.id } } });
    await sql`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ${space.id}`.execute(t.db);
    await purgeExpiredSpaces(t.db, t.context.lifecycle);
    expect(await titled(space.id)).toEqual([]);
  });

  it('builds rows for spaces indexed before the index existed, then keeps them in step', async () => {
    const t = server();
    const { admin, space, ids } = await world(t);
    await sql`DELETE FROM search_sections WHERE space_id = ${space.id}`.execute(t.db);
    await sql`DELETE FROM search_index_heads WHERE space_id = ${space.id}`.execute(t.db);
    expect(await found(admin, space.id, 'fresh')).toEqual([]);
    expect(await backfillSearchIndex(t.db, t.context.caches, t.context.parsing)).toBeGreaterThanOrEqual(1);
    expect(await found(admin, space.id, 'fresh')).toEqual(['Install the server']);
    await edit(admin, space.id, [{ type: 'update_page', page: ids.install, markdown: 'Nothing left.' }]);
    expect(await found(admin, space.id, 'fresh')).toEqual([]);
  });
});

describe('GET /v1/orgs/{organizationId}/search', () => {
  it('groups pages by space, best space first, and never shows a space the caller cannot read', async () => {
    const t = server();
    const { admin, organization, space, ids } = await world(t);
    const collection = await createCollection(t, admin, organization, { defaultLevel: null });
    const secret = await createSpace(t, admin, organization, { parent: collection, title: 'Secret' });
    const secretPages = await edit(admin, secret.id, [{ type: 'insert_page', ref: 'p', title: 'Installer secrets', markdown: 'The installer key.' }]);
    const guest = await createMember(t, organization, null);
    const reader = await createMember(t, organization, 'read');

    const { data } = await orgSearch(admin, organization.id, 'installer');
    expect(data).toEqual({
      // Both have a title match; the handbook's page ranks higher (its title and description match).
      items: [
        { id: space.id, title: 'Handbook', pages: [expect.objectContaining({ id: ids.install }), expect.objectContaining({ id: ids.faq })] },
        {
          id: secret.id,
          title: 'Secret',
          pages: [
            {
              id: secretPages.refs.p,
              title: 'Installer secrets',
              path: 'installer-secrets',
              urls: { app: `http://app.test/s/${secret.id}/installer-secrets` },
              sections: [expect.objectContaining({ id: secretPages.refs.p, body: 'The installer key.' })],
            },
          ],
        },
      ],
      count: 2,
    });
    expect((await orgSearch(reader, organization.id, 'installer')).data!.items.map((item) => item.id)).toEqual([space.id]);
    expect((await orgSearch(guest, organization.id, 'installer')).data).toEqual({ items: [], count: 0 });
    await grant(t, { kind: 'space', item: secret }, { user: guest }, 'read');
    expect((await orgSearch(guest, organization.id, 'installer')).data!.items.map((item) => item.id)).toEqual([secret.id]);
  });

  it('pages over spaces with a signed cursor', async () => {
    const t = server();
    const { admin, organization } = await world(t);
    const second = await createSpace(t, admin, organization, { title: 'Second' });
    await edit(admin, second.id, [{ type: 'insert_page', title: 'More', markdown: 'The installer again.' }]);
    const first = await orgSearch(admin, organization.id, 'installer', { limit: 1 });
    expect(first.data!.count).toBe(2);
    const next = await orgSearch(admin, organization.id, 'installer', { limit: 1, page: first.data!.next!.page });
    expect([...first.data!.items, ...next.data!.items].map((item) => item.title).sort()).toEqual(['Handbook', 'Second']);
    expect(next.data!.next).toBeUndefined();
  });
});
