// A published page's body is rendered once per document (issue 28, "Speed"; body-template.ts): the
// renderings are counted by the `siteBodies` cache's misses (a miss is a render in the parse pool), so
// an edit to one page renders that page alone, what other pages show of it (a content reference's
// title, a link's address) follows without rendering them again, and the edited page shows its new text.
import { describe, expect, it } from 'vitest';
import { edit } from '../support/content.js';
import { useTestServer } from '../support/harness.js';
import { publishedSite, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer();

const root = (world: PublishedWorld) => `/s/${world.siteId}`;

/** Bodies rendered by the server so far. */
const renders = (world: PublishedWorld) => world.t.context.caches.siteBodies.stats().misses;

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
