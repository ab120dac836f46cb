// A page body as safe HTML, rendered once per document in the parse pool (parsing/tasks.ts `site-body`)
// and kept (body-template.ts): Markdown with GFM (tables, task lists, footnotes, strikethrough,
// autolinks) and the GitBook blocks imported content carries (gitbook-blocks.ts), parsed by
// markdown-it with raw HTML (markdown-parse.ts). A body without raw HTML becomes its tree straight
// from markdown-it's tokens, safe by construction and with its heading ids (markdown-hast.ts); one with
// raw HTML is written as HTML, read by parse5, and passes rehype-sanitize (GitHub's schema: no script,
// no event handlers, no `javascript:` addresses, no styles) and rehype-slug (the github-slugger
// anchors search uses) — the same tree either way (markdown-hast.test.ts). Only then does the renderer
// add anything of its own: code highlighting (code-highlight.ts: highlight.js classes, no inline
// styles), heading anchor links and the GitBook blocks dressed as HTML.
//
// What depends on the rest of the site — where a link or an image leads, a content reference's target
// title — is left as a hole in the serialized HTML (body-template.ts) and filled on each assembly of the
// page: so the rendering is a function of the document alone (documents are content-addressed and
// immutable) and an edit elsewhere in the site renders nothing again.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { toText } from 'hast-util-to-text';
import { h } from 'hastscript';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import { unified } from 'unified';
import { renderMath } from './body-math.js';
import type { BodyTemplate, Hole } from './body-template.js';
import { highlightedLanguage, type CodeHighlighter } from './code-highlight.js';
import { expandGitbookBlocks } from './gitbook-blocks.js';
import { parseMarkdown, type ParsedMarkdown } from './markdown-parse.js';

/**
 * Additions to GitHub's schema: the GitBook wrappers' attributes (gitbook-blocks.ts), the marks of a
 * GitBook card table (`<table data-view="cards">`, its target and cover columns) and the classes
 * formulas get (markdown-parse.ts) (`language-math`, `math-inline`, `math-display`: they become MathML in
 * the dresser, body-math.ts). Every value is only read by the dresser, never emitted as it came.
 */
const attributes = defaultSchema.attributes ?? {};
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...attributes,
    div: [...(attributes.div ?? []), 'dataGb', 'dataStyle', 'dataTitle', 'dataUrl', 'dataLinenumbers', 'dataOverflow', 'dataSrc'],
    table: [...(attributes.table ?? []), ['dataView', 'cards']],
    th: [...(attributes.th ?? []), 'dataCardTarget', 'dataCardCover', 'dataHidden'],
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

const processor = unified().use(rehypeSanitize, SCHEMA).use(rehypeSlug).freeze();

export type OutlineEntry = { id: string; text: string; depth: 2 | 3 };

export function textOf(node: Root | RootContent): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return (node.children as RootContent[]).map(textOf).join('');
  return '';
}

const CLOBBER = 'user-content-';
const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);
const HINT_LABELS: Record<string, string> = { info: 'Note', success: 'Tip', warning: 'Warning', danger: 'Important' };

/** A hole's place in the HTML while it is serialized (NUL never survives parsing: see `withoutNul`). */
const NUL = String.fromCharCode(0);
const marker = (index: number): ElementContent => ({ type: 'raw', value: `${NUL}${index}${NUL}` }) as unknown as ElementContent;
const MARKER = new RegExp(`${NUL}(\\d+)${NUL}`);

/** The attributes of an element but those named, serialized (` title="…"`), for a hole to carry. */
function attributesBut(node: Element, names: readonly string[]): string {
  const properties = Object.fromEntries(Object.entries(node.properties).filter(([name]) => !names.includes(name)));
  const html = toHtml({ type: 'element', tagName: 'i', properties, children: [] });
  return html.slice('<i'.length, -'></i>'.length);
}

class Dresser {
  readonly outline: OutlineEntry[] = [];
  readonly holes: Hole[] = [];
  /** Links open around the node being dressed (an image inside one must not become a link itself). */
  private linkDepth = 0;
  /** Inside a code block whose lines are numbered (its highlighting is needed as nodes, to cut at line ends). */
  private numbered = false;

  constructor(
    private readonly parsed: Pick<ParsedMarkdown, 'fenceMarker' | 'fences'>,
    private readonly highlighter: CodeHighlighter,
  ) {}

  children(nodes: ElementContent[]): ElementContent[] {
    // A loop rather than flatMap: this runs for every element of the page (no closure, no array per text).
    const dressed: ElementContent[] = [];
    for (const node of nodes) {
      if (node.type !== 'element') dressed.push(node);
      else for (const each of this.element(node)) dressed.push(each);
    }
    return dressed;
  }

  private hole(hole: Hole): ElementContent {
    return marker(this.holes.push(hole) - 1);
  }

  private element(node: Element): ElementContent[] {
    const gitbook = node.properties.dataGb;
    if (node.tagName === 'div' && typeof gitbook === 'string') return this.gitbook(node, gitbook);
    const math = mathOf(node);
    if (math) return [renderMath(math.tex, math.display)];
    if (node.tagName === 'table' && node.properties.dataView === 'cards') return this.cards(node);
    const href = node.properties.href;
    // Footnote references and back-references stay in the page: only other links are holes.
    const siteLink = node.tagName === 'a' && typeof href === 'string' && !href.startsWith('#');
    if (siteLink) this.linkDepth++;
    node.children = this.children(node.children);
    if (siteLink) this.linkDepth--;
    // Footnote ids come prefixed from the parser (markdown-parse.ts), then again from the sanitizer's clobbering: once is
    // what their links name.
    const id = node.properties.id;
    if (typeof id === 'string' && id.startsWith(`${CLOBBER}${CLOBBER}`)) node.properties.id = id.slice(CLOBBER.length);
    switch (node.tagName) {
      case 'a': {
        if (!siteLink) return [node];
        const open = this.holes.length;
        return [this.hole({ kind: 'link', href: href as string, attributes: attributesBut(node, ['href']) }), ...node.children, this.hole({ kind: 'end', of: open })];
      }
      case 'img':
        return [this.image(node)];
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return [this.heading(node)];
      case 'pre':
        // Scrollable code must be reachable by keyboard.
        node.properties.tabIndex = 0;
        for (const child of node.children) if (child.type === 'element' && child.tagName === 'code') this.code(child);
        return [node];
      case 'table':
        return [h('div.table-wrap', { tabIndex: 0, role: 'region', ariaLabel: 'Table' }, [node])];
      default:
        return [node];
    }
  }

  /**
   * A block's code: a fence's text put back (markdown-parse.ts), highlighted when its fence names a
   * language highlight.js knows (guessing costs much and guesses wrong), marked `hljs` when it names one.
   */
  private code(node: Element): void {
    const only = node.children.length === 1 ? node.children[0] : undefined;
    const marker = only?.type === 'text' && only.value.startsWith(this.parsed.fenceMarker) ? this.parsed.fences[Number(only.value.slice(this.parsed.fenceMarker.length))] : undefined;
    const language = highlightedLanguage(node.properties.className);
    if (language) (node.properties.className as string[]).unshift('hljs');
    const text = marker ?? toText(node, { whitespace: 'pre' });
    const highlighted = language === undefined ? undefined : this.numbered ? this.highlighter.tree(language, text) : this.highlighter.html(language, text);
    if (typeof highlighted === 'string') node.children = highlighted === '' ? [] : [{ type: 'raw', value: highlighted } as unknown as ElementContent];
    else if (highlighted !== undefined && highlighted.length > 0) node.children = highlighted;
    else if (marker !== undefined) node.children = marker === '' ? [] : [{ type: 'text', value: marker }];
  }

  /** The text of a node not dressed (its fences' markers read as their texts). */
  private sourceText(node: Element): string {
    const { fenceMarker, fences } = this.parsed;
    return textOf(node).replace(new RegExp(`${fenceMarker}(\\d+)`, 'g'), (_marker, index: string) => fences[Number(index)]!);
  }

  private image(node: Element): ElementContent {
    const src = node.properties.src;
    const alt = typeof node.properties.alt === 'string' ? node.properties.alt : '';
    return this.hole({ kind: 'image', src: typeof src === 'string' ? src : '', alt, attributes: attributesBut(node, ['src', 'loading', 'decoding']), inLink: this.linkDepth > 0 });
  }

  private heading(node: Element): Element {
    const id = node.properties.id;
    if (typeof id !== 'string') return node;
    // The footnotes' own heading is for screen readers only.
    if (Array.isArray(node.properties.className) && node.properties.className.includes('sr-only')) return node;
    const text = textOf(node).trim();
    if (node.tagName === 'h2' || node.tagName === 'h3') this.outline.push({ id, text, depth: node.tagName === 'h2' ? 2 : 3 });
    node.children.push(h('a.heading-anchor', { href: `#${id}`, ariaLabel: `Link to the section “${text}”` }, '#'));
    return node;
  }

  /**
   * GitBook's cards (`<table data-view="cards">`): a grid of cards, one per row. The head marks the
   * target column (`data-card-target`: the card's link) and the cover column (`data-card-cover`: an
   * image); the other cells are the card's text, the first its title. The title alone is the link
   * (stretched over the card by the stylesheet), so a link in the text is never nested in it.
   */
  private cards(table: Element): ElementContent[] {
    const rows = (section: string) => elementsOf(table).filter((child) => child.tagName === section).flatMap((part) => elementsOf(part).filter((row) => row.tagName === 'tr'));
    const head = rows('thead')[0];
    const headCells = head ? elementsOf(head) : [];
    const column = (property: string) => headCells.findIndex((cell) => cell.properties[property] !== undefined);
    const target = column('dataCardTarget');
    const cover = column('dataCardCover');
    const hrefIn = (cell: Element | undefined): string | undefined => {
      if (!cell) return undefined;
      if ((cell.tagName === 'a' && typeof cell.properties.href === 'string') || (cell.tagName === 'img' && typeof cell.properties.src === 'string')) return String(cell.properties.href ?? cell.properties.src);
      for (const child of elementsOf(cell)) {
        const found = hrefIn(child);
        if (found) return found;
      }
      return undefined;
    };
    const cards = rows('tbody').map((row) => {
      const cells = elementsOf(row);
      const texts = cells.filter((_cell, index) => index !== target && index !== cover && headCells[index]?.properties.dataHidden === undefined);
      const link = hrefIn(cells[target]);
      const image = hrefIn(cells[cover]);
      const titleHasLink = texts[0] !== undefined && hrefIn(texts[0]) !== undefined;
      const [first, ...rest] = texts.map((cell) => this.children(cell.children));
      const title = link && !titleHasLink && this.linkDepth === 0 ? this.linked(link, first ?? []) : (first ?? []);
      return h('li.card', [
        ...(image ? [this.hole({ kind: 'image', src: image, alt: '', attributes: ' alt="" class="card-cover"', inLink: false })] : []),
        h('div.card-body', [h('p.card-title', title), ...rest.filter((cell) => cell.length > 0).map((cell) => h('p', cell))]),
      ]);
    });
    return [h('ul.cards', cards)];
  }

  /** `children` inside a link hole to `href` (the card's title). */
  private linked(href: string, children: ElementContent[]): ElementContent[] {
    const open = this.holes.length;
    return [this.hole({ kind: 'link', href, attributes: ' class="card-link"' }), ...children, this.hole({ kind: 'end', of: open })];
  }

  private gitbook(node: Element, kind: string): ElementContent[] {
    const attribute = (name: string) => {
      const value = node.properties[name];
      return typeof value === 'string' ? value : '';
    };
    if (kind === 'content-ref' && attribute('dataUrl') !== '' && this.linkDepth === 0) {
      // A card to the target, titled by it (filled with the page's title where it leads to one); the
      // block's own content is the same link, written for readers of the Markdown.
      return [this.hole({ kind: 'ref', href: attribute('dataUrl'), text: this.sourceText(node).trim() })];
    }
    const outer = this.numbered;
    if (kind === 'code') this.numbered = attribute('dataLinenumbers') === 'true';
    const children = this.children(node.children);
    this.numbered = outer;
    switch (kind) {
      case 'hint': {
        const style = HINT_STYLES.has(attribute('dataStyle')) ? attribute('dataStyle') : 'info';
        return [h(`div.hint.hint-${style}`, { role: 'note' }, [h('p.hint-label', HINT_LABELS[style]!), ...children])];
      }
      case 'tabs':
        return [h('div.tabs', children)];
      case 'tab':
        return [h('section.tab', [h('p.tab-title', attribute('dataTitle') || 'Tab'), ...children])];
      case 'code': {
        const numbered = attribute('dataLinenumbers') === 'true';
        if (numbered) for (const child of children) if (child.type === 'element' && child.tagName === 'pre') numberLines(child);
        const classes = ['code-titled', ...(numbered ? ['line-numbers'] : []), ...(attribute('dataOverflow') === 'wrap' ? ['code-wrap'] : [])];
        return [h('figure', { className: classes }, [...(attribute('dataTitle') ? [h('figcaption', attribute('dataTitle'))] : []), ...children])];
      }
      case 'embed': {
        // A card to the address: the page asks nothing of the embedded site (no frame, no script).
        const url = attribute('dataUrl');
        if (!/^https?:\/\//i.test(url)) return children;
        const host = new URL(url).hostname.replace(/^www\./, '');
        const caption = children.some((child) => textOf(child).trim() !== '') ? [h('div.embed-caption', children)] : [];
        return [
          h('a.embed', { href: url, rel: ['noopener', 'noreferrer'] }, [h('span.embed-mark', { ariaHidden: 'true' }, '↗'), h('span.embed-text', [h('span.embed-title', host), h('span.embed-address', url)])]),
          ...caption,
        ];
      }
      case 'stepper':
        return [h('ol.stepper', children.filter((child) => child.type === 'element'))];
      case 'step':
        return [h('li.step', children)];
      case 'file': {
        const src = attribute('dataSrc');
        if (src === '' || this.linkDepth > 0) return children;
        return [this.hole({ kind: 'file', href: src, caption: children.map(textOf).join(' ').trim() })];
      }
      case 'content-ref':
        return [h('div.content-ref', children)];
      default:
        return children;
    }
  }
}

/** A formula (`code.math-inline`, or `pre > code.math-display`): its TeX and whether it is a block. */
function mathOf(node: Element): { tex: string; display: boolean } | undefined {
  if (node.tagName === 'code' && hasClass(node, 'math-inline')) return { tex: textOf(node), display: false };
  const only = node.tagName === 'pre' && node.children.length === 1 ? node.children[0] : undefined;
  if (only?.type === 'element' && only.tagName === 'code' && hasClass(only, 'math-display')) return { tex: textOf(only), display: true };
  return undefined;
}

const hasClass = (element: Element, name: string) => Array.isArray(element.properties.className) && element.properties.className.includes(name);

const elementsOf = (node: Element): Element[] => node.children.filter((child): child is Element => child.type === 'element');

/** `nodes` cut at their newlines: each line's pieces, highlighting spans that cross a line cut in two. */
function linesOf(nodes: ElementContent[]): ElementContent[][] {
  const lines: ElementContent[][] = [[]];
  for (const node of nodes) {
    const pieces: ElementContent[][] =
      node.type === 'text'
        ? node.value.split('\n').map((value) => (value ? [{ type: 'text', value }] : []))
        : node.type === 'element'
          ? linesOf(node.children).map((line) => (line.length ? [{ ...node, children: line }] : []))
          : [[node]];
    lines[lines.length - 1]!.push(...pieces[0]!);
    for (const piece of pieces.slice(1)) lines.push(piece);
  }
  return lines;
}

/** Each line of a code block in a `span.line` (numbered by the stylesheet's counter), newlines kept between them for copying. */
function numberLines(pre: Element): void {
  const code = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  if (!code) return;
  const lines = linesOf(code.children);
  if (lines.length > 1 && lines.at(-1)!.length === 0) lines.pop();
  code.children = lines.flatMap((line, index) => [...(index > 0 ? [{ type: 'text' as const, value: '\n' }] : []), h('span.line', line)]);
}

/** Replaces NUL in texts and attribute values (the parsers already do; the holes' markers rely on it). */
function withoutNul(nodes: ElementContent[]): void {
  for (const node of nodes) {
    if (node.type === 'text' || node.type === 'comment') node.value = node.value.replaceAll(NUL, '\uFFFD');
    else if (node.type === 'element') {
      for (const [name, value] of Object.entries(node.properties)) if (typeof value === 'string') node.properties[name] = value.replaceAll(NUL, '\uFFFD');
      withoutNul(node.children);
    }
  }
}

/**
 * A page body rendered for the site, as a template (body-template.ts): sanitized, highlighted HTML with
 * holes where links, images and content references go, and the outline of its h2/h3 headings. Runs in
 * the parse pool (`site-body`): parsing and highlight.js take seconds on a hostile body.
 */
export function renderBodyTemplate(markdown: string, highlighter: CodeHighlighter, options: { through?: 'parse5' } = {}): BodyTemplate {
  const parsed = parseMarkdown(expandGitbookBlocks(markdown), options);
  // A tree built from the tokens is safe and has its heading ids already (markdown-hast.ts).
  const tree = parsed.sanitized ? parsed.tree : (processor.runSync(parsed.tree) as Root);
  const content = tree.children.filter((node): node is ElementContent => node.type !== 'doctype');
  // markdown-it replaces NUL in the source before it parses, and the token tree holds nothing else of
  // the page: only HTML read by parse5 needs the pass.
  if (!parsed.sanitized) withoutNul(content);
  const dresser = new Dresser(parsed, highlighter);
  const html = toHtml({ type: 'root', children: dresser.children(content) }, { allowDangerousHtml: true }).trim();
  const pieces = html.split(MARKER);
  return {
    parts: pieces.filter((_piece, index) => index % 2 === 0),
    slots: pieces.filter((_piece, index) => index % 2 === 1).map(Number),
    holes: dresser.holes,
    outline: dresser.outline,
  };
}
