// Tree diffs (docs/design/content-model.md, "The tree diff"), as plain data for the head index here and for merges
// later. Page trees are walked from the top, descending only into lists whose node hash differs, so
// the cost follows what changed, not the size of the space.
import { canonicalJson } from './hashing.js';
import type { FlatTree, PageEntry, PageTree, ParentId } from './model.js';

export type PageSide = { entry: PageEntry; parentId: ParentId; index: number };

export type PageDiff = {
  id: string;
  /** The page in the old tree (absent: created). */
  before?: PageSide;
  /** The page in the new tree (absent: deleted). */
  after?: PageSide;
  /** The parent differs. */
  moved: boolean;
  /** A field or the body differs (children aside). */
  edited: boolean;
  /** Only the position among the same parent's children differs. */
  reordered: boolean;
};

/** Entries compared without `childrenHash`: a change below a page is not a change of the page. */
function sameFields(a: PageEntry, b: PageEntry): boolean {
  if (a === b) return true;
  const { childrenHash: _a, ...restA } = a;
  const { childrenHash: _b, ...restB } = b;
  return canonicalJson(restA) === canonicalJson(restB);
}

function childrenHash(tree: PageTree, parent: ParentId): string | null {
  return parent === null ? tree.rootHash : (tree.pages.get(parent)?.childrenHash ?? null);
}

function side(tree: PageTree, id: string, index: number): PageSide | undefined {
  const entry = tree.pages.get(id);
  return entry ? { entry, parentId: tree.parentOf.get(id) ?? null, index } : undefined;
}

/**
 * Every page that differs between two trees (created, deleted, moved, edited or reordered). A list
 * whose node hash is equal on both sides is skipped with everything below it; every list that changed
 * has ancestors whose hashes changed too, so the walk from the top reaches all of them, and a page that
 * moved is seen in both its old and its new list.
 */
export function diffPageTrees(before: PageTree, after: PageTree): PageDiff[] {
  if (before.rootHash === after.rootHash) return [];
  const sides = new Map<string, { before?: PageSide; after?: PageSide }>();
  const sidesOf = (id: string) => {
    let known = sides.get(id);
    if (!known) sides.set(id, (known = {}));
    return known;
  };
  const stack: ParentId[] = [null];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    if (parent !== null && childrenHash(before, parent) === childrenHash(after, parent)) continue;
    const old = before.childrenOf.get(parent) ?? [];
    const now = after.childrenOf.get(parent) ?? [];
    // The same entry object at the same place is the same page with the same subtree (entries are
    // immutable and shared between versions): most siblings of a changed list are skipped here.
    const unchanged = (id: string, index: number) => old[index] === id && now[index] === id && before.pages.get(id) === after.pages.get(id);
    old.forEach((id, index) => {
      if (unchanged(id, index)) return;
      sidesOf(id).before = side(before, id, index);
      stack.push(id);
    });
    now.forEach((id, index) => {
      if (unchanged(id, index)) return;
      const known = sidesOf(id);
      if (!known.before) stack.push(id);
      known.after = side(after, id, index);
    });
  }
  const diffs: PageDiff[] = [];
  for (const [id, { before: old, after: now }] of sides) {
    const moved = !!old && !!now && old.parentId !== now.parentId;
    const edited = !!old && !!now && !sameFields(old.entry, now.entry);
    const reordered = !!old && !!now && !moved && old.index !== now.index;
    if (old && now && !moved && !edited && !reordered) continue;
    diffs.push({ id, ...(old ? { before: old } : {}), ...(now ? { after: now } : {}), moved, edited, reordered });
  }
  return diffs;
}

export type FlatDiff<E> = { id: string; before?: E; after?: E };

/** Entries created, deleted or changed between two flat lists. */
export function diffFlatTrees<E extends { id: string }>(before: FlatTree<E>, after: FlatTree<E>): Array<FlatDiff<E>> {
  if (before.rootHash === after.rootHash) return [];
  const diffs: Array<FlatDiff<E>> = [];
  for (const [id, old] of before.items) {
    const now = after.items.get(id);
    if (!now) diffs.push({ id, before: old });
    else if (now !== old && canonicalJson(now) !== canonicalJson(old)) diffs.push({ id, before: old, after: now });
  }
  for (const [id, now] of after.items) if (!before.items.has(id)) diffs.push({ id, after: now });
  return diffs;
}
