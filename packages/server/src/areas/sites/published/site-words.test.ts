import { describe, expect, it } from 'vitest';
import { pageView, siteChrome } from '../../../../test/support/site-chrome.js';
import { renderPage } from './site-layout.js';
import { exactDate, relativeTime, wordsFor } from './site-words.js';

const NOW = new Date('2026-11-28T12:00:00.000Z');

describe('site words', () => {
  it('reads the site language, a regional variant as its language, an unknown one as English', () => {
    expect(wordsFor('fr').onThisPage).toBe('Sur cette page');
    expect(wordsFor('zh').onThisPage).toBe('本页内容');
    expect(wordsFor('pt-br').onThisPage).toBe('On this page');
    expect(wordsFor('de').morePages(3)).toBe('und 3 weitere Seiten');
  });

  it('dates relative to now in the language, with the exact date beside', () => {
    expect(relativeTime('en', new Date('2026-11-25T12:00:00.000Z'), NOW)).toBe('3 days ago');
    expect(relativeTime('fr', new Date('2026-11-28T10:00:00.000Z'), NOW)).toBe('il y a 2 heures');
    expect(relativeTime('ja', new Date('2026-10-01T12:00:00.000Z'), NOW)).toBe('2 か月前');
    expect(relativeTime('en', new Date('2026-11-28T11:59:50.000Z'), NOW)).toBe('now');
    // ICU's exact wording varies between Node versions: the parts, not the joining words.
    expect(exactDate('en', new Date('2026-11-25T12:00:00.000Z'))).toMatch(/^November 25, 2026(,| at) 12:00\sPM$/);
  });

  it('the page says it in its words: relative date with the exact one in <time title>, links as text', () => {
    const chrome = siteChrome({ locale: 'es', headerLinks: [{ title: '<script>x</script>', href: 'https://example.com/?a=1&b="2"' }] });
    const html = renderPage(chrome, pageView({ updatedAt: '2026-11-25T12:00:00.000Z' }), { sidebar: 'sidebar-default', noindex: false, now: NOW });
    expect(html).toMatch(/Última actualización <time class="relative" datetime="2026-11-25T12:00:00.000Z" title="25 de noviembre de 2026(,| a las) 12:00">hace 3 días<\/time>/);
    expect(html).toContain('&#x3C;script>x&#x3C;/script>');
    expect(html).not.toContain('<script>x');
    expect(html).toContain('href="https://example.com/?a=1&#x26;b=&#x22;2&#x22;"');
    expect(html).toContain('<a class="skip-link" href="#content">Ir al contenido</a>');
  });
});
