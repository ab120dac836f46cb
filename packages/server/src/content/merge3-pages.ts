// The page-tree part of a merge (docs/design/content-model.md, "Merge and update"): per page id and field, then the
// invariant repairs (every parent exists, no cycles), the children lists and the sibling slugs.
import { diff3Merge } from 'node-diff3';
import type { PageDiff } from './diff.js';
import { PageTreeEditor } from './editors.js';
import type { NewNode } from './chunked-list.js';
import type { PageEntry, PageTree, ParentId } from './model.js';
import { same, type Outcome } from './merge3-outcome.js';
import { freeSlug } from './slugs.js';
import { conflict } from '../errors.js';
import { describeViolation, placementViolation } from './page-placement.js';

/** The two diffs of a merge, by page id: base → ours, base → theirs. */
export type PageDiffs = { ours: Map<string, PageDiff>; theirs: Map<string, PageDiff> };

type Side = { entry: PageEntry; parent: ParentId };

/** Page fields merged one by one (the body and the parent are merged on their own). */
const PAGE_FIELDS = ['type', 'title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover'] as const;

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

export class PageMerge {
  /** The merged page for every id that differs on either side: its entry and parent, or null (deleted). */
  private readonly result = new Map<string, Side | null>();
  private readonly ids: Set<string>;

  constructor(
    private readonly B: PageTree,
    private readonly O: PageTree,
    private readonly T: PageTree,
    private readonly diffs: PageDiffs,
    private readonly out: Outcome,
  ) {
    this.ids = new Set([...diffs.ours.keys(), ...diffs.theirs.keys()]);
  }

  run(): { tree: PageTree; nodes: NewNode[] } {
    for (const id of this.ids) this.result.set(id, this.mergePage(id));
    this.repair();
    const lists = this.childLists();
    this.repairSlugs(lists);
    const written = this.write(lists);
    this.checkPlacements(written.tree);
    return written;
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

  // ---- Limits ----

  /**
   * Two moves, each within the limits on its side, can nest pages too deep together (or a rename on
   * one side and a move on the other make a path too long). Unlike the other invariants this has no
   * repair that keeps both sides' intent (undoing a move would also strand what the other side put
   * below it), so the merge is refused (409) and the request's author moves pages first. Only pages
   * the merge placed differently from the primary are checked, each with its subtree, so pages stored
   * deeper before the limits existed do not block merges that leave them where they are.
   */
  private checkPlacements(tree: PageTree): void {
    const placed = new Set<string>();
    for (const [id, merged] of this.result) {
      const o = sideOf(this.O, id);
      if (merged && (!o || o.parent !== merged.parent || o.entry.slug !== merged.entry.slug)) placed.add(id);
    }
    for (const id of placed) {
      let covered = false;
      for (let current = tree.parentOf.get(id) ?? null; current !== null && !covered; current = tree.parentOf.get(current) ?? null) covered = placed.has(current);
      if (covered) continue; // checked with the subtree of a placed ancestor
      const violation = placementViolation(tree, id);
      if (violation) {
        throw conflict(`The change request and the space cannot be combined: ${describeViolation(violation)}. Move pages in the change request so that both fit, then try again`);
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
