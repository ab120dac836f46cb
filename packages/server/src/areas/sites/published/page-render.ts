// A site's page as HTML: its body (Markdown → sanitized HTML, links resolved to the site: page-links.ts)
// in the site's chrome, with the navigation of its space (the tree with the page's branch open),
// breadcrumbs, the site-space switcher, previous/next and the outline.
import { loadDocuments } from '../../../content/content-objects.repository.js';
import { siteAddress } from '../../../publication/site-addresses.js';
import { bodyTemplate, fillBody } from './body-template.js';
import { pageLinks } from './page-links.js';
import { customizationOf } from './site-chrome.js';
import { renderPage, type Link, type TreeItem } from './site-layout.js';
import { siteSpacePath } from './site-navigation.js';
import { firstDocumentUnder, pageHref, type SitePage } from './site-page.js';
import { siteChrome, type SiteVisit } from './site-visit.js';
import { socialImageOf } from './site-social.js';
import { spaceModel } from './space-model.js';
import type { PublishedStructure } from '../published-structure.js';

/** Entries of one level of the page tree listed in navigation; the rest are counted. */
const MAX_TREE_LEVEL = 300;
/** Items the page tree shows at most (groups stay expanded while under it). */
const MAX_TREE_ITEMS = 1500;

export async function renderSitePage(visit: SiteVisit, structure: PublishedStructure, found: SitePage, noindex: boolean): Promise<string> {
  const { app, site, root } = visit;
  const { located, model, page } = found;
  const here = (pageId: string) => pageHref(root, located.section, located.siteSpace, model, pageId);
  const markdown = page.documentHash ? ((await loadDocuments(app.db, app.caches, site.organizationId, [page.documentHash])).get(page.documentHash) ?? '') : '';
  const links = await pageLinks({ app, site, root, structure, heads: visit.state.heads, located, model, page, markdown });
  const body = page.documentHash ? await bodyTemplate(app, site.organizationId, page.documentHash, markdown) : undefined;

  // Navigation: every branch listed while the tree is small (the script folds them, keeping the
  // visitor's choices), the current page's branch and groups starting open; beyond the budget, only
  // the current page's branch.
  const ancestors = new Set<string>();
  for (let id = model.tree.parentOf.get(page.id) ?? null; id !== null; id = model.tree.parentOf.get(id) ?? null) ancestors.add(id);
  let shown = 0;
  const treeOf = (parent: string | null): { items: TreeItem[]; more: number } => {
    const ids = model.navChildren.get(parent) ?? [];
    const listed = ids.slice(0, MAX_TREE_LEVEL);
    shown += listed.length;
    const items = listed.map((id): TreeItem => {
      const entry = model.tree.pages.get(id)!;
      const expanded = id === page.id || ancestors.has(id) || entry.type === 'group';
      const children = id === page.id || ancestors.has(id) || shown < MAX_TREE_ITEMS ? treeOf(id) : { items: [], more: 0 };
      return {
        title: entry.title,
        emoji: entry.emoji,
        href: entry.type === 'group' ? null : here(id),
        current: id === page.id,
        expanded,
        children: children.items,
        ...(children.more > 0 ? { more: children.more } : {}),
      };
    });
    return { items, more: ids.length - listed.length };
  };
  const tree = treeOf(null);
  const chrome = siteChrome(visit, structure, located);
  if (tree.more > 0) tree.items.push({ title: chrome.words.morePages(tree.more), href: null, current: false, children: [] });

  const breadcrumbs: Link[] = [...ancestors].reverse().flatMap((id) => {
    const target = firstDocumentUnder(model, id);
    return target ? [{ title: model.tree.pages.get(id)!.title, href: here(target) }] : [];
  });
  const index = model.readingIndex.get(page.id);
  const neighbour = (offset: number): Link | undefined => {
    if (index === undefined) return undefined;
    const id = model.readingOrder[index + offset];
    return id ? { title: model.tree.pages.get(id)!.title, href: here(id) } : undefined;
  };
  const layout = page.layout ?? {};
  const cover = page.cover && layout.cover !== false ? links.file(page.cover.ref.file) : undefined;
  const sidebarStyle = customizationOf(site).styling.sidebar.list;
  const switcher = located.siblings.length > 1 ? { label: chrome.words.variants, items: await variantLinks(visit, found) } : undefined;
  return renderPage(
    chrome,
    {
      title: page.title,
      description: layout.description === false ? undefined : page.description,
      emoji: page.emoji,
      cover,
      socialImage: socialImageOf(visit, found),
      canonical: `${siteAddress(app.urls, site)}${siteSpacePath(located.section, located.siteSpace)}/${model.pathById.get(page.id)}`,
      markdown: `${here(page.id)}.md`,
      breadcrumbs,
      switcher,
      tree: tree.items,
      body: body ? fillBody(body, links) : '',
      outline: layout.outline === false || !body ? [] : body.outline,
      updatedAt: page.updatedAt,
      previous: layout.pagination === false ? undefined : neighbour(-1),
      next: layout.pagination === false ? undefined : neighbour(1),
      feedback: { action: `${root}/_feedback`, space: located.siteSpace.spaceId, page: page.id, revision: visit.state.heads.get(located.siteSpace.spaceId)!.revisionId },
    },
    { sidebar: `sidebar-${sidebarStyle}`, noindex, now: new Date() },
  );
}

/**
 * The variants of the page's site space, each linking to the same page path when that variant has it
 * (else to its first page): switching versions keeps the reader where they were. The variants' models
 * are cached per head (space-model.ts), so this is a lookup per variant.
 */
async function variantLinks(visit: SiteVisit, found: SitePage): Promise<Link[]> {
  const { app, site, root } = visit;
  const { located, model, page } = found;
  const path = model.pathById.get(page.id);
  return Promise.all(
    located.siblings.map(async (row) => {
      const base = `${root}${siteSpacePath(located.section, row)}/`;
      if (row.id === located.siteSpace.id) return { title: row.spaceTitle, href: `${base}${path ?? ''}`, current: true };
      const head = visit.state.heads.get(row.spaceId);
      const other = head && path !== undefined ? await spaceModel(app, site.organizationId, head.pagesRoot) : undefined;
      return { title: row.spaceTitle, href: other?.idByPath.has(path!) ? `${base}${path}` : base, current: false };
    }),
  );
}
