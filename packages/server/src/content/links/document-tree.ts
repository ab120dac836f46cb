// Reading a stored document for links and search: its CommonMark + GFM syntax tree (the parser the
// project uses for `format=document`), the anchors of its headings (GitHub's slugs, deduplicated with
// -1, -2 in document order, so links and search sections name the same ids), and its plain text.
// These run in the parse pool's workers (content/body-parse.ts), on trees the markdown gate has
// already bounded in depth.
import GithubSlugger from 'github-slugger';
import type { Heading, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

/** The body's syntax tree. */
export function parseDocument(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** Every heading of the document (at any depth of nesting) with its anchor, in document order. */
export function headingAnchors(tree: Root): Map<Heading, string> {
  const slugger = new GithubSlugger();
  const anchors = new Map<Heading, string>();
  const visit = (node: Nodes) => {
    if (node.type === 'heading') {
      anchors.set(node, slugger.slug(toString(node, { includeHtml: false })));
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return anchors;
}

// Nodes whose children flow as one line of text; other parents put their children on lines of their own.
const INLINE_PARENTS = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell']);

/** The node's text as a reader sees it: code and alt texts included, markup and raw HTML left out. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value;
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'break':
      return '\n';
    case 'html':
    case 'definition':
    case 'yaml':
      return '';
    default:
      if (!('children' in node)) return '';
      return node.children.map((child) => plainText(child as Nodes)).join(INLINE_PARENTS.has(node.type) ? '' : node.type === 'tableRow' ? ' ' : '\n');
  }
}
