// Anchoring a comment to a block of a page's body, and finding that block again in later bodies.
//
// Blocks: the leaf blocks of the body's Markdown tree (paragraphs, headings, code blocks, HTML blocks
// and table rows, inside lists, block quotes and footnotes too), in document order, each with its text
// normalised (NFC, whitespace runs collapsed to one space, trimmed); blocks without text are skipped.
// A block's id is derived from the body alone: the first 16 hex digits of the SHA-256 of its normalised
// text, followed by `-n` for the n-th later block with the same text. Editing one block leaves the ids
// of the others unchanged (unless it makes or unmakes a duplicate before them).
//
// A comment keeps the quoted block's text (`quote`, up to QUOTE_MAX characters) and a little context
// (the end of the block before it, the start of the block after). On another body, `reanchor` looks
// for it: first a block with exactly that text (several: the one whose neighbours match the context,
// then the one with the original id), then the closest approximate match of the quote in the body's
// text (Myers' algorithm through approx-string-match) with at most 30% of its length in edits. A short
// quote (under FUZZY_SHORT characters) must then cover at least half of the block it lands in, so that
// a deleted heading is not re-anchored to a passing mention of the same word. No match: outdated.
import { createHash } from 'node:crypto';
import search from 'approx-string-match';
import type { Nodes, Parents, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

export type Block = { id: string; text: string };
export type Anchor = { nodeId: string; quote: string; prefix: string; suffix: string };

/** The longest quote kept: longer blocks are quoted by their beginning. */
export const QUOTE_MAX = 1000;
/** Characters of context kept on each side. */
export const CONTEXT_LENGTH = 64;
/** Characters of a block shown as `target.node.preview`. */
export const PREVIEW_LENGTH = 140;
/** Share of the quote's length that may differ in a fuzzy match. */
export const FUZZY_ERROR_RATE = 0.3;
/** Quotes shorter than this must cover half of the block a fuzzy match lands in. */
export const FUZZY_SHORT = 32;

const LEAVES = new Set(['paragraph', 'heading', 'code', 'html', 'math']);

const normalise = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

function leafText(node: Nodes): string {
  if (node.type === 'code' || node.type === 'html') return node.value;
  if (node.type === 'tableRow') return node.children.map((cell) => toString(cell)).join(' | ');
  return toString(node);
}

/** The body's blocks in document order, with their ids. */
export function documentBlocks(markdown: string): Block[] {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
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

/** The block's text as a preview: at most PREVIEW_LENGTH characters, with an ellipsis when cut. */
export function previewOf(text: string): string {
  const chars = [...text];
  return chars.length <= PREVIEW_LENGTH ? text : `${chars.slice(0, PREVIEW_LENGTH - 1).join('')}…`;
}

const quoteOf = (text: string) => text.slice(0, QUOTE_MAX);

/** What a comment on block `nodeId` keeps to find it again; undefined when the body has no such block. */
export function anchorOf(blocks: readonly Block[], nodeId: string): Anchor | undefined {
  const index = blocks.findIndex((block) => block.id === nodeId);
  if (index < 0) return undefined;
  return {
    nodeId,
    quote: quoteOf(blocks[index]!.text),
    prefix: blocks[index - 1]?.text.slice(-CONTEXT_LENGTH) ?? '',
    suffix: blocks[index + 1]?.text.slice(0, CONTEXT_LENGTH) ?? '',
  };
}

/** How well block `index`'s surroundings and id agree with the anchor's (higher is better). */
function contextScore(blocks: readonly Block[], index: number, anchor: Anchor): number {
  const before = blocks[index - 1]?.text.slice(-CONTEXT_LENGTH) ?? '';
  const after = blocks[index + 1]?.text.slice(0, CONTEXT_LENGTH) ?? '';
  return (before === anchor.prefix ? 2 : 0) + (after === anchor.suffix ? 2 : 0) + (blocks[index]!.id === anchor.nodeId ? 1 : 0);
}

function best<T>(items: T[], score: (item: T) => number): T | undefined {
  let winner: T | undefined;
  let top = -Infinity;
  for (const item of items) {
    const value = score(item);
    if (value > top) [winner, top] = [item, value];
  }
  return winner;
}

/** The block of `blocks` that now holds the anchor's text, or undefined when it can no longer be found. */
export function reanchor(anchor: Anchor, blocks: readonly Block[]): Block | undefined {
  const exact = blocks.flatMap((block, index) => (quoteOf(block.text) === anchor.quote ? [index] : []));
  if (exact.length > 0) return blocks[best(exact, (index) => contextScore(blocks, index, anchor))!];

  // Fuzzy: the closest occurrences of the quote in the body's text, blocks joined by newlines.
  const starts: number[] = [];
  let joined = '';
  for (const block of blocks) {
    starts.push(joined.length);
    joined += `${block.text}\n`;
  }
  const maxErrors = Math.floor(anchor.quote.length * FUZZY_ERROR_RATE);
  if (maxErrors === 0 || joined.length === 0) return undefined;
  const candidates = search(joined, anchor.quote, maxErrors).flatMap((match) => {
    // The block the match overlaps most.
    let index = -1;
    let overlap = 0;
    for (let i = 0; i < blocks.length; i++) {
      const from = Math.max(match.start, starts[i]!);
      const to = Math.min(match.end, starts[i]! + blocks[i]!.text.length);
      if (to - from > overlap) [index, overlap] = [i, to - from];
    }
    if (index < 0) return [];
    if (anchor.quote.length < FUZZY_SHORT && overlap * 2 < blocks[index]!.text.length) return [];
    return [{ index, errors: match.errors }];
  });
  const chosen = best(candidates, (candidate) => -candidate.errors * 10 + contextScore(blocks, candidate.index, anchor));
  return chosen && blocks[chosen.index];
}
