// A page body as safe HTML (a hast tree): Markdown with GFM (tables, task lists, footnotes, strikethrough,
// autolinks) and the GitBook blocks imported content carries (gitbook-blocks.ts), parsed by remark;
// raw HTML parsed too, then everything passes rehype-sanitize (GitHub's schema: no script, no event
// handlers, no `javascript:` addresses, no styles) BEFORE the renderer adds anything of its own —
// heading ids (rehype-slug, the github-slugger anchors search uses), code highlighting
// (rehype-highlight: highlight.js classes, no inline styles), heading anchor links, site addresses for
// links and images (through the caller's resolver), and the GitBook blocks dressed as HTML.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { h } from 'hastscript';
import rehypeHighlight from 'rehype-highlight';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { expandGitbookBlocks } from './gitbook-blocks.js';

/** The GitBook wrappers' attributes are the only additions to GitHub's schema. */
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  attributes: { ...defaultSchema.attributes, div: [...(defaultSchema.attributes?.div ?? []), 'dataGb', 'dataStyle', 'dataTitle', 'dataUrl'] },
};

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, SCHEMA)
  .use(rehypeSlug)
  // Only fences that name their language are highlighted (guessing costs much and guesses wrong).
  .use(rehypeHighlight, { detect: false })
  .freeze();

/** Where links and images of a body lead on the site. */
export type LinkResolver = {
  /** A link's site address; `broken` for an internal target that does not resolve. */
  link(href: string): { href: string; external?: boolean } | { broken: true };
  /** An image's site address; `external` for an address on another origin (not loaded: shown as a link). */
  image(src: string): { src: string } | { external: string } | { broken: true };
};

export type OutlineEntry = { id: string; text: string; depth: 2 | 3 };
export type RenderedBody = { nodes: RootContent[]; outline: OutlineEntry[] };

export function textOf(node: Root | RootContent): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return (node.children as RootContent[]).map(textOf).join('');
  return '';
}

const CLOBBER = 'user-content-';
const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);
const HINT_LABELS: Record<string, string> = { info: 'Note', success: 'Tip', warning: 'Warning', danger: 'Important' };

class Dresser {
  readonly outline: OutlineEntry[] = [];
  constructor(private readonly links: LinkResolver) {}

  children(nodes: ElementContent[]): ElementContent[] {
    return nodes.flatMap((node) => (node.type === 'element' ? this.element(node) : [node]));
  }

  private element(node: Element): ElementContent[] {
    const gitbook = node.properties.dataGb;
    if (node.tagName === 'div' && typeof gitbook === 'string') return this.gitbook(node, gitbook);
    node.children = this.children(node.children);
    // Footnote ids come prefixed from remark-rehype, then again from the sanitizer's clobbering: once is
    // what their links name.
    const id = node.properties.id;
    if (typeof id === 'string' && id.startsWith(`${CLOBBER}${CLOBBER}`)) node.properties.id = id.slice(CLOBBER.length);
    switch (node.tagName) {
      case 'a':
        return [this.anchor(node)];
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
        return [node];
      case 'table':
        return [h('div.table-wrap', { tabIndex: 0, role: 'region', ariaLabel: 'Table' }, [node])];
      default:
        return [node];
    }
  }

  private anchor(node: Element): Element {
    const href = node.properties.href;
    if (typeof href !== 'string') return node;
    // Footnote references and back-references stay in the page.
    if (href.startsWith('#')) return node;
    const resolved = this.links.link(href);
    if ('broken' in resolved) return h('span.broken-link', { title: 'This link leads to nothing published' }, node.children);
    node.properties.href = resolved.href;
    if (resolved.external) node.properties.rel = ['noopener', 'noreferrer'];
    return node;
  }

  private image(node: Element): ElementContent {
    const src = node.properties.src;
    const alt = typeof node.properties.alt === 'string' ? node.properties.alt : '';
    const resolved = typeof src === 'string' ? this.links.image(src) : ({ broken: true } as const);
    if ('src' in resolved) {
      node.properties.src = resolved.src;
      node.properties.loading = 'lazy';
      node.properties.decoding = 'async';
      return node;
    }
    if ('external' in resolved) return h('a.external-image', { href: resolved.external, rel: ['noopener', 'noreferrer'] }, `Image: ${alt || resolved.external}`);
    return h('span.broken-link', { title: 'This image is not published' }, `Image: ${alt || 'missing'}`);
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

  private gitbook(node: Element, kind: string): ElementContent[] {
    const children = this.children(node.children);
    const attribute = (name: string) => {
      const value = node.properties[name];
      return typeof value === 'string' ? value : '';
    };
    switch (kind) {
      case 'hint': {
        const style = HINT_STYLES.has(attribute('dataStyle')) ? attribute('dataStyle') : 'info';
        return [h(`div.hint.hint-${style}`, { role: 'note' }, [h('p.hint-label', HINT_LABELS[style]!), ...children])];
      }
      case 'tabs':
        return [h('div.tabs', children)];
      case 'tab':
        return [h('section.tab', [h('p.tab-title', attribute('dataTitle') || 'Tab'), ...children])];
      case 'code':
        return [h('figure.code-titled', [...(attribute('dataTitle') ? [h('figcaption', attribute('dataTitle'))] : []), ...children])];
      case 'embed': {
        const url = attribute('dataUrl');
        if (!/^https?:\/\//i.test(url)) return children;
        return [h('div.embed', [h('a', { href: url, rel: ['noopener', 'noreferrer'] }, url), ...children])];
      }
      case 'content-ref':
        return [h('div.content-ref', children)];
      default:
        return children;
    }
  }
}

/** A page body rendered for the site: sanitized HTML nodes and the outline of its h2/h3 headings. */
export function renderBody(markdown: string, links: LinkResolver): RenderedBody {
  const tree = processor.runSync(processor.parse(expandGitbookBlocks(markdown))) as Root;
  const dresser = new Dresser(links);
  const nodes = dresser.children(tree.children.filter((node): node is ElementContent => node.type !== 'doctype'));
  return { nodes, outline: dresser.outline };
}
