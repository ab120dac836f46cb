// The body renderer's two ways from markdown-it's tokens to the sanitized tree — built from the tokens
// (markdown-hast.ts) or written as HTML, read by parse5, sanitized and slugged — give the same page,
// byte for byte, on a corpus: the bench's long page, the sample site's pages, the renderer tests'
// documents and the shapes where parse5 repairs HTML or the sanitizer drops something. The documents
// without raw HTML must take the token path (else the comparison proves nothing).
import { describe, expect, it } from 'vitest';
import { longPage } from '../../../../test/support/long-page.js';
import { NPM_INSTALL_TAB, tabsBlock } from '../../../../test/support/content.js';
import { SAMPLE_INTRO_MARKDOWN } from '../../../../test/support/sample-site.js';
import { CodeHighlighter } from './code-highlight.js';
import { expandGitbookBlocks } from './gitbook-blocks.js';
import { renderBodyTemplate } from './markdown-html.js';
import { parseMarkdown } from './markdown-parse.js';

/** Documents of Markdown alone (and GitBook's blocks): built from the tokens. */
const TOKEN_BUILT: Record<string, string> = {
  'long page': longPage(0),
  'long page, another': longPage(7),
  'sample site: introduction': SAMPLE_INTRO_MARKDOWN,
  'sample site: install': '## Linux\n\nUse the package.\n\n## macOS\n\nUse Homebrew.',
  'sample site: from source': 'Build it: `make`.',
  'sample site: faq': '## Is it free?\n\nYes.',
  'sample site: endpoints': '## GET /things\n\nLists things (v1).',
  'rendering test: intro': 'Start with [the setup](setup.md).\n\n{% content-ref url="setup.md" %}\n[setup.md](setup.md)\n{% endcontent-ref %}',
  'rendering test: api': '## POST /things\n\n```json\n{ "name": "a" }\n```\n\n## DELETE /things/{id}\n\nGone for good.\n\n```sh\ncurl https://api.example/things\n```',
  'renderer test: headings, code, footnotes': '## One\n\n### Two\n\n```python\ndef f(): pass\n```\n\nA[^n].\n\n[^n]: Note.',
  'renderer test: blocks': '{% hint style="danger" %}\nStop.\n{% endhint %}\n\n{% code title="a.js" %}\n```js\nx\n```\n{% endcode %}\n\n```md\n{% hint %}\n```\n\n{% embed url="https://video.example/1" %}\n\n{% unknown %}kept{% endunknown %}',
  'renderer test: attributes': '{% tab title="a<b>&" %}x{% endtab %}\n\n{% embed url="javascript:alert(1)" %}',
  'renderer test: links and images': '[a](/pages/p1 "The title") and [b](/pages/p1) ![img](/files/f)\n\n[gone](/elsewhere/y) ![remote](https://cdn.example/a.png) ![lost](nowhere.png)\n\n[![npm version](https://badge.example/npm.svg)](https://www.npmjs.com/package/x)',
  'renderer test: numbered code': '{% code title="a.js" lineNumbers="true" overflow="wrap" %}\n```js\n/* one\ntwo */\nx\n```\n{% endcode %}\n\n```js\nplain\n```',
  'renderer test: stepper, file, math': '{% stepper %}\n{% step %}\n### First\nDo it.\n{% endstep %}\n{% step %}\nThen this.\n{% endstep %}\n{% endstepper %}\n\n{% file src="/files/report" %}\nThe report\n{% endfile %}\n\nArea $$\\pi r^2$$ for $5.\n\n$$\n\\frac{a}{b}\n$$\n\n$$\n\\frac{\n$$\n\n$$\\href{javascript:alert(1)}{x}$$',
  tabs: tabsBlock({ npm: NPM_INSTALL_TAB, pnpm: ['With pnpm: `pnpm add tool`.'] }).join('\n'),
  lists: '- a\n- b\n  - c\n    1. d\n    2. e\n\n- loose\n\n  para\n\n3. three\n4. four\n\n* [ ] todo\n* [x] done\n  - [X] nested\n\n1) one\n\n- ```js\n  in a list\n  ```\n- > quoted',
  'quotes, rules, breaks': '> a\n> > b\n>\n> - c\n\n---\n***\n\nhard  \nbreak\\\nagain\nsoft\n\nSetext\n======\n\nTwo\n---',
  'headings: duplicates, marks, unicode': '# Title\n\n## Title\n\n## Title\n\n### *Em* and `code` and [link](https://e.org) ![img](x.png)\n\n## Ünïcödé — “quotes” & 日本語\n\n## $$x^2$$ math\n\n####### not a heading\n\n## \n\n# Title 1',
  tables: '| a | b | c | d |\n|:--|:-:|--:|---|\n| `x\\|y` | **b** | [l](https://e.org) | |\n| 1 |\n\n| only head |\n| --- |',
  'footnotes: several, repeated, inline, labelled': 'One[^1] two[^note] again[^1] inline^[an *inline* note] and [^missing].\n\n[^1]: First.\n[^note]: With `code` and\n    a second paragraph.\n\n    More.',
  'footnote labels with HTML characters (escaped in ids and labels)': 'A[^a"b] and [^x&amp;y] and [^<i>].\n\n[^a"b]: Quote.\n[^x&amp;y]: Amp.\n[^<i>]: Tag.',
  'a footnote in a link text (not a footnote for markdown-it)': '[a[^1] b](https://e.org)\n\n[^1]: Note.',
  'GitBook tags inside a list item (the wrapper ends the list)': '- {% hint %}\n  inside\n- {% endhint %} after',
  'addresses: protocols the sanitizer drops': '[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(2)) [vb](vbscript:x) [ftp](ftp://e.org/f) [up](HTTPS://E.ORG) [mail](mailto:a@b.c) [irc](irc://x) [rel](../a:b) [q](?a:b) [hash](#a:b) [data](data:text/html,x)\n\n![d](data:image/png;base64,AAAA) ![f](ftp://e.org/i.png) ![s](//cdn.e.org/i.png) ![j](javascript:x)\n\n<https://auto.example/a?b=c&d> <mailto:x@y.z> www.linkify.example and someone@example.com',
  'entities and escapes': '&amp; &copy; &#x27; &#39; &quot; &lt;b&gt; &nbsp; &bogus; \\* \\_ \\` \\< AT&T 4 < 5 > 3 "quoted" \'single\'\n\n`&amp; <b>` and ```` `` ```` ',
  'emphasis and strikethrough': '***both*** **strong _em_** ~~struck~~ ~single~ __under__ *a **b** c* **[bold link](https://e.org)**',
  'code: fences, languages, indented': '~~~\nno language\n~~~\n\n```c++ {.x} title="y"\nint a;\n```\n\n```unknown-lang\nplain <b>&amp;\n```\n\n```math\nx^2\n```\n\n    indented <b>\n    code\n\n````md\n```js\ninner\n```\n````\n\n```\n```',
  'links: references, titles, images in links': '[ref][r] [collapsed][] [short]\n\n[r]: https://e.org/r "Ref title"\n[collapsed]: /pages/c\n[short]: <with space.md> \'t\'\n\n[![alt **b** `c`](https://e.org/i.png "img title")](https://e.org) ![alt [nested](x) ![inner](y)](z.png)',
  'GitBook blocks nested': '{% tabs %}\n{% tab title="One" %}\n{% hint style="warning" %}\nNested **hint**.\n\n```js\nconst a = 1;\n```\n{% endhint %}\n{% endtab %}\n{% tab title="Two" %}\n- list\n{% endtab %}\n{% endtabs %}\n\n{% embed url="https://e.org" %}\n\n{% hint style="x" %}\nunclosed',
  'control characters and line ends': 'a\u0000b\r\nc\rd\u000be\u0007\n\n# h\u0000',
  'math: inline, block, prices': 'Costs $5 and $$a+b$$ and $$ $$ and $$unclosed\n\n$$\n\\sum_i i\n$$\n\n$$x$$\n\n  $$\n  indented\n  $$',
  'inline tags written by hand': 'Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <b>bold</b> <i>it</i> <em>em</em> <strong>st</strong> <s>s</s> <strike>k</strike> <del>d</del> <ins>i</ins> <samp>out</samp> <code>c *d*</code> <b>a <i>b</i> c</b>\n\n| a<br>b | c<br/>d<br />e |\n|---|---|\n| <kbd>x</kbd> | <sup>[n](https://e.org)</sup> |\n\n## Keys <kbd>Ctrl</kbd>\n\n## Keys <kbd>Ctrl</kbd>\n\nline<br>\nbreak',
};

/** Documents with raw HTML, or shapes parse5 would repair: read by parse5 and sanitized, as before. */
const HTML_READ: Record<string, string> = {
  'renderer test: scripts': '<script>alert(1)</script>\n\n<img src="/files/a" onerror="alert(2)" style="x">\n\n[x](javascript:alert(3)) <a href="JaVaScRiPt:alert(4)">y</a> <iframe src="https://e.com"></iframe>',
  'raw HTML in a list with a handler': '- item <img src=x onerror=alert(1)>\n- <b onclick="x()">bold</b>',
  'an HTML comment': 'Before <!-- a comment --> after.\n\n<!--\nblock comment\n-->',
  details: '<details>\n\n<summary>Why?</summary>\n\nSo.\n\n</details>',
  cards: '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target></th></tr></thead><tbody><tr><td><strong>API</strong></td><td><a href="api.md">api.md</a></td></tr></tbody></table>',
  'renderer test: a script in a block attribute': '{% tab title="a\\"><script>alert(1)</script>" %}x{% endtab %}',
  'a link in a link (parse5 closes the first)': '[a <https://x.org> b](https://e.org)',
  "a wrapper's closing written by hand (the real one closes nothing)": '{% hint %}\ntext\n</div>\n\nmore\n{% endhint %}',
  'an inline tag left open at the end of its paragraph': 'Press <kbd>x\n\nnext</kbd> one',
  'a formatting tag left open (parse5 reopens it in the next paragraph)': 'a <b>bold\n\nnext paragraph',
  'inline tags closed across each other': '<b>a <i>b</b> c</i>',
  'an inline tag closed across emphasis': '<b>x *y</b> z*',
  'inline tags in capitals or with attributes': 'a<BR>b <br class="x"> <kbd title="t">k</kbd>',
  'a wrapper written by hand, with another attribute': '<div data-gb="hint" data-style="info" data-other="x">\n\nText.\n\n</div>',
  'a wrapper with a reference parse5 reads its own way': '<div data-gb="tab" data-title="a&#x22;b">\n\nText.\n\n</div>',
};

const highlighter = new CodeHighlighter(0);

describe('the token tree (markdown-hast.ts) and parse5 with the sanitizer give the same body', () => {
  it.each(Object.entries(TOKEN_BUILT))('%s: built from the tokens, the same as through parse5', (_name, markdown) => {
    expect(parseMarkdown(expandGitbookBlocks(markdown)).sanitized).toBe(true);
    expect(renderBodyTemplate(markdown, highlighter)).toEqual(renderBodyTemplate(markdown, highlighter, { through: 'parse5' }));
  });

  it.each(Object.entries(HTML_READ))('%s: read by parse5 and sanitized', (_name, markdown) => {
    expect(parseMarkdown(expandGitbookBlocks(markdown)).sanitized).toBe(false);
    expect(renderBodyTemplate(markdown, highlighter)).toEqual(renderBodyTemplate(markdown, highlighter, { through: 'parse5' }));
  });
});
