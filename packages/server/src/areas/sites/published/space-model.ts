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

/**
 * Pages handled between two yields to the event loop while a model is built: a 100,000-page tree took
 * ~300 ms to model in one go (more under load), and no request may hold the loop past ~50 ms
 * (docs/decisions.md, "A large space's site model is built in slices"); 2,000 pages are a few ms.
 */
export const MODEL_SLICE_PAGES = 2_000;

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Calls `nextMacrotask` after every MODEL_SLICE_PAGES steps. */
function slicer() {
  let steps = 0;
  return async () => {
    if (++steps % MODEL_SLICE_PAGES === 0) await nextMacrotask();
  };
}

export async function buildModel(tree: PageTree): Promise<SpaceModel> {
  const step = slicer();
  const pathById = new Map<string, string>();
  const idByPath = new Map<string, string>();
  for (const [id, page] of tree.pages) {
    // A parent's path is usually known already (trees list parents first); pathOf walks up otherwise.
    const parent = tree.parentOf.get(id) ?? null;
    const parentPath = parent === null ? '' : pathById.get(parent);
    const path = parentPath === undefined ? pathOf(tree, id) : parent === null ? page.slug : `${parentPath}/${page.slug}`;
    pathById.set(id, path);
    idByPath.set(path, id);
    await step();
  }
  const navChildren = new Map<ParentId, string[]>();
  const readingOrder: string[] = [];
  // Depth first, children in order, without recursion (a deep tree would otherwise grow the stack).
  const pending: ParentId[] = [null];
  while (pending.length > 0) {
    const parent = pending.pop()!;
    if (parent !== null && tree.pages.get(parent)!.type === 'document') readingOrder.push(parent);
    const shown = (tree.childrenOf.get(parent) ?? []).filter((id) => !tree.pages.get(id)!.hidden);
    if (shown.length > 0) navChildren.set(parent, shown);
    for (let index = shown.length - 1; index >= 0; index--) pending.push(shown[index]!);
    await step();
  }
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
  return app.caches.siteModels.load(`${organizationId}:${pagesRoot ?? 'empty'}`, async () => await buildModel(await loadPageTree(app.db, app.caches, organizationId, pagesRoot)));
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
