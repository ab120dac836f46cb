// Where a page's links and images lead on the site: another page of its space, a page or the home of
// another space the visitor sees on the site, a file of its space (`_files/`), or outside the site.
// Anything that names no such place is broken (shown as text, never as a dead link). Any form of a
// page that links to the site's addresses resolves them here.
import type { AppContext } from '../../../context.js';
import type { PageEntry } from '../../../content/model.js';
import { loadFileTree } from '../../../content/tree-store.js';
import type { PublishedStructure } from '../published-structure.js';
import type { SiteSpaceRow } from '../structure.repository.js';
import type { LinkResolver } from './body-template.js';
import type { PublishedSiteRow, SpaceHead } from './published.repository.js';
import { siteSpacePath, siteSpacesOf, type Located, type SectionEntry } from './site-navigation.js';
import { pageHref } from './site-page.js';
import { ID } from './site-visit.js';
import { spaceModel, type SpaceModel } from './space-model.js';

export type PageLinks = LinkResolver & {
  /** The site address of a file of the page's space; undefined when it has none by that id. */
  file(fileId: string): string | undefined;
};

type LinkContext = {
  app: Pick<AppContext, 'db' | 'caches'>;
  site: PublishedSiteRow;
  root: string;
  structure: PublishedStructure;
  heads: ReadonlyMap<string, SpaceHead>;
  located: Located;
  model: SpaceModel;
  page: PageEntry;
  /** The page's Markdown (the other spaces it links to are looked up before resolving). */
  markdown: string;
  /** Added to the addresses of pages: `.md` when the links lead to the pages' Markdown (endpoints/page-markdown.ts). */
  pageSuffix?: string;
};

const titleOf = (model: SpaceModel, pageId: string) => model.tree.pages.get(pageId)?.title;

/** The resolver of `page`'s links, with what it needs loaded: the files of its space, the other spaces it names. */
export async function pageLinks(c: LinkContext): Promise<PageLinks> {
  const { app, root, located, model, page } = c;
  const organizationId = c.site.organizationId;
  const suffix = c.pageSuffix ?? '';
  const here = (pageId: string) => pageHref(root, located.section, located.siteSpace, model, pageId) + suffix;

  const visible = siteSpacesOf(c.structure);
  const otherModels = new Map<string, { model: SpaceModel; section: SectionEntry | null; siteSpace: SiteSpaceRow }>();
  for (const match of c.markdown.matchAll(/\/spaces\/([A-Za-z0-9_-]{1,64})/g)) {
    const spaceId = match[1]!;
    const entry = visible.find((item) => item.siteSpace.spaceId === spaceId);
    const head = c.heads.get(spaceId);
    if (entry && head && !otherModels.has(spaceId)) otherModels.set(spaceId, { model: await spaceModel(app, organizationId, head.pagesRoot), ...entry });
  }
  const head = c.heads.get(located.siteSpace.spaceId)!;
  const files = await loadFileTree(app.db, app.caches, organizationId, head.filesRoot);
  const file = (fileId: string) => (files.items.has(fileId) ? `${root}/_files/${located.siteSpace.spaceId}/${fileId}` : undefined);

  const parentPath = (model.pathById.get(page.id) ?? '').split('/').slice(0, -1);
  return {
    file,
    link(href) {
      const address = href.trim();
      if (/^(https?|mailto|tel):/i.test(address) || address.startsWith('//')) return { href: address, external: true };
      if (/^[a-z][a-z0-9+.-]*:/i.test(address)) return { broken: true };
      const hash = address.indexOf('#');
      const anchor = hash >= 0 ? address.slice(hash) : '';
      const path = (hash >= 0 ? address.slice(0, hash) : address).replace(/\?.*$/, '');
      const parts = path.split('/').filter((part) => part !== '');
      if (path.startsWith('/') && parts[0] === 'pages' && parts.length === 2 && ID.test(parts[1]!)) {
        return model.pathById.has(parts[1]!) ? { href: here(parts[1]!) + anchor, title: titleOf(model, parts[1]!) } : { broken: true };
      }
      if (path.startsWith('/') && parts[0] === 'files' && parts.length === 2) {
        const target = file(parts[1]!);
        return target ? { href: target, title: files.items.get(parts[1]!)!.name } : { broken: true };
      }
      if (path.startsWith('/') && parts[0] === 'spaces' && parts[1] && ID.test(parts[1])) {
        const other = otherModels.get(parts[1]);
        if (!other) return { broken: true };
        if (parts.length === 2) return { href: `${root}${siteSpacePath(other.section, other.siteSpace)}/` };
        if (parts[2] === 'pages' && parts.length === 4 && other.model.pathById.has(parts[3]!)) return { href: pageHref(root, other.section, other.siteSpace, other.model, parts[3]!) + suffix + anchor, title: titleOf(other.model, parts[3]!) };
        return { broken: true };
      }
      // A path to a page: from the space's root, or relative to the page's folder — its parent's, or its
      // own when it has subpages (GitBook's 'page/README.md'); `.md` and README.md name the page.
      const resolve = (base: string[]) => {
        const folder = path.startsWith('/') ? [] : [...base];
        for (const part of parts) {
          if (part === '.') continue;
          if (part === '..') folder.pop();
          else folder.push(part);
        }
        const last = folder.at(-1);
        if (last && /^readme\.md$/i.test(last)) folder.pop();
        else if (last && /\.md$/i.test(last)) folder[folder.length - 1] = last.slice(0, -3);
        return model.idByPath.get(folder.join('/'));
      };
      const target = resolve(parentPath) ?? (model.tree.childrenOf.has(page.id) ? resolve([...parentPath, page.slug]) : undefined);
      if (target) return { href: here(target) + anchor, title: titleOf(model, target) };
      return path === '' ? { href: anchor } : { broken: true };
    },
    image(src) {
      const address = src.trim();
      if (/^https?:/i.test(address) || address.startsWith('//')) return { external: address };
      const id = /^\/files\/([A-Za-z0-9_-]{1,64})$/.exec(address)?.[1];
      const target = id ? file(id) : undefined;
      if (!target) return { broken: true };
      const dimensions = files.items.get(id!)?.dimensions;
      return dimensions ? { src: target, width: dimensions.width, height: dimensions.height } : { src: target };
    },
  };
}
