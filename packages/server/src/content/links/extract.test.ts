import { describe, expect, it } from 'vitest';
import { classifyHref, extractLinks } from './extract.js';
import { resolvePath } from './status.js';

describe('classifyHref', () => {
  it('reads the app address forms, anchors and external addresses', () => {
    expect(classifyHref('/pages/abc123#usage')).toEqual({ kind: 'page', page: 'abc123', anchor: 'usage' });
    expect(classifyHref('/files/f1')).toEqual({ kind: 'file', file: 'f1' });
    expect(classifyHref('/spaces/s1')).toEqual({ kind: 'space', space: 's1' });
    expect(classifyHref('/spaces/s1/pages/p1#a%20b')).toEqual({ kind: 'space', space: 's1', page: 'p1', anchor: 'a b' });
    expect(classifyHref('/spaces/s1/files/f1')).toEqual({ kind: 'space', space: 's1', file: 'f1' });
    expect(classifyHref('#usage')).toEqual({ kind: 'anchor', anchor: 'usage' });
    expect(classifyHref('https://example.com/x')).toEqual({ kind: 'url', url: 'https://example.com/x' });
    expect(classifyHref('mailto:a@example.com')).toEqual({ kind: 'url', url: 'mailto:a@example.com' });
    expect(classifyHref('//cdn.example.com/a.js')).toEqual({ kind: 'url', url: '//cdn.example.com/a.js' });
    expect(classifyHref('  ')).toBeUndefined();
  });

  it('folds relative paths, .md and README.md', () => {
    expect(classifyHref('install.md')).toEqual({ kind: 'path', path: 'install', up: 0 });
    expect(classifyHref('./a/../b/README.md#x')).toEqual({ kind: 'path', path: 'b', up: 0, anchor: 'x' });
    expect(classifyHref('../../guides/setup?tab=1')).toEqual({ kind: 'path', path: 'guides/setup', up: 2 });
    expect(classifyHref('/guides/setup.md')).toEqual({ kind: 'path', path: 'guides/setup', up: null });
    expect(classifyHref('../.gitbook/assets/diagram.png')).toEqual({ kind: 'path', path: '.gitbook/assets/diagram.png', up: 1 });
  });
});

describe('resolvePath', () => {
  it('resolves from the folder of the page, or from the root', () => {
    expect(resolvePath('guides/setup', { path: 'install', up: 0 })).toBe('guides/install');
    expect(resolvePath('guides/setup', { path: 'faq', up: 1 })).toBe('faq');
    expect(resolvePath('guides/setup', { path: 'faq', up: 2 })).toBeNull();
    expect(resolvePath('guides/setup', { path: 'faq', up: null })).toBe('faq');
  });
});

describe('extractLinks', () => {
  it('finds links, images and references with their section, once each, and every anchor', () => {
    const markdown = [
      'See [home](/pages/p1) and [docs](https://example.com).',
      '# Usage',
      '![diagram](/files/f1) [again](/pages/p1) [ref][r] [same](/pages/p1)',
      '```',
      '[not a link](/pages/nope)',
      '```',
      '[r]: ../faq.md#top',
    ].join('\n\n');
    expect(extractLinks(markdown)).toEqual({
      anchors: ['usage'],
      links: [
        { relation: 'link', section: null, target: { kind: 'page', page: 'p1' }, href: '/pages/p1' },
        { relation: 'link', section: null, target: { kind: 'url', url: 'https://example.com' }, href: 'https://example.com' },
        { relation: 'image', section: 'usage', target: { kind: 'file', file: 'f1' }, href: '/files/f1' },
        { relation: 'link', section: 'usage', target: { kind: 'page', page: 'p1' }, href: '/pages/p1' },
        { relation: 'link', section: 'usage', target: { kind: 'path', path: 'faq', up: 1, anchor: 'top' }, href: '../faq.md#top' },
      ],
    });
  });
});
