// What link previews and search engines read of a published page (areas/sites/published/site-layout.ts,
// sharingOf): Open Graph and Twitter tags, the canonical address, and JSON-LD (breadcrumbs, article),
// through real HTTP; a title that tries to close the JSON-LD element stays inside it.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { publishedSite, Visitor } from '../support/published.js';

const server = useTestServer();

describe('sharing tags of a published page', () => {
  it('gives Open Graph, Twitter and JSON-LD from the page, with absolute addresses', async () => {
    const world = await publishedSite(server(), [
      { type: 'insert_page', ref: 'install', title: 'Install', slug: 'install', description: 'Get the tool.', markdown: 'Steps.' },
      { type: 'insert_page', ref: 'linux', parent: { ref: 'install' }, title: 'On Linux </script><script>alert(1)</script>', slug: 'linux', description: 'With the package.', markdown: 'Use apt.' },
    ] as never);
    const answer = await new Visitor(world.t.url).get(`/s/${world.siteId}/install/linux`);
    expect(answer.status).toBe(200);
    const { document } = parseHTML(answer.body);
    const meta = (attribute: 'property' | 'name', key: string) => document.querySelector(`meta[${attribute}="${key}"]`)?.getAttribute('content');
    const canonical = document.querySelector('link[rel=canonical]')!.getAttribute('href')!;
    const title = 'On Linux </script><script>alert(1)</script>';
    expect(canonical).toMatch(/^https?:\/\/.+\/install\/linux$/);
    expect(meta('property', 'og:type')).toBe('article');
    expect(meta('property', 'og:title')).toBe(title);
    expect(meta('property', 'og:description')).toBe('With the package.');
    expect(meta('property', 'og:url')).toBe(canonical);
    expect(meta('property', 'og:site_name')).toBe('Acme Docs');
    // A public site's page has its generated social image (site-social.ts), so the large card.
    expect(meta('name', 'twitter:card')).toBe('summary_large_image');
    expect(meta('property', 'og:image')).toMatch(/^https?:\/\/.+\/_social\/.+\.png\?v=/);
    expect(meta('name', 'twitter:title')).toBe(title);
    // The title's markup stayed text: the page's only scripts are its own files and the data block.
    const scripts = [...document.querySelectorAll('script')];
    expect(scripts.map((script) => script.getAttribute('src') ?? script.getAttribute('type'))).toEqual(['application/ld+json', expect.stringMatching(/_assets\/site-/), expect.stringMatching(/_assets\/search-/)]);
    const data = JSON.parse(scripts[0]!.textContent!) as Array<Record<string, unknown>>;
    const install = new URL('install', `${canonical.replace(/install\/linux$/, '')}`).href;
    expect(data[0]).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Install', item: install },
        { '@type': 'ListItem', position: 2, name: title, item: canonical },
      ],
    });
    expect(data[1]).toMatchObject({ '@type': 'TechArticle', headline: title, description: 'With the package.', url: canonical, isPartOf: { '@type': 'WebSite', name: 'Acme Docs' } });
    // Inside the data block, `<` is escaped: nothing in it can end the element.
    expect(answer.body).toContain('"headline":"On Linux \\u003c/script>\\u003cscript>alert(1)\\u003c/script>"');
  });
});
