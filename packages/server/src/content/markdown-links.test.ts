import { describe, expect, it } from 'vitest';
import { markdownDestinations, rewriteDestinations } from './markdown-links.js';

describe('markdownDestinations', () => {
  it('finds inline links, images, definitions and raw HTML attributes, not code', () => {
    const source = [
      'See [the guide](guide.md#install "Guide") and ![logo](<img/my logo.png>).',
      '',
      '[ref]: ../other.md',
      '',
      '<figure><img src="../.gitbook/assets/a&amp;b.png" alt=""></figure>',
      '',
      '```',
      '[not a link](nope.md)',
      '```',
      '',
      'Autolink <https://example.com> stays.',
    ].join('\n');
    expect(markdownDestinations(source).map(({ url, kind }) => [url, kind])).toEqual([
      ['guide.md#install', 'link'],
      ['img/my logo.png', 'image'],
      ['../other.md', 'link'],
      ['../.gitbook/assets/a&b.png', 'image'],
    ]);
  });

  it('finds a link whose text holds brackets and code', () => {
    expect(markdownDestinations('[a [b] `c](d)`](x.md)').map((d) => d.url)).toEqual(['x.md']);
  });
});

describe('rewriteDestinations', () => {
  it('replaces only the addresses, keeping everything else as written', () => {
    const source = 'A [link](a.md "T") and ![i](<x y.png>) and [keep](https://k.test/).\n';
    const out = rewriteDestinations(source, ({ url }) => ({ 'a.md': '/pages/P1#top', 'x y.png': '/files/F1' })[url]);
    expect(out).toBe('A [link](/pages/P1#top "T") and ![i](</files/F1>) and [keep](https://k.test/).\n');
  });

  it('wraps an address with spaces or parentheses in angle brackets', () => {
    expect(rewriteDestinations('[a](b)', () => 'https://x.test/a (1)')).toBe('[a](<https://x.test/a (1)>)');
  });
});
