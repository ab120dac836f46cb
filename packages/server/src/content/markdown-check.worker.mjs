// Parses one markdown body (GFM, as every reader of bodies parses it) off the event loop and answers
// the depth of its syntax tree, or that parsing overflowed the stack. Plain JavaScript: the server runs
// it as a worker thread whatever loads the server's TypeScript. See markdown-check.ts.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** @param {string} markdown @returns {{ depth: number } | { overflow: true }} */
export default function check(markdown) {
  let tree;
  try {
    tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  } catch (error) {
    if (error instanceof RangeError) return { overflow: true };
    throw error;
  }
  // An explicit stack: the tree may be deeper than a recursion would survive.
  let depth = 0;
  const pending = [[tree, 0]];
  while (pending.length > 0) {
    const [node, level] = pending.pop();
    if (level > depth) depth = level;
    for (const child of node.children ?? []) pending.push([child, level + 1]);
  }
  return { depth };
}
