// The sample site of the published-site tests (issue 28's "every page of the sample site"): a realistic
// documentation site as its owner would build it through the API — a guide (a page with tabs, a hint, a
// table, code, an image and links between pages; subpages; a hidden page), an API section with two
// versions (variants), and a beta section shown to visitors with a claim. Used by the Chromium tests
// (test/integration/published-sites.browser.test.ts) and the agent round trip
// (test/agents/agent-markdown-round-trip.test.ts).
import type { TestServer } from './harness.js';
import { edit, NPM_INSTALL_TAB, tabsBlock } from './content.js';
import { solidPng } from './images.js';
import { addSection, addSiteSpace, publishedSite, sitePath, spaceWithPages, type PublishedWorld } from './published.js';

/** The guide's introduction (its `{…}` filled with the refs of the pages and the file it names). */
export const SAMPLE_INTRO_MARKDOWN = [
  'Everything about the **tool**. See [the FAQ](/pages/{faq}) and [Install](/pages/{install}#linux).',
  '',
  '## Getting set up',
  '',
  ...tabsBlock({ npm: NPM_INSTALL_TAB, pnpm: ['```sh', 'pnpm add tool', '```'] }),
  '',
  '{% hint style="info" %}',
  'The tool needs Node.js 20.',
  '{% endhint %}',
  '',
  '## Configuration',
  '',
  '| Option | Default | Meaning |',
  '| --- | --- | --- |',
  '| `port` | 8080 | Where it listens |',
  '| `verbose` | false | Say more |',
  '',
  '```ts',
  'export const config = { port: 8080, verbose: false };',
  '```',
  '',
  '![A chart](/files/{chart})',
].join('\n');

export type SampleSite = PublishedWorld & {
  /** Paths of the API and beta sections. */
  sections: Record<'api' | 'beta', string>;
  /** Every space of the site: the guide's, the API's two versions, the beta's. */
  spaceIds: string[];
};

/** The sample site (see the file's header), published, titled "Toolbox". */
export async function sampleSite(t: TestServer, visibility: 'public' | 'share-link' | 'visitor-auth' = 'public'): Promise<SampleSite> {
  const world = await publishedSite(
    t,
    [
      { type: 'insert_file', ref: 'chart', name: 'chart.png', contentType: 'image/png', base64: solidPng(320, 120).toString('base64') },
      { type: 'insert_page', ref: 'intro', title: 'Introduction', slug: 'introduction', emoji: '📘', description: 'What the tool does and how to start.', markdown: '' },
      { type: 'insert_page', ref: 'install', title: 'Install', slug: 'install', markdown: '## Linux\n\nUse the package.\n\n## macOS\n\nUse Homebrew.' },
      { type: 'insert_page', ref: 'deep', parent: { ref: 'install' }, title: 'From source', slug: 'from-source', markdown: 'Build it: `make`.' },
      { type: 'insert_page', ref: 'faq', title: 'FAQ', slug: 'faq', markdown: '## Is it free?\n\nYes.' },
      { type: 'insert_page', ref: 'hidden', title: 'Internal notes', slug: 'internal', hidden: true, markdown: 'Hidden.' },
    ] as never,
    { visibility, title: 'Toolbox' },
  );
  const guide = world.spaces.guide!;
  await edit(world.admin, guide.id, [{ type: 'update_page', page: guide.refs.intro!, markdown: SAMPLE_INTRO_MARKDOWN.replace('{faq}', guide.refs.faq!).replace('{install}', guide.refs.install!).replace('{chart}', guide.refs.chart!) } as never]);
  const { admin, organizationId, siteId } = world;
  const v1 = await spaceWithPages(t, admin, organizationId, 'v1', [{ type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: '## GET /things\n\nLists things (v1).' } as never]);
  const v2 = await spaceWithPages(t, admin, organizationId, 'v2', [{ type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: '## GET /things\n\nLists things (v2).' } as never]);
  const beta = await spaceWithPages(t, admin, organizationId, 'Beta', [{ type: 'insert_page', title: 'Beta features', slug: 'features', markdown: 'Try them.' } as never]);
  const api = await addSection(admin.client, organizationId, siteId, v1.id, 'API');
  await addSiteSpace(admin.client, organizationId, siteId, v2.id, api.id);
  const betaSection = await addSection(admin.client, organizationId, siteId, beta.id, 'Beta');
  await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { organizationId, siteId, siteSectionId: betaSection.id } }, body: { condition: 'visitor.claims.unsigned.beta === true' } });
  await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(organizationId, siteId), body: { styling: { primaryColor: { light: '#0B5FFF', dark: '#5C8DFF' }, corners: 'rounded' }, favicon: { emoji: '🧰' } } as never });
  return { ...world, sections: { api: api.path, beta: betaSection.path }, spaceIds: [guide.id, v1.id, v2.id, beta.id] };
}
