// Every link of a revision with its status (docs/design/content-model.md, "Links and backlinks"): a page, anchor or file of the
// same space is `ok` when the revision has it, `broken` otherwise; external addresses are `ok` (never
// fetched); targets in other spaces are left for a look-up at their heads (report.ts). Relative paths
// resolve against the linking page's own path, as a browser resolves them in the page's address:
// 'install.md' from 'guides/setup' is 'guides/install'. Pure.
import type { FileTree, PageTree } from '../model.js';
import type { DocumentLinks, ExtractedLink } from './extract.js';

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** The API's content references (GitBook's `ContentRef` shapes). */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; page: string; space?: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'space'; space: string };

/** A target in another space of the organization, resolved at that space's head. */
export type OtherSpaceTarget = { space: string; page?: string; anchor?: string; file?: string };

export type Occurrence = {
  relation: ExtractedLink['relation'];
  target: ContentRef;
  /** Known for targets in the revision; undefined until the other space's head is looked up. */
  status: LinkStatus | undefined;
  other?: OtherSpaceTarget;
  /** Where the link is: the page, and the section's anchor (null before the first heading). */
  page: string;
  section: string | null;
  /** Position of the page in the tree (depth first), to list links in reading order. */
  order: number;
};

export type RevisionView = {
  spaceId: string;
  pages: PageTree;
  files: FileTree;
  /** Links and anchors of the revision's bodies, by hash. */
  documents: ReadonlyMap<string, DocumentLinks>;
};

/** The pages of a tree in reading order (depth first), with their paths. */
export function readingOrder(tree: PageTree): Array<{ id: string; path: string }> {
  const out: Array<{ id: string; path: string }> = [];
  const visit = (parent: string | null, prefix: string) => {
    for (const id of tree.childrenOf.get(parent) ?? []) {
      const path = prefix ? `${prefix}/${tree.pages.get(id)!.slug}` : tree.pages.get(id)!.slug;
      out.push({ id, path });
      visit(id, path);
    }
  };
  visit(null, '');
  return out;
}

/** `path` resolved from the folder of `pagePath` (`up` folders higher), or from the root; null above the root. */
export function resolvePath(pagePath: string, link: { path: string; up: number | null }): string | null {
  const base = link.up === null ? [] : pagePath.split('/').slice(0, -1);
  if (link.up !== null) {
    if (link.up > base.length) return null;
    base.length -= link.up;
  }
  return [...base, ...(link.path ? link.path.split('/') : [])].join('/');
}

/** Every link occurrence of the revision, in reading order, restricted to `onlyPage` when given. */
export function revisionLinks(view: RevisionView, onlyPage?: string): Occurrence[] {
  const pages = readingOrder(view.pages);
  const byPath = new Map(pages.map((page) => [page.path, page.id]));
  const byFileName = new Map<string, string>();
  for (const id of view.files.order) {
    const file = view.files.items.get(id)!;
    if (!byFileName.has(file.name)) byFileName.set(file.name, id);
  }
  const anchorsOf = (pageId: string): readonly string[] | undefined => {
    const hash = view.pages.pages.get(pageId)?.documentHash;
    return hash ? view.documents.get(hash)?.anchors : undefined;
  };
  const pageRef = (page: string, anchor: string | undefined): { target: ContentRef; status: LinkStatus } => {
    if (!view.pages.pages.has(page)) return { target: anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page }, status: 'broken' };
    if (!anchor) return { target: { kind: 'page', page }, status: 'ok' };
    return { target: { kind: 'anchor', anchor, page }, status: anchorsOf(page)?.includes(anchor) ? 'ok' : 'broken' };
  };

  const occurrences: Occurrence[] = [];
  pages.forEach(({ id, path }, order) => {
    if (onlyPage !== undefined && id !== onlyPage) return;
    const hash = view.pages.pages.get(id)!.documentHash;
    const links = hash ? view.documents.get(hash)?.links : undefined;
    for (const link of links ?? []) {
      const where = { relation: link.relation, page: id, section: link.section, order };
      const target = link.target;
      switch (target.kind) {
        case 'url':
          occurrences.push({ ...where, target: { kind: 'url', url: target.url }, status: 'ok' });
          break;
        case 'anchor':
          occurrences.push({ ...where, ...pageRef(id, target.anchor) });
          break;
        case 'page':
          occurrences.push({ ...where, ...pageRef(target.page, target.anchor) });
          break;
        case 'file':
          occurrences.push({ ...where, target: { kind: 'file', file: target.file }, status: view.files.items.has(target.file) ? 'ok' : 'broken' });
          break;
        case 'path': {
          const resolved = resolvePath(path, target);
          const last = resolved?.split('/').at(-1) ?? '';
          // Slugs have no dots: a last segment with one names a file.
          const id = resolved === null ? undefined : last.includes('.') ? byFileName.get(last) : byPath.get(resolved);
          if (id === undefined) occurrences.push({ ...where, target: { kind: 'url', url: link.href }, status: 'broken' });
          else if (last.includes('.')) occurrences.push({ ...where, target: { kind: 'file', file: id }, status: 'ok' });
          else occurrences.push({ ...where, ...pageRef(id, target.anchor) });
          break;
        }
        case 'space': {
          if (target.space === view.spaceId) {
            if (target.page) occurrences.push({ ...where, ...pageRef(target.page, target.anchor) });
            else if (target.file) occurrences.push({ ...where, target: { kind: 'file', file: target.file }, status: view.files.items.has(target.file) ? 'ok' : 'broken' });
            else occurrences.push({ ...where, target: { kind: 'space', space: target.space }, status: 'ok' });
            break;
          }
          const ref: ContentRef = target.page
            ? target.anchor
              ? { kind: 'anchor', anchor: target.anchor, page: target.page, space: target.space }
              : { kind: 'page', page: target.page, space: target.space }
            : target.file
              ? { kind: 'file', file: target.file, space: target.space }
              : { kind: 'space', space: target.space };
          occurrences.push({ ...where, target: ref, status: undefined, other: { space: target.space, page: target.page, anchor: target.anchor, file: target.file } });
          break;
        }
      }
    }
  });
  return occurrences;
}
