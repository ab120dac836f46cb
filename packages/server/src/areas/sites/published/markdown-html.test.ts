import { describe, expect, it } from 'vitest';
import { fillBody, type LinkResolver } from './body-template.js';
import { expandGitbookBlocks } from './gitbook-blocks.js';
import { renderBodyTemplate } from './markdown-html.js';

const links: LinkResolver = {
  link: (href) => (href.startsWith('/pages/') ? { href: `/site/${href.slice(7)}`, title: `Page ${href.slice(7)}` } : /^https?:/.test(href) ? { href, external: true } : { broken: true }),
  image: (src) => (src.startsWith('/files/') ? { src: `/site/_files/${src.slice(7)}`, width: 20, height: 10 } : /^https?:/.test(src) ? { external: src } : { broken: true }),
};
const html = (markdown: string) => fillBody(renderBodyTemplate(markdown), links);

describe('renderBodyTemplate and fillBody', () => {
  it('lets no script through: tags, handlers, javascript: links, styles', () => {
    const out = html('<script>alert(1)</script>\n\n<img src="/files/a" onerror="alert(2)" style="x">\n\n[x](javascript:alert(3)) <a href="JaVaScRiPt:alert(4)">y</a> <iframe src="https://e.com"></iframe>');
    expect(out).not.toMatch(/<script|onerror|alert|javascript|<iframe|style=/i);
    expect(out).toContain('<img src="/site/_files/a" width="20" height="10" loading="lazy"');
  });

  it('highlights fences that name their language, anchors headings, outlines h2/h3, footnotes link to themselves', () => {
    const rendered = renderBodyTemplate('## One\n\n### Two\n\n```python\ndef f(): pass\n```\n\nA[^n].\n\n[^n]: Note.');
    const out = fillBody(rendered, links);
    expect(out).toContain('<span class="hljs-keyword">def</span>');
    expect(out).toContain('<h2 id="one">One<a class="heading-anchor" href="#one"');
    expect(rendered.outline).toEqual([
      { id: 'one', text: 'One', depth: 2 },
      { id: 'two', text: 'Two', depth: 3 },
    ]);
    const target = /href="#(user-content-fn-n)"/.exec(out)![1];
    expect(out).toContain(`id="${target}"`);
  });

  it('renders GitBook blocks and leaves them alone inside code', () => {
    const out = html('{% hint style="danger" %}\nStop.\n{% endhint %}\n\n{% code title="a.js" %}\n```js\nx\n```\n{% endcode %}\n\n```md\n{% hint %}\n```\n\n{% embed url="https://video.example/1" %}\n\n{% unknown %}kept{% endunknown %}');
    expect(out).toContain('<div class="hint hint-danger" role="note"><p class="hint-label">Important</p>');
    expect(out).toContain('<figure class="code-titled"><figcaption>a.js</figcaption>');
    expect(out).toContain('{% hint %}');
    expect(out).toContain('<div class="embed"><a href="https://video.example/1" rel="noopener noreferrer">https://video.example/1</a>');
    expect(out).toContain('kept');
  });

  it('escapes what block attributes carry and refuses non-http embeds', () => {
    expect(expandGitbookBlocks('{% tab title="a<b>&" %}x{% endtab %}')).toContain('<div data-gb="tab" data-title="a&lt;b&gt;&amp;">');
    expect(html('{% tab title="a\\"><script>alert(1)</script>" %}x{% endtab %}')).not.toMatch(/<script|alert/);
    expect(html('{% embed url="javascript:alert(1)" %}')).not.toContain('javascript');
  });

  it('marks broken links and images, shows images of other origins as links', () => {
    const out = html('[gone](/elsewhere/y) ![remote](https://cdn.example/a.png) ![lost](nowhere.png)');
    expect(out).toContain('<span class="broken-link" title="This link leads to nothing published">gone</span>');
    expect(out).toContain('<a class="external-image" href="https://cdn.example/a.png" rel="noopener noreferrer">Image: remote</a>');
    expect(out).toContain('Image: lost');
  });

  it('keeps what depends on the site out of the rendering: links, images and content references are filled at assembly', () => {
    const template = renderBodyTemplate('[a](/pages/p1 "The title") and [b](/pages/p1) ![img](/files/f)\n\n{% content-ref url="/pages/p2" %}\n[p2.md](/pages/p2)\n{% endcontent-ref %}');
    expect(template.parts.join('')).not.toContain('/pages/');
    expect(fillBody(template, links)).toContain('<a href="/site/p1" title="The title">a</a>');
    const moved = fillBody(template, { ...links, link: (href) => ({ href: `/moved${href}`, title: 'Renamed' }) });
    expect(moved).toContain('<a href="/moved/pages/p1">b</a>');
    expect(moved).toContain('<a class="content-ref" href="/moved/pages/p2"><span class="content-ref-title">Renamed</span></a>');
    expect(fillBody(template, links)).toContain('<span class="content-ref-title">Page p2</span>');
  });

  it('never nests a link in a link: an external badge image inside one is its label', () => {
    const out = html('[![npm version](https://badge.example/npm.svg)](https://www.npmjs.com/package/x)');
    expect(out).toBe('<p><a href="https://www.npmjs.com/package/x" rel="noopener noreferrer"><span class="external-image">Image: npm version</span></a></p>');
  });

  it('escapes what the resolver gives and what holes carry', () => {
    const template = renderBodyTemplate('[x](/pages/a) ![q"<](/files/f)\n\n{% content-ref url="/pages/b" %}\nx\n{% endcontent-ref %}');
    const out = fillBody(template, { link: () => ({ href: '"><script>', title: '<b>&' }), image: () => ({ external: '"><script>' }) });
    expect(out).not.toMatch(/<script|<b>/);
    expect(out).toContain('&lt;b&gt;&amp;');
  });

  it('numbers the lines of a code block that asks for it (highlighting spans cut at line ends) and marks wrapping', () => {
    const out = html('{% code title="a.js" lineNumbers="true" overflow="wrap" %}\n```js\n/* one\ntwo */\nx\n```\n{% endcode %}\n\n```js\nplain\n```');
    expect(out).toContain('<figure class="code-titled line-numbers code-wrap"><figcaption>a.js</figcaption>');
    expect(out).toContain('<code class="hljs language-js"><span class="line"><span class="hljs-comment">/* one</span></span>\n<span class="line"><span class="hljs-comment">two */</span></span>\n<span class="line">x</span></code>');
    expect(out).toContain('<code class="hljs language-js">plain\n</code>');
  });
});
