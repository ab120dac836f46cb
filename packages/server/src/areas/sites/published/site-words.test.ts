import { describe, expect, it } from 'vitest';
import { pageView, siteChrome } from '../../../../test/support/site-chrome.js';
import { feedbackForm } from './feedback-form.js';
import { renderMessage, renderPage, renderSearch, type Chrome } from './site-layout.js';
import { exactDate, LANGUAGES, relativeTime, wordsFor, type Words } from './site-words.js';

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

/** Every English text of the table: a function's fixed parts (around what it is given), a string whole. */
function englishTexts(words: unknown): string[] {
  if (typeof words === 'string') return [words];
  if (typeof words === 'function') {
    const sample = (words as (...args: unknown[]) => string)('§', 2, 2);
    return sample.split(/§|2/).filter((part) => /[A-Za-z]{2}/.test(part));
  }
  return Object.values(words as Record<string, unknown>).flatMap(englishTexts);
}

const decode = (text: string) => text.replace(/&#x([0-9A-F]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))).replace(/&amp;/g, '&');

/**
 * What a visitor reads of a page: its text and the attributes that are words (labels, placeholders,
 * titles, the words the script shows), not addresses, classes or ids. Scripts (the JSON-LD) aside.
 */
function readable(html: string): string[] {
  const withoutScripts = html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
  const texts = [...withoutScripts.matchAll(/>([^<]+)</g)].map((match) => decode(match[1]!).trim());
  const attributes = [...withoutScripts.matchAll(/\s([a-z-]+)="([^"]*)"/g)]
    .filter(([, name]) => /^(aria-label|title|placeholder|alt|value|data-(?!endpoint$|scope$|feedback$|expanded$).*)$/.test(name!))
    .map(([, , value]) => decode(value!));
  // The dialog's words are JSON in one attribute: its values, each a text.
  const values = attributes.flatMap((value) => (value.startsWith('{') ? Object.values(JSON.parse(value) as Record<string, string>) : [value]));
  return [...texts, ...values].filter((text) => text !== '');
}

describe('every word a visitor meets is in the site language', () => {
  const ja = wordsFor('ja');
  const chromeIn = (words: Words): Chrome => ({
    root: '/s/site',
    title: 'ドキュメント',
    locale: 'ja',
    assets: { css: '/a.css', theme: '/t.css', js: '/a.js', search: '/s.js', textFont: '/f.woff2' },
    tabs: [
      { kind: 'section', title: '入門', href: '/s/site/start/', current: true },
      { kind: 'group', title: '参照', sections: [{ title: 'API', href: '/s/site/api/', description: '説明' }] },
    ],
    headerLinks: [{ title: 'ブログ', href: 'https://blog.example/' }],
    footerLinks: [{ title: '会社', href: 'https://example.com/' }],
    words,
    searchAction: '/s/site/search',
    searchEndpoint: '/s/site/_search',
    searchScope: { id: 'ss_1', label: '入門' },
    favicon: { emoji: '📘' },
    noindex: false,
  });
  const page = (chrome: Chrome) =>
    renderPage(
      chrome,
      {
        title: 'はじめに',
        description: '最初のページ',
        canonical: 'https://d.example/start',
        markdown: 'https://d.example/start.md',
        breadcrumbs: [{ title: '入門', href: '/s/site/start/' }],
        switcher: { label: '版', items: [{ title: '第一版', href: '/s/site/v1/', current: true }] },
        tree: [{ title: '親', href: '/s/site/a', current: false, expanded: true, children: [{ title: '子', href: '/s/site/a/b', current: true, children: [] }], more: 3 }],
        body: '<p>本文</p>',
        outline: [{ depth: 2, id: 'h', text: '見出し' }],
        updatedAt: '2026-11-25T12:00:00.000Z',
        previous: { title: '前のページ', href: '/s/site/p' },
        next: { title: '次のページ', href: '/s/site/n' },
        feedback: { action: '/s/site/_feedback', space: 'sp', page: 'pg', revision: 'rv' },
      },
      { sidebar: 'sidebar-default', noindex: false, now: NOW },
    );
  // Every kind of page the chrome renders, every message it shows.
  const pages = (words: Words) => {
    const chrome = chromeIn(words);
    const { messages } = words;
    return {
      page: page(chrome),
      notFound: renderMessage(chrome, { title: messages.notFound, text: messages.notFoundText, link: { title: messages.goTo(chrome.title), href: '/s/site/' } }),
      signIn: renderMessage(chrome, { title: messages.signIn, text: messages.signInText }),
      tooMany: renderMessage(chrome, { title: messages.tooMany, text: messages.tooManyText(3) }),
      feedbackSent: renderMessage(chrome, { title: words.feedback.sent, text: words.feedback.sentText, link: { title: words.feedback.back, href: '/s/site/p' } }),
      searchEmpty: renderSearch(chrome, { query: '', total: 0, hits: [], page: 1 }),
      searchNone: renderSearch(chrome, { query: '検索語', total: 0, hits: [], page: 1 }),
      searchProblem: renderSearch(chrome, { query: '検索語', problem: words.results.control, total: 0, hits: [], page: 1 }),
      searchHits: renderSearch(chrome, {
        query: '検索語',
        total: 45,
        hits: [{ title: '結果', href: '/s/site/r', snippet: '抜粋', where: '入門' }],
        page: 2,
        previous: '/s/site/search?q=x',
        next: '/s/site/search?q=x&page=3',
      }),
    };
  };

  it('the table has every text in every language, each different from the English one where it is a sentence', () => {
    const english = englishTexts(wordsFor('en'));
    for (const language of LANGUAGES.filter((code) => code !== 'en')) {
      const theirs = new Set(englishTexts(wordsFor(language)));
      // Words several languages share ("Menu", "Variantes"...) are allowed; a sentence left in English is not.
      expect(english.filter((text) => text.split(' ').length > 2 && theirs.has(text)), language).toEqual([]);
    }
  });

  it('rendered in Japanese, no page shows a text of the English table', () => {
    const english = englishTexts(wordsFor('en')).map((text) => text.trim());
    for (const [kind, html] of Object.entries(pages(ja))) {
      const texts = readable(html);
      // A long text anywhere inside; a short one ("No", "In") as a whole text only.
      const left = english.filter((word) => (word.length > 4 ? texts.some((text) => text.includes(word)) : texts.includes(word)));
      expect(left, kind).toEqual([]);
    }
  });

  it('rendered in Japanese, no page shows English words from outside the table either', () => {
    for (const [kind, html] of Object.entries(pages(ja))) {
      // Two Latin words in a row are an English phrase: only the product's name may be one.
      const phrases = readable(html).flatMap((text) => text.replace(/Content Workspace/g, '').match(/[A-Za-z]{2,}[\s,:'’-]+[A-Za-z]{2,}/g) ?? []);
      expect(phrases, kind).toEqual([]);
    }
  });

  it('the same pages in English do show those texts (the checks can see them)', () => {
    const rendered = pages(wordsFor('en'));
    expect(readable(rendered.page)).toEqual(expect.arrayContaining(['Was this page helpful?', 'Copy page as Markdown', 'Previous', 'Next']));
    expect(readable(rendered.searchHits).join('\n')).toContain('45 pages match your search (results page 2).');
    expect(readable(rendered.page).join('\n')).toContain('Thank you for your feedback.');
    expect(readable(rendered.page).join('\n')).toContain('{count} results');
  });

  it('the feedback form carries the words its script shows', () => {
    const html = JSON.stringify(feedbackForm({ action: '/f', space: 's', page: 'p', revision: 'r' }, wordsFor('de').feedback));
    expect(html).toContain('Danke für Ihr Feedback.');
    expect(html).toContain('War diese Seite hilfreich?');
  });
});
