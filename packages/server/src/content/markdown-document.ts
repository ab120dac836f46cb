// `format=document`: the body as a Markdown syntax tree (mdast, as remark parses it, with GFM), without
// the `position` fields, which only restate offsets into the markdown the client did not ask for.
import type { components } from '@content-workspace/contract';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

type MdastRoot = components['schemas']['MdastRoot'];

function withoutPositions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPositions);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (key !== 'position' && value !== undefined) copy[key] = withoutPositions(value);
  return copy;
}

export function markdownToDocument(markdown: string): MdastRoot {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return withoutPositions(tree) as MdastRoot;
}
