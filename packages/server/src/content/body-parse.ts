// A Markdown body read once, in a worker of the parse pool (parsing/tasks.ts), when it is written:
// everything later reads need is derived from that one syntax tree and stored beside the body
// (content/parsed-bodies.ts), so no read parses a body again — and none on the event loop.
//
// micromark's worst cases are not linear (a few kilobytes of unmatched `*` or `[`, thousands of nested
// quotes take seconds or overflow the stack). A body is refused when its tree nests deeper than
// MAX_MARKDOWN_DEPTH or its parse overflows the stack; the pool's deadline refuses one too slow to
// parse. What is stored therefore parses quickly and shallowly wherever it is read. docs/decisions.md,
// "Markdown bodies" and "Parsing off the event loop".
import type { Root } from 'mdast';
import { blocksOfTree } from './blocks.js';
import { documentHashOf, normalizeMarkdown } from './hashing.js';
import { parseDocument } from './links/document-tree.js';
import { linksOfTree } from './links/extract.js';
import { documentSections } from './search/sections.js';

/** Levels of the syntax tree (root → block quote → list → item → paragraph → emphasis …); documents need under 20. */
export const MAX_MARKDOWN_DEPTH = 48;

/**
 * What is kept of a body, each part as JSON text (the main thread stores it without reading it):
 * `tree` the mdast root without positions (`format=document`), `sections` the search sections
 * (content/search/sections.ts), `blocks` what comments anchor to (content/blocks.ts), `links` its
 * anchors and links (content/links/extract.ts).
 */
export type ParsedBody = {
  /** The document hash of the body as stored (normalised); null for an empty body. */
  hash: string | null;
  tree: string;
  sections: string;
  blocks: string;
  links: string;
};

export type BodyVerdict = { ok: true; parsed: ParsedBody } | { ok: false; depth: number | 'overflow' };

/** The tree's depth, walked with an explicit stack (a recursion could overflow where the parser did not). */
function depthOf(tree: Root): number {
  let depth = 0;
  const pending: Array<[{ children?: unknown[] }, number]> = [[tree, 0]];
  while (pending.length > 0) {
    const [node, level] = pending.pop()!;
    if (level > depth) depth = level;
    for (const child of node.children ?? []) pending.push([child as { children?: unknown[] }, level + 1]);
  }
  return depth;
}

/** The tree as JSON without `position` fields (offsets into the markdown nobody asked for). */
const treeJson = (tree: Root) => JSON.stringify(tree, (key, value: unknown) => (key === 'position' ? undefined : value));

function derive(tree: Root, hash: string | null): ParsedBody {
  return {
    hash,
    tree: treeJson(tree),
    sections: JSON.stringify(documentSections(tree)),
    blocks: JSON.stringify(blocksOfTree(tree)),
    links: JSON.stringify(linksOfTree(tree)),
  };
}

/**
 * Reads `markdown` as the server stores it: a page or reusable-content body normalised (line endings,
 * final newline: the hash is the stored document's), a comment as written.
 */
export function parseBody(markdown: string, options: { normalize: boolean }): BodyVerdict {
  const text = options.normalize ? normalizeMarkdown(markdown) : markdown;
  let tree: Root;
  try {
    tree = parseDocument(text);
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, depth: 'overflow' };
    throw error;
  }
  const depth = depthOf(tree);
  if (depth > MAX_MARKDOWN_DEPTH) return { ok: false, depth };
  return { ok: true, parsed: derive(tree, options.normalize ? documentHashOf(text) : null) };
}

/**
 * What is kept of a stored body that cannot be read as Markdown within the limits (one stored before
 * the gate existed, or the result of a merge): its text as one code block, so it is still shown,
 * searched and commented on, never parsed again.
 */
export function unreadableBody(markdown: string): ParsedBody {
  const text = normalizeMarkdown(markdown);
  const tree: Root = { type: 'root', children: text ? [{ type: 'code', lang: null, meta: null, value: text.replace(/\n$/, '') }] : [] };
  return derive(tree, documentHashOf(text));
}
