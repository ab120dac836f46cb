// A published page's body is rendered once per document (issue 28, "Speed"; body-template.ts): the
// renderings are counted where they happen, as the `site-body` runs handed to the parse pool (and by the
// `siteBodies` cache's misses, which /metrics shows), so an edit to one page renders that page alone —
// whichever space of the site it is in —, what other pages show of it (a content reference's title, a
// link's address) follows without rendering them again, and the edited page shows its new text.
import { describe, expect, it } from 'vitest';
import { edit } from '../support/content.js';
import { useTestServer } from '../support/harness.js';
import { addSection, publishedSite, spaceWithPages, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer();

const root = (world: PublishedWorld) => `/s/${world.siteId}`;

/** Bodies rendered by the server so far: the parse pool's `site-body` runs. */
const renders = (world: PublishedWorld) => world.t.context.parsing.runs('site-body');

async function threePages(): Promise<PublishedWorld> {
  return publishedSite(server(), [
    { type: 'insert_page', ref: 'intro', title: 'Introduction', slug: 'intro', markdown: 'Start with [the setup](setup.md).\n\n{% content-ref url="setup.md" %}\n[setup.md](setup.md)\n{% endcontent-ref %}' },
    { type: 'insert_page', ref: 'setup', title: 'Setup', slug: 'setup', markdown: 'Install it.\n\n```js\nconst a = 1;\n```' },
    { type: 'insert_page', ref: 'faq', title: 'FAQ', slug: 'faq', markdown: '## Answers\n\nYes.' },
  ] as never);
}

describe('published pages rendered once per document', () => {
  it('renders each body once; an edit to one page renders that page alone and shows its new text', async () => {
    const world = await threePages();
    const guide = world.spaces.guide!;
    const visitor = new Visitor(world.t.url);
    const pages = ['intro', 'setup', 'faq'];
    const before = renders(world);
    for (const page of pages) expect((await visitor.get(`${root(world)}/${page}`)).status).toBe(200);
    expect(renders(world) - before).toBe(3);
    // Seen again, by anyone: nothing rendered.
    for (const page of pages) await new Visitor(world.t.url).get(`${root(world)}/${page}`);
    expect(renders(world) - before).toBe(3);

    await edit(world.admin, guide.id, [{ type: 'update_page', page: guide.refs.setup!, markdown: 'Install it **twice**.' } as never]);
    const afterEdit = renders(world);
    const answers = await Promise.all(pages.map((page) => visitor.get(`${root(world)}/${page}`)));
    expect(renders(world) - afterEdit).toBe(1);
    expect(answers[1]!.body).toContain('Install it <strong>twice</strong>.');
    expect(answers[1]!.body).not.toContain('const a = 1');
    // The other pages are assembled again (the space's head moved), from their kept bodies.
    expect(answers[0]!.body).toContain('<span class="content-ref-title">Setup</span>');
  });

  it('an edit in one space of a multi-space site renders that page alone, nothing of the other spaces', async () => {
    const world = await threePages();
    const { t, admin, organizationId, siteId } = world;
    const api = await spaceWithPages(t, admin, organizationId, 'API', [
      { type: 'insert_page', ref: 'list', title: 'List things', slug: 'list', markdown: '## GET /things\n\n```sh\ncurl https://api.example/things\n```' },
      { type: 'insert_page', ref: 'create', title: 'Create a thing', slug: 'create', markdown: '## POST /things\n\n```json\n{ "name": "a" }\n```' },
      { type: 'insert_page', ref: 'remove', title: 'Remove a thing', slug: 'remove', markdown: '## DELETE /things/{id}\n\nGone for good.' },
    ] as never);
    const section = await addSection(admin.client, organizationId, siteId, api.id, 'API');
    const paths = [...['intro', 'setup', 'faq'].map((page) => `${root(world)}/${page}`), ...['list', 'create', 'remove'].map((page) => `${root(world)}/${section.path}/${page}`)];
    const visitor = new Visitor(t.url);
    const visitAll = async () => {
      const answers = await Promise.all(paths.map((path) => visitor.get(path)));
      expect(answers.map((answer) => answer.status)).toEqual(paths.map(() => 200));
      return answers;
    };
    await visitAll();

    // An edit in the API space: its page alone, although every page of the site is assembled again.
    let before = renders(world);
    await edit(admin, api.id, [{ type: 'update_page', page: api.refs.create!, markdown: '## POST /things\n\nCreates a thing **now**.' } as never]);
    const answers = await visitAll();
    expect(renders(world) - before).toBe(1);
    expect(answers[4]!.body).toContain('Creates a thing <strong>now</strong>.');

    // A retitled page moves the navigation of every page of its space: still no body rendered.
    before = renders(world);
    await edit(admin, api.id, [{ type: 'update_page', page: api.refs.list!, title: 'List every thing' } as never]);
    const retitled = await visitAll();
    expect(renders(world) - before).toBe(0);
    expect(retitled[5]!.body).toContain('List every thing');
  });

  it('a renamed or moved page is followed by the pages that lead to it, without rendering them again', async () => {
    const world = await threePages();
    const guide = world.spaces.guide!;
    const setup = guide.refs.setup!;
    await edit(world.admin, guide.id, [{ type: 'update_page', page: guide.refs.intro!, markdown: `See [the setup](/pages/${setup}).\n\n{% content-ref url="/pages/${setup}" %}\n[setup](/pages/${setup})\n{% endcontent-ref %}` } as never]);
    const visitor = new Visitor(world.t.url);
    const intro = await visitor.get(`${root(world)}/intro`);
    expect(intro.body).toContain(`<a href="${root(world)}/setup">the setup</a>`);
    expect(intro.body).toContain(`<a class="content-ref" href="${root(world)}/setup"><span class="content-ref-title">Setup</span></a>`);
    const before = renders(world);

    await edit(world.admin, guide.id, [{ type: 'update_page', page: setup, title: 'Installation', parent: guide.refs.faq! } as never]);
    const moved = (await visitor.get(`${root(world)}/intro`)).body;
    expect(moved).toContain(`<a href="${root(world)}/faq/setup">the setup</a>`);
    expect(moved).toContain(`<a class="content-ref" href="${root(world)}/faq/setup"><span class="content-ref-title">Installation</span></a>`);
    expect(renders(world)).toBe(before);
  });
});
