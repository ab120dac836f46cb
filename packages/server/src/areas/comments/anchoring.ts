// Anchoring a comment to a block of a page's body, and finding that block again in later bodies.
//
// Blocks: see content/blocks.ts (they are stored with each body when it is written).
//
// A comment keeps the quoted block's text (`quote`, up to QUOTE_MAX characters) and a little context
// (the end of the block before it, the start of the block after). On another body, `reanchor` looks
// for it: first a block with exactly that text (several: the one whose neighbours match the context,
// then the one with the original id), then the closest approximate match of the quote in the body's
// text (Myers' algorithm through approx-string-match) with at most 30% of its length in edits. A short
// quote (under FUZZY_SHORT characters) must then cover at least half of the block it lands in, so that
// a deleted heading is not re-anchored to a passing mention of the same word. No match: outdated.
import search from 'approx-string-match';
import { blocksOfTree, type Block } from '../../content/blocks.js';
import { parseDocument } from '../../content/links/document-tree.js';

export type { Block };
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

/** The body's blocks in document order, with their ids (the server reads them from the stored parse). */
export function documentBlocks(markdown: string): Block[] {
  return blocksOfTree(parseDocument(markdown));
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

/** Where each anchor now is in a body (its stored blocks as JSON text): the block and its preview, or null when outdated. Run in the parse pool. */
export function reanchorAll(input: { blocks: string; anchors: Anchor[] }): Array<{ id: string; preview: string } | null> {
  const blocks = JSON.parse(input.blocks) as Block[];
  return input.anchors.map((anchor) => {
    const found = reanchor(anchor, blocks);
    return found ? { id: found.id, preview: previewOf(found.text) } : null;
  });
}
