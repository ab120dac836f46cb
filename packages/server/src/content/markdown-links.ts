// Where a Markdown body names other resources, found with a CommonMark (+GFM) parser rather than
// patterns, so code blocks and escaped text are left alone: inline links and images, link reference
// definitions, and `src`/`href` attributes of raw HTML (GitBook writes its images as `<figure><img
// src="…">`). Each destination comes with its offsets in the source, so rewriting one changes those
// characters only and keeps the rest of the document exactly as it was. Bodies are read in the parse
// pool (import-parse.ts): their destinations are found once, there, and rewriting only splices.
import { MAX_MARKDOWN_DEPTH } from './body-parse.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

export type Destination = {
  /** The address as the parser reads it (escapes and character references resolved). */
  url: string;
  kind: 'link' | 'image';
  /** Offsets of the address's characters in the source. */
  start: number;
  end: number;
};

type Node = {
  type: string;
  url?: string;
  value?: string;
  children?: Node[];
  position?: { start: { offset?: number }; end: { offset?: number } };
};

/** The extent of a destination written at `from` (after `](` or `]:` and any spaces). */
function destinationAt(source: string, from: number): { start: number; end: number } | undefined {
  let i = from;
  while (i < source.length && /[ \t\r\n]/.test(source[i]!)) i++;
  if (source[i] === '<') {
    let j = i + 1;
    while (j < source.length && source[j] !== '>' && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
    return source[j] === '>' ? { start: i + 1, end: j } : undefined;
  }
  let depth = 0;
  let j = i;
  for (; j < source.length; j++) {
    const c = source[j]!;
    if (c === '\\') {
      j++;
      continue;
    }
    if (/[ \t\r\n]/.test(c)) break;
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return j > i ? { start: i, end: j } : undefined;
}

const HTML_ATTRIBUTE = /<(img|a)\b[^>]*?\s(src|href)\s*=\s*(["'])(.*?)\3/gis;

const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** A body read for its destinations, or refused as the markdown gate would refuse it (too deep to read). */
export type BodyDestinations = { ok: true; destinations: Destination[] } | { ok: false; reason: string };

const TOO_DEEP = `its markdown nests more than ${MAX_MARKDOWN_DEPTH} levels deep: imported without its body`;

/** Every destination of the document in source order, or why the document cannot be read. */
export function readDestinations(source: string): BodyDestinations {
  let tree: Node;
  try {
    tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as Node;
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, reason: TOO_DEEP };
    throw error;
  }
  const found: Destination[] = [];
  // An explicit stack: a document is walked before its depth is known.
  const pending: Array<[Node, number]> = [[tree, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > MAX_MARKDOWN_DEPTH) return { ok: false, reason: TOO_DEEP };
    found.push(...destinationsOf(source, node));
    for (const child of node.children ?? []) pending.push([child, depth + 1]);
  }
  return { ok: true, destinations: found.sort((a, b) => a.start - b.start) };
}

/** The destinations one node writes itself (not its children's). */
function destinationsOf(source: string, node: Node): Destination[] {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return [];
  const text = source.slice(start, end);
  if ((node.type === 'link' || node.type === 'image') && text.endsWith(')') && text.startsWith(node.type === 'image' ? '![' : '[')) {
    // Inline form only: autolinks (`<https://…>`, bare `www.…`) carry no separate destination.
    const lastChild = node.children?.at(-1)?.position?.end.offset;
    const open = node.type === 'link' && lastChild !== undefined && source.startsWith('](', lastChild) ? lastChild : source.indexOf('](', start);
    const at = open >= 0 && open < end ? destinationAt(source, open + 2) : undefined;
    return at && node.url !== undefined ? [{ url: node.url, kind: node.type === 'image' ? 'image' : 'link', ...at }] : [];
  }
  if (node.type === 'definition' && node.url !== undefined) {
    const open = source.indexOf(']:', start);
    const at = open >= 0 && open < end ? destinationAt(source, open + 2) : undefined;
    return at ? [{ url: node.url, kind: 'link', ...at }] : [];
  }
  if (node.type === 'html') {
    return [...text.matchAll(HTML_ATTRIBUTE)].map((match) => {
      const valueStart = start + match.index + match[0].length - 1 - match[4]!.length;
      return { url: decodeEntities(match[4]!), kind: match[1]!.toLowerCase() === 'img' ? ('image' as const) : ('link' as const), start: valueStart, end: valueStart + match[4]!.length };
    });
  }
  return [];
}

/** Every destination of the document, in source order (none for a document too deep to read). */
export function markdownDestinations(source: string): Destination[] {
  const read = readDestinations(source);
  return read.ok ? read.destinations : [];
}

/**
 * The document with each destination `replace` answers for replaced (the others kept as written);
 * `destinations` as read before (import-parse.ts), so rewriting parses nothing.
 */
export function rewriteDestinations(source: string, replace: (destination: Destination) => string | undefined, destinations = markdownDestinations(source)): string {
  let out = '';
  let at = 0;
  for (const destination of destinations) {
    const next = replace(destination);
    if (next === undefined || destination.start < at) continue;
    // Written plainly when it can be; in angle brackets when it holds spaces or parentheses.
    const written = /[\s()<>]/.test(next) ? `<${next.replace(/[<>]/g, encodeURIComponent)}>` : next;
    const inBrackets = source[destination.start - 1] === '<' && source[destination.end] === '>';
    out += source.slice(at, destination.start) + (inBrackets ? written.replace(/^<(.*)>$/, '$1') : written);
    at = destination.end;
  }
  return out + source.slice(at);
}
