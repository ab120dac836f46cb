import { describe, expect, it } from 'vitest';
import { fillBody, type LinkResolver } from './body-template.js';
import { expandGitbookBlocks } from './gitbook-blocks.js';
import { CodeHighlighter } from './code-highlight.js';
import { renderBodyTemplate } from './markdown-html.js';
import { parseMarkdown } from './markdown-parse.js';

const links: LinkResolver = {
  link: (href) => (href.startsWith('/pages/') ? { href: `/site/${href.slice(7)}`, title: `Page ${href.slice(7)}` } : /^https?:/.test(href) ? { href, external: true } : { broken: true }),
  image: (src) => (src.startsWith('/files/') ? { src: `/site/_files/${src.slice(7)}`, width: 20, height: 10 } : /^https?:/.test(src) ? { external: src } : { broken: true }),
};
const highlighter = new CodeHighlighter(1024 * 1024);
const render = (markdown: string) => renderBodyTemplate(markdown, highlighter);
const html = (markdown: string) => fillBody(render(markdown), links);

describe('renderBodyTemplate and fillBody', () => {
  it('lets no script through: tags, handlers, javascript: links, styles', () => {
    const out = html('<script>alert(1)</script>\n\n<img src="/files/a" onerror="alert(2)" style="x">\n\n[x](javascript:alert(3)) <a href="JaVaScRiPt:alert(4)">y</a> <iframe src="https://e.com"></iframe>');
    expect(out).not.toMatch(/<script|onerror|alert\(2|href="?javascript|<iframe|style=/i);
    expect(out).toContain('<img src="/site/_files/a" width="20" height="10" loading="lazy"');
  });

  it('Markdown alone (no sanitizer pass: markdown-hast.ts): a javascript: link, addresses of other protocols and entities stay inert', () => {
    const markdown = '[x](javascript:alert(1)) [y](JAVASCRIPT:alert(2)) [z](vbscript:a) [f](ftp://e.org/a) ![i](data:image/png;base64,AA) ![j](javascript:alert(3))\n\n&lt;script&gt;alert(4)&lt;/script&gt; &amp;lt;b&amp;gt; &#60;img src=x onerror=alert(5)&#62; `<script>`';
    expect(parseMarkdown(expandGitbookBlocks(markdown)).sanitized).toBe(true);
    const template = render(markdown);
    // markdown-it leaves javascript: and vbscript: links as their text; ftp: and data: addresses go as the sanitizer drops them.
    expect(template.parts[0]).toBe('<p>[x](javascript:alert(1)) [y](JAVASCRIPT:alert(2)) [z](vbscript:a) <a>f</a> ');
    expect(template.holes).toEqual([{ kind: 'image', src: '', alt: 'i', attributes: ' alt="i"', inLink: false }]);
    const out = html(markdown);
    expect(out).not.toMatch(/<script|<img src="?x|href="?(javascript|vbscript|ftp)|href="[^"]*alert|src="(data|javascript)/i);
    expect(out).toContain('&#x3C;script>alert(4)&#x3C;/script>');
    expect(out).toContain('&#x26;lt;b&#x26;gt;');
    expect(out).toContain('&#x3C;img src=x onerror=alert(5)>');
    expect(out).toContain('<code>&#x3C;script></code>');
    expect(out).toContain('<span class="broken-link" title="This image is not published">Image: i</span>');
  });

  it('raw HTML goes through parse5 and the sanitizer: a handler inside a list, a comment', () => {
    const markdown = '- one <img src="/files/a" onerror="alert(1)">\n- two <b onclick="alert(2)">bold</b>\n  - <a href="javascript:alert(3)">deep</a>\n\nBefore <!-- a comment --> after.\n\n<!--\nblock comment\n-->';
    expect(parseMarkdown(expandGitbookBlocks(markdown)).sanitized).toBe(false);
    const out = html(markdown);
    expect(out).not.toMatch(/onerror|onclick|alert\(|<!--|comment/i);
    expect(out).toContain('<li>one <img src="/site/_files/a" width="20" height="10" loading="lazy" decoding="async"></li>');
    expect(out).toContain('<li>two <b>bold</b>');
    expect(out).toContain('<li><a>deep</a></li>');
    expect(out).toMatch(/<p>Before {2}after\.<\/p>$/);
  });

  it('highlights fences that name their language, anchors headings, outlines h2/h3, footnotes link to themselves', () => {
    const rendered = render('## One\n\n### Two\n\n```python\ndef f(): pass\n```\n\nA[^n].\n\n[^n]: Note.');
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

  it('keeps a footnote label whole in its ids, whatever characters it holds: each note reached from its own reference', () => {
    for (const through of [undefined, 'parse5'] as const) {
      const out = fillBody(renderBodyTemplate('A[^a"b] B[^a"c] C[^<i>].\n\n[^a"b]: First.\n[^a"c]: Second.\n[^<i>]: Third.', highlighter, through ? { through } : {}), links);
      const targets = [...out.matchAll(/data-footnote-ref="" |href="#(user-content-fn-[^"]*)"/g)].flatMap((match) => (match[1] ? [match[1]] : []));
      expect(targets, through ?? 'tokens').toEqual(['user-content-fn-a&#x22;b', 'user-content-fn-a&#x22;c', 'user-content-fn-<i>']);
      for (const [target, note] of targets.map((target, i) => [target, ['First.', 'Second.', 'Third.'][i]!] as const)) {
        expect(out, `${through ?? 'tokens'}: ${target}`).toContain(`<li id="${target}"><p>${note}`);
      }
    }
  });

  it('renders GitBook blocks and leaves them alone inside code', () => {
    const out = html('{% hint style="danger" %}\nStop.\n{% endhint %}\n\n{% code title="a.js" %}\n```js\nx\n```\n{% endcode %}\n\n```md\n{% hint %}\n```\n\n{% embed url="https://video.example/1" %}\n\n{% unknown %}kept{% endunknown %}');
    expect(out).toContain('<div class="hint hint-danger" role="note"><p class="hint-label">Important</p>');
    expect(out).toContain('<figure class="code-titled"><figcaption>a.js</figcaption>');
    expect(out).toContain('{% hint %}');
    expect(out).toContain('<a class="embed" href="https://video.example/1" rel="noopener noreferrer"><span class="embed-mark" aria-hidden="true">↗</span><span class="embed-text"><span class="embed-title">video.example</span><span class="embed-address">https://video.example/1</span></span></a>');
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
    const template = render('[a](/pages/p1 "The title") and [b](/pages/p1) ![img](/files/f)\n\n{% content-ref url="/pages/p2" %}\n[p2.md](/pages/p2)\n{% endcontent-ref %}');
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
    const template = render('[x](/pages/a) ![q"<](/files/f)\n\n{% content-ref url="/pages/b" %}\nx\n{% endcontent-ref %}');
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

  it('renders steppers, file blocks, cards and math; a payload in each is inert', () => {
    const payload = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const stepper = html(`{% stepper %}\n{% step %}\n### First ${payload}\nDo it.\n{% endstep %}\n{% step %}\nThen this.\n{% endstep %}\n{% endstepper %}`);
    expect(stepper).toMatch(/^<ol class="stepper"><li class="step">\n<h3 id="first-">First <span class="broken-link" title="This image is not published">Image: missing<\/span>/);
    expect(stepper).toContain('</li><li class="step">\n<p>Then this.</p>\n</li></ol>');
    expect(stepper).not.toMatch(/<script|onerror|alert\(/);

    const file = html(`{% file src="/files/report" %}\nThe report ${payload}\n{% endfile %}`);
    expect(file).toBe('<div class="file-block"><span class="broken-link" title="This file is not published">The report</span></div>');
    const resolved = fillBody(render(`{% file src="/files/report" %}\nThe report ${payload}\n{% endfile %}`), { ...links, link: (href) => ({ href: `/site${href}` }) });
    expect(resolved).toBe('<a class="file-block" href="/site/files/report" download><span class="file-mark" aria-hidden="true">FILE</span><span class="file-text"><span class="file-name">report</span><span class="file-caption">The report</span></span></a>');
    const named = fillBody(render('{% file src="/files/f" %}\n{% endfile %}'), { ...links, link: () => ({ href: '/site/_files/f', title: 'Guide "v2" <b>.pdf' }) });
    expect(named).toContain('<span class="file-mark" aria-hidden="true">PDF</span><span class="file-text"><span class="file-name">Guide "v2" &lt;b&gt;.pdf</span></span>');
    expect(html('{% file src="/nowhere" %}\nLost\n{% endfile %}')).toContain('<span class="broken-link" title="This file is not published">Lost</span>');

    const cards = html(
      `<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target></th><th data-hidden data-card-cover></th></tr></thead><tbody>` +
        `<tr><td><strong>Start</strong></td><td>Read ${payload} <a href="https://e.org">this</a></td><td><a href="/pages/p1">p1</a></td><td><a href="/files/cover">cover.png</a></td></tr></tbody></table>`,
    );
    expect(cards).toContain('<ul class="cards"><li class="card"><img src="/site/_files/cover" alt="" class="card-cover" width="20" height="10" loading="lazy" decoding="async"><div class="card-body"><p class="card-title"><a href="/site/p1" class="card-link"><strong>Start</strong></a></p>');
    expect(cards).toContain('<a href="https://e.org" rel="noopener noreferrer">this</a>');
    expect(cards).not.toMatch(/<script|onerror|alert\(2|<table/);

    const math = html('Area $$\\pi r^2$$ for $5.\n\n$$\n\\frac{a}{b} <script>alert(1)</script>\n$$\n\n$$\n\\frac{\n$$\n\n$$\\href{javascript:alert(1)}{x}$$');
    expect(math).toContain('<p>Area <span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></mrow>');
    expect(math).toContain(' for $5.</p>');
    expect(math).toContain('<div class="math-block"><span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mfrac><mi>a</mi><mi>b</mi></mfrac><mo>&lt;</mo><mi>s</mi>');
    expect(math).toContain('<div class="math-block"><code class="math-error" title="This formula could not be rendered">$$\n\\frac{\n$$</code></div>');
    expect(math).not.toMatch(/<script|href="javascript/i);
  });
});
