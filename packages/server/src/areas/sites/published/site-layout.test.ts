import { describe, expect, it } from 'vitest';
import { renderPage, type Chrome, type PageView } from './site-layout.js';

const chrome: Chrome = { root: '/s/site', title: 'Docs', locale: 'en', assets: { css: '/a.css', theme: '/t.css', js: '/a.js', search: '/s.js' }, tabs: [], noindex: false };
const view = (overrides: Partial<PageView>): PageView => ({
  title: 'Page',
  canonical: 'https://docs.example/page',
  markdown: 'https://docs.example/page.md',
  breadcrumbs: [],
  tree: [],
  body: '',
  outline: [],
  updatedAt: '2026-11-28T10:00:00.000Z',
  ...overrides,
});

describe('renderPage: the body joined into the serialized shell', () => {
  it('puts the body, as given, once, inside the content element', () => {
    const body = '<p>First</p><table><tr><td>cell</td></tr></table>';
    const html = renderPage(chrome, view({ body }), { sidebar: 'sidebar-default', noindex: false });
    expect(html.split(body)).toHaveLength(2);
    expect(html).toContain(`<div class="content">${body}</div>`);
    expect(html).not.toMatch(/<!--body-/);
  });

  it('is not misled by page text that looks like the slot', () => {
    // Text and attributes of the shell are escaped or kept verbatim; the slot is named by a random id, so neither can take its place.
    const lookalike = '<!--body-00000000-0000-0000-0000-000000000000-->';
    const html = renderPage(chrome, view({ title: lookalike, description: lookalike, body: '<p>Real body</p>' }), { sidebar: 'sidebar-default', noindex: false });
    expect(html).toContain('<div class="content"><p>Real body</p></div>');
    expect(html.indexOf('<p>Real body</p>')).toBeGreaterThan(html.indexOf('<h1'));
  });
});
