// What a document links to (docs/design/content-model.md, "Links and backlinks"), read once from its CommonMark syntax tree:
// inline links, images, and references to definitions, each with the section it appears in. Targets
// are classified here, resolved against a revision when read (status.ts): pages by id (`/pages/<id>`)
// or by path (relative like '../guides/install.md', or from the space's root like '/guides/install'),
// anchors (`#usage`), files (`/files/<id>`, or a path to a file name such as
// `.gitbook/assets/diagram.png`), other spaces (`/spaces/<id>`, with `/pages/<id>` or `/files/<id>`),
// and external addresses (anything with a scheme, or `//host`). Pure.
import type { Definition, Nodes, Root } from 'mdast';
import { headingAnchors, parseDocument } from './document-tree.js';

export type LinkTarget =
  | { kind: 'url'; url: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'file'; file: string }
  | { kind: 'space'; space: string; page?: string; anchor?: string; file?: string }
  /** `up`: how many folders above the page's own (null: from the space's root). */
  | { kind: 'path'; path: string; up: number | null; anchor?: string };

export type ExtractedLink = {
  /** How the document refers to the target: a link, or an image it shows. */
  relation: 'link' | 'image';
  /** The anchor of the section the link is in; null before the first h1–h3 heading. */
  section: string | null;
  target: LinkTarget;
  /** The address as written (shown for a path that resolves to nothing). */
  href: string;
};

export type DocumentLinks = { anchors: string[]; links: ExtractedLink[] };

/** Links kept per document: far beyond any real page, a bound on what one body can make us store. */
export const MAX_LINKS_PER_DOCUMENT = 2000;
const MAX_HREF = 2048;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function withAnchor<T extends object>(target: T, anchor: string | undefined): T & { anchor?: string } {
  return anchor ? { ...target, anchor } : target;
}

/** Ids in the app's own address forms: /pages/<id>, /files/<id>, /spaces/<id>[/pages/<id>|/files/<id>]. */
function idTarget(segments: string[], anchor: string | undefined): LinkTarget | undefined {
  const [first, id, third, fourth, ...rest] = segments;
  if (first === 'pages' && id && ID.test(id) && third === undefined) return withAnchor({ kind: 'page' as const, page: id }, anchor);
  if (first === 'files' && id && ID.test(id) && third === undefined) return { kind: 'file', file: id };
  if (first !== 'spaces' || !id || !ID.test(id) || rest.length > 0) return undefined;
  if (third === undefined) return { kind: 'space', space: id };
  if (third === 'pages' && fourth && ID.test(fourth)) return withAnchor({ kind: 'space' as const, space: id, page: fourth }, anchor);
  if (third === 'files' && fourth && ID.test(fourth)) return { kind: 'space', space: id, file: fourth };
  return undefined;
}

/** A path to a page or a file: `.` and `..` folded, `.md` and `README.md` mapped to the page's path. */
function pathTarget(rawPath: string, absolute: boolean, anchor: string | undefined): LinkTarget {
  let up = 0;
  const segments: string[] = [];
  for (const segment of rawPath.split('/').map(decode)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length > 0) segments.pop();
      else up++;
      continue;
    }
    segments.push(segment);
  }
  const last = segments.at(-1);
  if (last !== undefined && /^readme(\.md)?$/i.test(last)) segments.pop();
  else if (last !== undefined && /\.md$/i.test(last)) segments[segments.length - 1] = last.slice(0, -3);
  return withAnchor({ kind: 'path' as const, path: segments.join('/'), up: absolute ? null : up }, anchor);
}

/** Classifies an address as written in a document; undefined for an empty one. */
export function classifyHref(href: string): LinkTarget | undefined {
  const address = href.trim();
  if (address === '' || address.length > MAX_HREF) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(address) || address.startsWith('//')) return { kind: 'url', url: address };
  const hash = address.indexOf('#');
  const anchor = hash >= 0 ? decode(address.slice(hash + 1)) || undefined : undefined;
  const path = (hash >= 0 ? address.slice(0, hash) : address).replace(/\?.*$/, '');
  if (path === '') return anchor ? { kind: 'anchor', anchor } : undefined;
  if (path.startsWith('/')) {
    const segments = path.split('/').filter((segment) => segment !== '');
    return idTarget(segments, anchor) ?? pathTarget(path, true, anchor);
  }
  return pathTarget(path, false, anchor);
}

/** The document's anchors and links, in document order, each distinct (relation, target, section) once. */
export function extractLinks(markdown: string): DocumentLinks {
  return linksOfTree(parseDocument(markdown));
}

/** `extractLinks` of a parsed document. */
export function linksOfTree(tree: Root): DocumentLinks {
  const anchors = headingAnchors(tree);
  const definitions = new Map<string, Definition>();
  const collectDefinitions = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
    if ('children' in node) for (const child of node.children) collectDefinitions(child);
  };
  collectDefinitions(tree);

  const links: ExtractedLink[] = [];
  const seen = new Set<string>();
  const add = (relation: ExtractedLink['relation'], href: string | undefined, section: string | null) => {
    if (href === undefined || links.length >= MAX_LINKS_PER_DOCUMENT) return;
    const target = classifyHref(href);
    if (!target) return;
    const key = JSON.stringify([relation, section, target]);
    if (seen.has(key)) return;
    seen.add(key);
    links.push({ relation, section, target, href: href.trim() });
  };
  const visit = (node: Nodes, section: string | null) => {
    if (node.type === 'link') add('link', node.url, section);
    else if (node.type === 'image') add('image', node.url, section);
    else if (node.type === 'linkReference') add('link', definitions.get(node.identifier)?.url, section);
    else if (node.type === 'imageReference') add('image', definitions.get(node.identifier)?.url, section);
    if ('children' in node) for (const child of node.children) visit(child, section);
  };
  let section: string | null = null;
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth <= 3) section = anchors.get(node)!;
    visit(node, section);
  }
  return { anchors: [...anchors.values()], links };
}
