// 3-way merge of revision contents (docs/design/content-model.md, "Merge and update"): base B, ours O (the primary head),
// theirs T (the change request's head). Pure: documents arrive loaded (planMerge says which).
//
// Only what differs on either side is looked at: the two tree diffs (B→O, B→T) skip unchanged subtrees,
// pages on neither diff are equal in all three versions, and the result is written over O, so a merge
// costs the changes, not the size of the space. Every conflict resolves in favour of the change request
// and is returned (D1); the invariant repairs (parents exist, no cycles, sibling slugs unique) are
// conflicts too.
import { diffPageTrees } from './diff.js';
import { mergeFiles, mergeReusables } from './merge3-lists.js';
import { Outcome, type MergeConflict } from './merge3-outcome.js';
import { PageMerge, type PageDiffs } from './merge3-pages.js';
import type { ContentState, PageTree } from './model.js';
import { flat } from './overlay-map.js';
import type { NewNodes } from './tree-store.js';
import type { NewNode } from './chunked-list.js';

export type { MergeConflict } from './merge3-outcome.js';

export type MergedContent = {
  state: ContentState;
  nodes: NewNodes;
  documents: Array<{ hash: string; markdown: string }>;
  conflicts: MergeConflict[];
};

/** The merge's inputs with their diffs, and the documents it needs (bodies changed on both sides). */
export type MergePlan = {
  base: ContentState;
  ours: ContentState;
  theirs: ContentState;
  pages: PageDiffs;
  documents: string[];
};

/** Hashes of the bodies both sides changed differently, for the pages and reusable contents of a merge. */
function documentsNeeded(base: ContentState, ours: ContentState, theirs: ContentState, pages: MergePlan['pages']): string[] {
  const needed = new Set<string>();
  const add = (b: string | null | undefined, o: string | null | undefined, t: string | null | undefined) => {
    if (o === b || t === b || o === t) return;
    for (const hash of [b, o, t]) if (hash) needed.add(hash);
  };
  for (const id of pages.theirs.keys()) {
    if (!pages.ours.has(id)) continue;
    add(base.pages.pages.get(id)?.documentHash, ours.pages.pages.get(id)?.documentHash, theirs.pages.pages.get(id)?.documentHash);
  }
  if (base.reusables.rootHash !== ours.reusables.rootHash && base.reusables.rootHash !== theirs.reusables.rootHash) {
    for (const id of new Set([...ours.reusables.items.keys(), ...theirs.reusables.items.keys()])) {
      add(base.reusables.items.get(id)?.documentHash, ours.reusables.items.get(id)?.documentHash, theirs.reusables.items.get(id)?.documentHash);
    }
  }
  return [...needed];
}

/**
 * The tree with plain maps: trees fresh from edits are chains of up to 16 overlay layers, and a merge
 * looks up every sibling of every changed list several times (flattening first made it ~3× faster).
 */
function flatPages(tree: PageTree): PageTree {
  return { ...tree, pages: flat(tree.pages), parentOf: flat(tree.parentOf), childrenOf: flat(tree.childrenOf) };
}

export function planMerge(base: ContentState, ours: ContentState, theirs: ContentState): MergePlan {
  if (ours.pages.rootHash !== base.pages.rootHash && theirs.pages.rootHash !== base.pages.rootHash) {
    [base, ours, theirs] = [base, ours, theirs].map((state) => ({ ...state, pages: flatPages(state.pages) })) as [ContentState, ContentState, ContentState];
  }
  const pages = {
    ours: new Map(diffPageTrees(base.pages, ours.pages).map((diff) => [diff.id, diff])),
    theirs: new Map(diffPageTrees(base.pages, theirs.pages).map((diff) => [diff.id, diff])),
  };
  return { base, ours, theirs, pages, documents: documentsNeeded(base, ours, theirs, pages) };
}

/** Picks the shortcut when one side did not change a tree (fast-forward per tree). */
function shortcut<T extends { rootHash: string | null }>(base: T, ours: T, theirs: T): T | undefined {
  if (ours.rootHash === base.rootHash) return theirs;
  if (theirs.rootHash === base.rootHash || ours.rootHash === theirs.rootHash) return ours;
  return undefined;
}

/** Merges the change request's content (theirs) into the primary's (ours) from their base. */
export function merge3(plan: MergePlan, documents: ReadonlyMap<string, string>): MergedContent {
  const { base, ours, theirs } = plan;
  const out = new Outcome(documents);
  const none = { tree: undefined, nodes: [] as NewNode[] };
  const pagesShortcut = shortcut(base.pages, ours.pages, theirs.pages);
  const pages = pagesShortcut ? { ...none, tree: pagesShortcut } : new PageMerge(base.pages, ours.pages, theirs.pages, plan.pages, out).run();
  const filesShortcut = shortcut(base.files, ours.files, theirs.files);
  const files = filesShortcut ? { ...none, tree: filesShortcut } : mergeFiles(base.files, ours.files, theirs.files, out);
  const reusablesShortcut = shortcut(base.reusables, ours.reusables, theirs.reusables);
  const reusables = reusablesShortcut ? { ...none, tree: reusablesShortcut } : mergeReusables(base.reusables, ours.reusables, theirs.reusables, out);
  return {
    state: { pages: pages.tree, files: files.tree, reusables: reusables.tree },
    nodes: { pages: pages.nodes, files: files.nodes, reusables: reusables.nodes },
    documents: [...out.documents].map(([hash, markdown]) => ({ hash, markdown })),
    conflicts: out.conflicts,
  };
}
