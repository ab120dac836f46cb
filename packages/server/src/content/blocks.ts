// The blocks of a body, as comments anchor to them (areas/comments/anchoring.ts): the leaf blocks of its
// Markdown tree (paragraphs, headings, code blocks, HTML blocks and table rows, inside lists, block
// quotes and footnotes too), in document order, each with its text normalised (NFC, whitespace runs
// collapsed to one space, trimmed); blocks without text are skipped. A block's id is derived from the
// body alone: the first 16 hex digits of the SHA-256 of its normalised text, followed by `-n` for the
// n-th later block with the same text. Editing one block leaves the ids of the others unchanged (unless
// it makes or unmakes a duplicate before them). Stored with each body when it is written
// (content/body-parse.ts), so reads never parse a body to find its blocks.
import { createHash } from 'node:crypto';
import type { Nodes, Parents, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';

export type Block = { id: string; text: string };

const LEAVES = new Set(['paragraph', 'heading', 'code', 'html', 'math']);

const normalise = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

function leafText(node: Nodes): string {
  if (node.type === 'code' || node.type === 'html') return node.value;
  if (node.type === 'tableRow') return node.children.map((cell) => toString(cell)).join(' | ');
  return toString(node);
}

/** The parsed body's blocks in document order, with their ids. */
export function blocksOfTree(tree: Root): Block[] {
  const texts: string[] = [];
  const walk = (node: Nodes) => {
    if (LEAVES.has(node.type) || node.type === 'tableRow') {
      const text = normalise(leafText(node));
      if (text) texts.push(text);
      return;
    }
    if ('children' in node) for (const child of (node as Parents).children as RootContent[]) walk(child);
  };
  walk(tree);
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
    const occurrence = seen.get(hash) ?? 0;
    seen.set(hash, occurrence + 1);
    return { id: occurrence === 0 ? hash : `${hash}-${occurrence}`, text };
  });
}
