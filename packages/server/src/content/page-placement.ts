// Where a page may stand in the tree. Deeper trees made reads overflow the stack, and a long path
// cannot be stored in the head index (its unique btree key holds about 2,700 bytes): 500s either way.
// Every write that places a page (the batch engine on insert, move and slug change; the 3-way merge on
// what it moves, renames or restores) checks the page and its whole subtree where they end up.
// Pages stored deeper before these limits existed stay readable (readers nest at most MAX_PAGE_DEPTH
// levels); only placing a page is refused.
import type { PageTree, ParentId } from './model.js';

/** Levels of pages: a top-level page is at depth 1, its children at 2, … */
export const MAX_PAGE_DEPTH = 64;
/** Characters of a page's path (its ancestors' slugs and its own, joined by `/`). */
export const MAX_PAGE_PATH_LENGTH = 2048;

export type PlacementViolation = { page: string; depth: number; pathLength: number };

type TreeView = Pick<PageTree, 'pages' | 'parentOf' | 'childrenOf'>;

/**
 * The first page of `id`'s subtree (`id` included) that stands deeper than MAX_PAGE_DEPTH or whose path
 * is longer than MAX_PAGE_PATH_LENGTH in `tree`; undefined when all fit. Walks the page's ancestors and
 * its subtree only, without recursion.
 */
export function placementViolation(tree: TreeView, id: string): PlacementViolation | undefined {
  let depth = 0;
  let pathLength = -1;
  for (let current: ParentId = tree.parentOf.get(id) ?? null; current !== null; current = tree.parentOf.get(current) ?? null) {
    depth++;
    pathLength += tree.pages.get(current)!.slug.length + 1;
  }
  let level: Array<[string, number]> = [[id, pathLength]];
  while (level.length > 0) {
    depth++;
    const next: Array<[string, number]> = [];
    for (const [page, parentPathLength] of level) {
      const length = parentPathLength + 1 + tree.pages.get(page)!.slug.length;
      if (depth > MAX_PAGE_DEPTH || length > MAX_PAGE_PATH_LENGTH) return { page, depth, pathLength: length };
      for (const child of tree.childrenOf.get(page) ?? []) next.push([child, length]);
    }
    level = next;
  }
  return undefined;
}

/** What a refusal says: the page (`page "id"` unless named otherwise), and which limit it passes. */
export function describeViolation(violation: PlacementViolation, name = `page "${violation.page}"`): string {
  return violation.depth > MAX_PAGE_DEPTH
    ? `${name} would be ${violation.depth} levels deep; pages nest at most ${MAX_PAGE_DEPTH} levels`
    : `${name} would have a path of ${violation.pathLength} characters; paths are at most ${MAX_PAGE_PATH_LENGTH} characters`;
}
