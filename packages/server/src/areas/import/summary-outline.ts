// The tree `SUMMARY.md` (GitBook's table of contents) describes: nested list items are pages (their
// link names the file, their text the title), `## headings` start groups. Read in the parse pool
// (import-parse.ts); an outline nesting deeper than the markdown gate allows is refused.
import { MAX_MARKDOWN_DEPTH } from '../../content/body-parse.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { plainText } from './markdown-file.js';

/** One entry of the outline: a page (with the file it reads, when it has one) or a group. */
export type OutlineItem = { title?: string; path?: string; group?: true; children: OutlineItem[] };
type MdNode = { type: string; depth?: number; url?: string; children?: MdNode[] };

export type SummaryRead = { ok: true; outline: OutlineItem[] } | { ok: false; reason: string };

const TOO_DEEP = `nests more than ${MAX_MARKDOWN_DEPTH} levels deep (quotes, lists and emphasis inside one another)`;

function depthOf(tree: MdNode): number {
  let depth = 0;
  const pending: Array<[MdNode, number]> = [[tree, 0]];
  while (pending.length > 0) {
    const [node, level] = pending.pop()!;
    if (level > depth) depth = level;
    for (const child of node.children ?? []) pending.push([child, level + 1]);
  }
  return depth;
}

export function summaryOutline(text: string): SummaryRead {
  let tree: MdNode;
  try {
    tree = fromMarkdown(text) as MdNode;
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, reason: TOO_DEEP };
    throw error;
  }
  if (depthOf(tree) > MAX_MARKDOWN_DEPTH) return { ok: false, reason: TOO_DEEP };
  const outline: OutlineItem[] = [];
  let group: OutlineItem | undefined;
  const items = (list: MdNode): OutlineItem[] =>
    (list.children ?? []).map((item) => {
      const paragraph = item.children?.find((child) => child.type === 'paragraph');
      const link = paragraph?.children?.find((child) => child.type === 'link');
      const nested = item.children?.find((child) => child.type === 'list');
      const title = plainText((link ?? paragraph ?? { type: 'text', value: '' }) as never).trim();
      return { ...(title ? { title } : {}), ...(link?.url ? { path: link.url } : {}), children: nested ? items(nested) : [] };
    });
  for (const node of tree.children ?? []) {
    if (node.type === 'heading' && (node.depth ?? 1) >= 2) {
      group = { title: plainText(node as never).trim() || 'Group', group: true, children: [] };
      outline.push(group);
    } else if (node.type === 'list') {
      (group ? group.children : outline).push(...items(node));
    }
  }
  return { ok: true, outline };
}
