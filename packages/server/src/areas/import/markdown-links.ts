// Where a Markdown body names other resources, found with a CommonMark (+GFM) parser rather than
// patterns, so code blocks and escaped text are left alone: inline links and images, link reference
// definitions, and `src`/`href` attributes of raw HTML (GitBook writes its images as `<figure><img
// src="…">`). Each destination comes with its offsets in the source, so rewriting one changes those
// characters only and keeps the rest of the document exactly as it was.
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

/** Every destination of the document, in source order. */
export function markdownDestinations(source: string): Destination[] {
  const found: Destination[] = [];
  const tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as Node;
  const visit = (node: Node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) {
      const text = source.slice(start, end);
      if ((node.type === 'link' || node.type === 'image') && text.endsWith(')') && text.startsWith(node.type === 'image' ? '![' : '[')) {
        // Inline form only: autolinks (`<https://…>`, bare `www.…`) carry no separate destination.
        const lastChild = node.children?.at(-1)?.position?.end.offset;
        const open = node.type === 'link' && lastChild !== undefined && source.startsWith('](', lastChild) ? lastChild : source.indexOf('](', start);
        const at = open >= 0 && open < end ? destinationAt(source, open + 2) : undefined;
        if (at && node.url !== undefined) found.push({ url: node.url, kind: node.type === 'image' ? 'image' : 'link', ...at });
      } else if (node.type === 'definition' && node.url !== undefined) {
        const open = source.indexOf(']:', start);
        const at = open >= 0 && open < end ? destinationAt(source, open + 2) : undefined;
        if (at) found.push({ url: node.url, kind: 'link', ...at });
      } else if (node.type === 'html') {
        for (const match of text.matchAll(HTML_ATTRIBUTE)) {
          const valueStart = start + match.index + match[0].length - 1 - match[4]!.length;
          found.push({ url: decodeEntities(match[4]!), kind: match[1]!.toLowerCase() === 'img' ? 'image' : 'link', start: valueStart, end: valueStart + match[4]!.length });
        }
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  return found.sort((a, b) => a.start - b.start);
}

/** The document with each destination `replace` answers for replaced (the others kept as written). */
export function rewriteDestinations(source: string, replace: (destination: Destination) => string | undefined): string {
  let out = '';
  let at = 0;
  for (const destination of markdownDestinations(source)) {
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
