// A space's pages as a site shows them, computed once per page tree (trees are immutable: the model is
// kept by the tree's root hash in the `siteModels` cache, never stale): each page's path and the page at each
// path, the navigation (hidden pages and everything under them left out), the reading order for
// previous/next (documents only), and the paths pages had in recent revisions (redirects).
import type { AppContext } from '../../../context.js';
import { pathOf, type PageEntry, type PageTree, type ParentId } from '../../../content/model.js';
import { loadPageTree } from '../../../content/tree-store.js';
import { recentPageRoots } from './published.repository.js';

export type SpaceModel = {
  tree: PageTree;
  pathById: ReadonlyMap<string, string>;
  idByPath: ReadonlyMap<string, string>;
  /** Children shown in navigation (hidden pages left out), by parent. */
  navChildren: ReadonlyMap<ParentId, readonly string[]>;
  /** Documents in navigation, in tree order: previous/next. */
  readingOrder: readonly string[];
  readingIndex: ReadonlyMap<string, number>;
  /** The page the space's own address shows: the first document in navigation, else any document. */
  firstPage: string | undefined;
};

function buildModel(tree: PageTree): SpaceModel {
  const pathById = new Map<string, string>();
  const idByPath = new Map<string, string>();
  for (const id of tree.pages.keys()) {
    const path = pathOf(tree, id);
    pathById.set(id, path);
    idByPath.set(path, id);
  }
  const navChildren = new Map<ParentId, string[]>();
  const readingOrder: string[] = [];
  const walk = (parent: ParentId) => {
    const shown = (tree.childrenOf.get(parent) ?? []).filter((id) => !tree.pages.get(id)!.hidden);
    if (shown.length > 0) navChildren.set(parent, shown);
    for (const id of shown) {
      if (tree.pages.get(id)!.type === 'document') readingOrder.push(id);
      walk(id);
    }
  };
  walk(null);
  const anyDocument = [...tree.pages.values()].find((page: PageEntry) => page.type === 'document')?.id;
  return {
    tree,
    pathById,
    idByPath,
    navChildren,
    readingOrder,
    readingIndex: new Map(readingOrder.map((id, index) => [id, index])),
    firstPage: readingOrder[0] ?? anyDocument,
  };
}

/** Reads the model through: the database, the server's caches. */
type Reader = Pick<AppContext, 'db' | 'caches'>;

export async function spaceModel(app: Reader, organizationId: string, pagesRoot: string | null): Promise<SpaceModel> {
  return app.caches.siteModels.load(`${organizationId}:${pagesRoot ?? 'empty'}`, async () => buildModel(await loadPageTree(app.db, app.caches, organizationId, pagesRoot)));
}

/** How many of a space's latest revisions are searched for a path that is no longer there. */
export const REDIRECT_HISTORY = 20;

/**
 * The page now at `model` that was at `path` in one of the space's last REDIRECT_HISTORY revisions
 * (the newest that had the path wins), or undefined. The paths of those revisions are collected once
 * per head and kept (the `siteFormerPaths` cache: a head's recent revisions never change).
 */
export async function movedPage(app: Reader, organizationId: string, spaceId: string, headRoot: string | null, model: SpaceModel, path: string): Promise<string | undefined> {
  const former = await app.caches.siteFormerPaths.load(`${organizationId}:${spaceId}:${headRoot ?? 'empty'}`, async () => {
    const map = new Map<string, string>();
    for (const root of await recentPageRoots(app.db, organizationId, spaceId, REDIRECT_HISTORY)) {
      if (root === headRoot) continue;
      const old = await spaceModel(app, organizationId, root);
      for (const [oldPath, id] of old.idByPath) if (!map.has(oldPath) && !model.idByPath.has(oldPath) && model.pathById.has(id)) map.set(oldPath, id);
    }
    return map;
  });
  return former.get(path);
}
