import { describe, expect, it } from 'vitest';
import { pageView, siteChrome } from '../../../../test/support/site-chrome.js';
import { renderPage } from './site-layout.js';

const chrome = siteChrome();
const options = { sidebar: 'sidebar-default', noindex: false, now: new Date('2026-11-28T12:00:00.000Z') };

describe('renderPage: the body joined into the serialized shell', () => {
  it('puts the body, as given, once, inside the content element', () => {
    const body = '<p>First</p><table><tr><td>cell</td></tr></table>';
    const html = renderPage(chrome, pageView({ body }), options);
    expect(html.split(body)).toHaveLength(2);
    expect(html).toContain(`<div class="content">${body}</div>`);
    expect(html).not.toMatch(/<!--body-/);
  });

  it('is not misled by page text that looks like the slot', () => {
    // Text and attributes of the shell are escaped or kept verbatim; the slot is named by a random id, so neither can take its place.
    const lookalike = '<!--body-00000000-0000-0000-0000-000000000000-->';
    const html = renderPage(chrome, pageView({ title: lookalike, description: lookalike, body: '<p>Real body</p>' }), options);
    expect(html).toContain('<div class="content"><p>Real body</p></div>');
    expect(html.indexOf('<p>Real body</p>')).toBeGreaterThan(html.indexOf('<h1'));
  });
});
