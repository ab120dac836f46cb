import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { expandGitbookBlocks } from './gitbook-blocks.js';
import { renderBody, type LinkResolver } from './markdown-html.js';

const links: LinkResolver = {
  link: (href) => (href.startsWith('/pages/') ? { href: `/site/${href.slice(7)}` } : /^https?:/.test(href) ? { href, external: true } : { broken: true }),
  image: (src) => (src.startsWith('/files/') ? { src: `/site/_files/${src.slice(7)}` } : /^https?:/.test(src) ? { external: src } : { broken: true }),
};
const html = (markdown: string) => toHtml({ type: 'root', children: renderBody(markdown, links).nodes });

describe('renderBody', () => {
  it('lets no script through: tags, handlers, javascript: links, styles', () => {
    const out = html('<script>alert(1)</script>\n\n<img src="/files/a" onerror="alert(2)" style="x">\n\n[x](javascript:alert(3)) <a href="JaVaScRiPt:alert(4)">y</a> <iframe src="https://e.com"></iframe>');
    expect(out).not.toMatch(/<script|onerror|alert|javascript|<iframe|style=/i);
    expect(out).toContain('<img src="/site/_files/a"');
  });

  it('highlights fences that name their language, anchors headings, outlines h2/h3, footnotes link to themselves', () => {
    const rendered = renderBody('## One\n\n### Two\n\n```python\ndef f(): pass\n```\n\nA[^n].\n\n[^n]: Note.', links);
    const out = toHtml({ type: 'root', children: rendered.nodes });
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
});
