// 3-way merge of revision contents (design/content-model.md §6.4): base B, ours O (the primary head),
// theirs T (the change request's head). Pure: documents arrive loaded (planMerge says which).
//
// Only what differs on either side is looked at: the two tree diffs (B→O, B→T) skip unchanged subtrees,
// pages on neither diff are equal in all three versions, and the result is written over O, so a merge
// costs the changes, not the size of the space. Every conflict resolves in favour of the change request
// and is returned (D1); the invariant repairs (parents exist, no cycles, sibling slugs unique) are
// conflicts too.
import { diff3Merge } from 'node-diff3';
import type { ConflictKind, ConflictResolution } from '../../db/schema.js';
import { diffFlatTrees, diffPageTrees, type PageDiff } from './diff.js';
import { FlatTreeEditor, PageTreeEditor } from './editors.js';
import { canonicalJson, documentHashOf, normalizeMarkdown } from './hashing.js';
import { mergeText } from './merge3-text.js';
import type { ContentState, FileEntry, FlatTree, PageEntry, PageTree, ParentId, ReusableEntry } from './model.js';
import { flat } from './overlay-map.js';
import { freeSlug } from './slugs.js';
import type { NewNodes } from './tree-store.js';
import type { NewNode } from './chunked-list.js';

export type MergeConflict = {
  kind: ConflictKind;
  /** The page concerned; null for the order of the top-level pages. */
  pageId?: string | null;
  fileId?: string;
  reusableContentId?: string;
  /** The field concerned (`title`, `parentId`, `markdown`, `pages` for a children order, …); absent for a whole object. */
  field?: string;
  base: unknown;
  ours: unknown;
  theirs: unknown;
  resolution: ConflictResolution;
};

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
  pages: { ours: Map<string, PageDiff>; theirs: Map<string, PageDiff> };
  documents: string[];
};

type Side = { entry: PageEntry; parent: ParentId };

/** Page fields merged one by one (the body and the parent are merged on their own). */
const PAGE_FIELDS = ['type', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover'] as const;

const same = (a: unknown, b: unknown) => a === b || canonicalJson(a ?? null) === canonicalJson(b ?? null);

function sideOf(tree: PageTree, id: string): Side | undefined {
  const entry = tree.pages.get(id);
  return entry ? { entry, parent: tree.parentOf.get(id) ?? null } : undefined;
}

/** What a conflict row shows of a whole page. */
function snapshot(side: Side | undefined) {
  return side ? { parentId: side.parent, title: side.entry.title, slug: side.entry.slug, documentId: side.entry.documentHash } : null;
}

/** Moved or edited (a position change among the same siblings is not a change of the page). */
const modified = (diff: PageDiff | undefined) => !!diff && (diff.moved || diff.edited);

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

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

/** Collects conflicts and the new bodies a merge makes. */
class Outcome {
  readonly conflicts: MergeConflict[] = [];
  readonly documents = new Map<string, string>();

  constructor(private readonly loaded: ReadonlyMap<string, string>) {}

  record(conflict: MergeConflict): void {
    this.conflicts.push(conflict);
  }

  private text(hash: string | null): string {
    if (hash === null) return '';
    const text = this.loaded.get(hash);
    if (text === undefined) throw new Error(`Document ${hash} was not loaded for the merge`);
    return text;
  }

  /** Merges three body hashes; each conflicting hunk is recorded through `hunk`. */
  body(b: string | null, o: string | null, t: string | null, hunk: (h: { base: string; ours: string; theirs: string }) => void): string | null {
    if (o === b || o === t) return t;
    if (t === b) return o;
    const merged = mergeText(this.text(b), this.text(o), this.text(t));
    merged.hunks.forEach(hunk);
    const normalized = normalizeMarkdown(merged.text);
    const hash = documentHashOf(normalized);
    if (hash) this.documents.set(hash, normalized);
    return hash;
  }
}

class PageMerge {
  /** The merged page for every id that differs on either side: its entry and parent, or null (deleted). */
  private readonly result = new Map<string, Side | null>();
  private readonly ids: Set<string>;

  constructor(
    private readonly B: PageTree,
    private readonly O: PageTree,
    private readonly T: PageTree,
    private readonly diffs: MergePlan['pages'],
    private readonly out: Outcome,
  ) {
    this.ids = new Set([...diffs.ours.keys(), ...diffs.theirs.keys()]);
  }

  run(): { tree: PageTree; nodes: NewNode[] } {
    for (const id of this.ids) this.result.set(id, this.mergePage(id));
    this.repair();
    const lists = this.childLists();
    this.repairSlugs(lists);
    return this.write(lists);
  }

  private present(id: string): boolean {
    return this.result.has(id) ? this.result.get(id) !== null : this.O.pages.has(id);
  }

  private parentOf(id: string): ParentId {
    const merged = this.result.get(id);
    return merged ? merged.parent : (this.O.parentOf.get(id) ?? null);
  }

  private entryOf(id: string): PageEntry {
    return this.result.get(id)?.entry ?? this.O.pages.get(id)!;
  }

  // ---- Per page (the table of §6.4) ----

  private mergePage(id: string): Side | null {
    const b = sideOf(this.B, id);
    const o = sideOf(this.O, id);
    const t = sideOf(this.T, id);
    if (!b) {
      // Both sides adding one id cannot happen with server-made ids; the change request's version wins.
      if (o && t && !same(snapshot(o), snapshot(t))) this.out.record({ kind: 'page_field', pageId: id, base: null, ours: snapshot(o), theirs: snapshot(t), resolution: 'theirs' });
      return t ?? o ?? null;
    }
    if (!o && !t) return null;
    if (!o) {
      if (!modified(this.diffs.theirs.get(id))) return null; // restored later if a change below it needs it
      this.out.record({ kind: 'modify_delete', pageId: id, base: snapshot(b), ours: null, theirs: snapshot(t), resolution: 'theirs' });
      return t!;
    }
    if (!t) {
      if (modified(this.diffs.ours.get(id))) this.out.record({ kind: 'modify_delete', pageId: id, base: snapshot(b), ours: snapshot(o), theirs: null, resolution: 'theirs' });
      return null;
    }
    return this.mergeFields(id, b, o, t);
  }

  private mergeFields(id: string, b: Side, o: Side, t: Side): Side {
    const pick = <V>(field: string, bv: V, ov: V, tv: V): V => {
      if (same(ov, bv)) return tv;
      if (same(tv, bv) || same(ov, tv)) return ov;
      this.out.record({ kind: 'page_field', pageId: id, field, base: bv ?? null, ours: ov ?? null, theirs: tv ?? null, resolution: 'theirs' });
      return tv;
    };
    const entry = { ...o.entry } as Record<string, unknown>;
    for (const field of PAGE_FIELDS) entry[field] = pick(field, b.entry[field], o.entry[field], t.entry[field]);
    const parent = pick('parentId', b.parent, o.parent, t.parent);
    if (entry.type === 'group') {
      // The change request made it a group (which has no body): a body the primary changed is dropped.
      if (o.entry.documentHash !== b.entry.documentHash && o.entry.documentHash !== null) {
        this.out.record({ kind: 'page_field', pageId: id, field: 'markdown', base: b.entry.documentHash, ours: o.entry.documentHash, theirs: null, resolution: 'theirs' });
      }
      entry.documentHash = null;
    } else {
      entry.documentHash = this.out.body(b.entry.documentHash, o.entry.documentHash, t.entry.documentHash, (hunk) =>
        this.out.record({ kind: 'document_hunk', pageId: id, field: 'markdown', ...hunk, resolution: 'theirs' }),
      );
    }
    entry.updatedAt = o.entry.updatedAt > t.entry.updatedAt ? o.entry.updatedAt : t.entry.updatedAt;
    // Unchanged against the primary (a page only reordered, or changed the same way on both sides):
    // keep the primary's entry object, so writing the result leaves its node alone.
    const unchanged = parent === o.parent && Object.keys(entry).every((key) => key === 'childrenHash' || same(entry[key], (o.entry as Record<string, unknown>)[key]));
    return unchanged ? o : { entry: entry as PageEntry, parent };
  }

  // ---- Invariants: every parent exists, no cycles ----

  private repair(): void {
    for (let again = true; again; ) {
      again = false;
      for (const id of this.ids) {
        const merged = this.result.get(id);
        if (!merged || merged.parent === null || this.present(merged.parent)) continue;
        this.adopt(id, merged);
        again = true;
      }
      if (!again) again = this.breakCycle();
    }
  }

  /** `id` lost its parent: restore the parent, move `id` back, or let it go with its parent. */
  private adopt(id: string, merged: Side): void {
    const missing = merged.parent!;
    const kept = sideOf(this.T, missing);
    if (kept) {
      // The primary deleted the parent; the change request still has it and changed something below it.
      this.result.set(missing, kept);
      this.out.record({ kind: 'modify_delete', pageId: missing, base: snapshot(sideOf(this.B, missing)), ours: null, theirs: snapshot(kept), resolution: 'theirs' });
      return;
    }
    const theirs = sideOf(this.T, id);
    if (theirs) {
      // The primary moved the page under a page the change request deleted: it stays where the request has it.
      this.result.set(id, { entry: merged.entry, parent: theirs.parent });
      this.out.record({ kind: 'modify_delete', pageId: id, field: 'parentId', base: sideOf(this.B, id)?.parent ?? null, ours: missing, theirs: theirs.parent, resolution: 'theirs' });
      return;
    }
    // A page only the primary has, below a page the change request deleted: it goes with its parent.
    this.result.set(id, null);
    this.out.record({ kind: 'modify_delete', pageId: id, base: snapshot(sideOf(this.B, id)), ours: snapshot(sideOf(this.O, id)), theirs: null, resolution: 'theirs' });
  }

  /**
   * Finds one cycle (each side moved a page under the other's) and reverts the primary's move of the
   * first page in it that the primary moved (Default of §6.4). Answers whether it found one.
   */
  private breakCycle(): boolean {
    for (const id of this.ids) {
      if (!this.present(id)) continue;
      const path: string[] = [];
      const seen = new Set<string>();
      let current: ParentId = id;
      while (current !== null && !seen.has(current)) {
        seen.add(current);
        path.push(current);
        current = this.parentOf(current);
      }
      if (current !== id) continue;
      const movedByOurs = path.find((page) => {
        const o = sideOf(this.O, page);
        return o !== undefined && this.result.has(page) && this.parentOf(page) === o.parent && sideOf(this.B, page)?.parent !== o.parent;
      });
      const culprit = movedByOurs ?? id;
      const merged = this.result.get(culprit)!;
      const parent = sideOf(this.T, culprit)?.parent ?? null;
      this.result.set(culprit, { entry: merged.entry, parent });
      this.out.record({
        kind: 'move_cycle',
        pageId: culprit,
        field: 'parentId',
        base: sideOf(this.B, culprit)?.parent ?? null,
        ours: sideOf(this.O, culprit)?.parent ?? null,
        theirs: parent,
        resolution: 'theirs',
      });
      return true;
    }
    return false;
  }

  // ---- Sibling order and slugs ----

  /** The final children list of every parent whose children changed on either side. */
  private childLists(): Map<ParentId, string[]> {
    const parents = new Set<ParentId>();
    const movedInto = new Map<ParentId, string[]>();
    for (const id of this.ids) {
      for (const tree of [this.B, this.O, this.T]) if (tree.pages.has(id)) parents.add(tree.parentOf.get(id) ?? null);
      const merged = this.result.get(id);
      if (!merged) continue;
      parents.add(merged.parent);
      const list = movedInto.get(merged.parent) ?? [];
      list.push(id);
      movedInto.set(merged.parent, list);
    }
    const lists = new Map<ParentId, string[]>();
    for (const parent of parents) {
      if (parent !== null && !this.present(parent)) continue;
      lists.set(parent, this.mergeOrder(parent, movedInto.get(parent) ?? []));
    }
    return lists;
  }

  /**
   * 3-way merge of one children list: ids that left it are dropped from all three versions, the rest
   * merged with node-diff3 (insertions by both sides at one place: the primary's first). When both
   * reordered one stretch differently, the change request's order wins, with the ids only the primary
   * has after it. Ids not placed by any version (moved back by a repair) go last.
   */
  private mergeOrder(parent: ParentId, movedInto: string[]): string[] {
    const member = (id: string) => this.present(id) && this.parentOf(id) === parent;
    const [b, o, t] = [this.B, this.O, this.T].map((tree) => (tree.childrenOf.get(parent) ?? []).filter(member)) as [string[], string[], string[]];
    let order: string[] | undefined;
    if (sameList(o, t) || sameList(t, b)) order = o;
    else if (sameList(o, b)) order = t;
    else {
      const merged: string[] = [];
      for (const region of diff3Merge(o, b, t)) {
        if (region.ok) merged.push(...region.ok);
        else if (region.conflict && region.conflict.o.length === 0) {
          const ours = new Set(region.conflict.a);
          merged.push(...region.conflict.a, ...region.conflict.b.filter((id) => !ours.has(id)));
        } else {
          merged.length = 0;
          break;
        }
      }
      if (merged.length > 0 && new Set(merged).size === merged.length) order = merged;
    }
    if (!order) {
      const inTheirs = new Set(t);
      order = [...t, ...o.filter((id) => !inTheirs.has(id))];
      this.out.record({ kind: 'page_field', pageId: parent, field: 'pages', base: b, ours: o, theirs: t, resolution: 'theirs' });
    }
    const listed = new Set(order);
    for (const id of [...o, ...t, ...b, ...movedInto]) {
      if (!listed.has(id) && member(id)) {
        order.push(id);
        listed.add(id);
      }
    }
    return order;
  }

  /** Sibling slugs stay unique (D8): the primary's page keeps a disputed slug, others get `-2`, `-3`, …. */
  private repairSlugs(lists: Map<ParentId, string[]>): void {
    for (const [parent, ids] of lists) {
      const bySlug = new Map<string, string[]>();
      for (const id of ids) {
        const slug = this.entryOf(id).slug;
        bySlug.set(slug, [...(bySlug.get(slug) ?? []), id]);
      }
      const taken = new Set(bySlug.keys());
      for (const [slug, holders] of bySlug) {
        if (holders.length < 2) continue;
        const keeper =
          holders.find((id) => {
            const o = sideOf(this.O, id);
            return o !== undefined && o.parent === parent && o.entry.slug === slug;
          }) ?? holders[0]!;
        for (const id of holders) {
          if (id === keeper) continue;
          const renamed = freeSlug(slug, taken);
          taken.add(renamed);
          this.result.set(id, { entry: { ...this.entryOf(id), slug: renamed }, parent });
          this.out.record({ kind: 'slug_collision', pageId: id, field: 'slug', base: slug, ours: { page: keeper, slug }, theirs: { page: id, slug: renamed }, resolution: 'auto' });
        }
      }
    }
  }

  // ---- Output ----

  /** Writes the merged pages and lists over the primary's tree: unchanged nodes stay shared. */
  private write(lists: Map<ParentId, string[]>): { tree: PageTree; nodes: NewNode[] } {
    const editor = new PageTreeEditor(this.O);
    for (const [id, merged] of this.result) {
      const inOurs = this.O.pages.get(id);
      if (merged === null) {
        if (inOurs) editor.drop(id);
        continue;
      }
      if (merged.entry === inOurs && merged.parent === (this.O.parentOf.get(id) ?? null)) continue;
      editor.put({ ...merged.entry, childrenHash: inOurs?.childrenHash ?? null }, merged.parent);
    }
    for (const [parent, ids] of lists) {
      if (!sameList(ids, this.O.childrenOf.get(parent) ?? [])) editor.setChildren(parent, ids);
    }
    const committed = editor.commit();
    // A list merged into exactly one side's version hashes to that side's node, stored already: most
    // lists only the change request touched. Storing them again would deflate and send them for nothing.
    const stored = new Set<string>();
    for (const tree of [this.O, this.T]) {
      if (tree.rootHash) stored.add(tree.rootHash);
      for (const parent of lists.keys()) {
        const hash = parent === null ? null : tree.pages.get(parent)?.childrenHash;
        if (hash) stored.add(hash);
        for (const chunk of tree.chunksOf.get(parent) ?? []) stored.add(chunk.hash);
      }
    }
    return { tree: committed.tree, nodes: committed.nodes.filter((node) => !stored.has(node.hash)) };
  }
}

/** Per-id merge of a flat list (files, reusable contents): the change request wins modify/delete. */
function mergeFlat<E extends { id: string }>(
  B: FlatTree<E>,
  O: FlatTree<E>,
  T: FlatTree<E>,
  conflict: (id: string, field: string | undefined, base: unknown, ours: unknown, theirs: unknown) => void,
  mergeBoth: (b: E | undefined, o: E, t: E) => E,
): { tree: FlatTree<E>; nodes: NewNode[] } {
  const ours = new Set(diffFlatTrees(B, O).map((diff) => diff.id));
  const editor = new FlatTreeEditor(O);
  for (const { id } of diffFlatTrees(B, T)) {
    const b = B.items.get(id);
    const o = O.items.get(id);
    const t = T.items.get(id);
    let merged: E | undefined;
    if (!ours.has(id)) merged = t;
    else if (!o) {
      merged = t;
      if (t) conflict(id, undefined, b ?? null, null, t);
    } else if (!t) {
      conflict(id, undefined, b ?? null, o, null);
    } else merged = mergeBoth(b, o, t);
    if (!merged) editor.delete(id);
    else if (merged !== o) editor.set(merged);
  }
  return editor.commit();
}

function mergeFiles(B: FlatTree<FileEntry>, O: FlatTree<FileEntry>, T: FlatTree<FileEntry>, out: Outcome) {
  const conflict = (fileId: string, field: string | undefined, base: unknown, ours: unknown, theirs: unknown) =>
    out.record({ kind: 'file', fileId, ...(field ? { field } : {}), base, ours, theirs, resolution: 'theirs' });
  // The bytes and what describes them (type, size, dimensions) change together: one field, `content`.
  const content = (file: FileEntry | undefined) => (file ? { blobHash: file.blobHash, contentType: file.contentType, size: file.size, dimensions: file.dimensions } : undefined);
  return mergeFlat(B, O, T, conflict, (b, o, t) => {
    const pick = <V>(field: string, bv: V | undefined, ov: V, tv: V): V => {
      if (same(ov, bv)) return tv;
      if (same(tv, bv) || same(ov, tv)) return ov;
      conflict(o.id, field, bv ?? null, ov, tv);
      return tv;
    };
    const name = pick('name', b?.name, o.name, t.name);
    const { dimensions, ...bytes } = pick('content', content(b), content(o), content(t))!;
    return { id: o.id, name, ...bytes, ...(dimensions ? { dimensions } : {}) };
  });
}

function mergeReusables(B: FlatTree<ReusableEntry>, O: FlatTree<ReusableEntry>, T: FlatTree<ReusableEntry>, out: Outcome) {
  const conflict = (reusableContentId: string, field: string | undefined, base: unknown, ours: unknown, theirs: unknown) =>
    out.record({ kind: 'reusable', reusableContentId, ...(field ? { field } : {}), base, ours, theirs, resolution: 'theirs' });
  return mergeFlat(B, O, T, conflict, (b, o, t) => {
    let title = t.title;
    if (same(t.title, b?.title) || o.title === t.title) title = o.title;
    else if (!same(o.title, b?.title)) conflict(o.id, 'title', b?.title ?? null, o.title, t.title);
    const documentHash = out.body(b?.documentHash ?? null, o.documentHash, t.documentHash, (hunk) => conflict(o.id, 'markdown', hunk.base, hunk.ours, hunk.theirs));
    return title === o.title && documentHash === o.documentHash ? o : { id: o.id, title, documentHash };
  });
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
