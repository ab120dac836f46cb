// Copy-on-write editors over immutable trees. Edits touch in-memory maps; `commit()` re-hashes only the
// lists that changed, deepest first, so a one-page edit at depth d produces d new nodes and leaves every
// other node (and entry object) shared with the base tree.
import { encodeList, type ListChunk, type NewNode } from './chunked-list.js';
import type { FlatTree, PageEntry, PageTree, ParentId } from './model.js';
import { overlay, type OverlayMap } from './overlay-map.js';

export type Committed<T> = { tree: T; nodes: NewNode[] };

function uniqueNodes(nodes: NewNode[]): NewNode[] {
  return [...new Map(nodes.map((node) => [node.hash, node])).values()];
}

export class PageTreeEditor {
  private readonly pages: OverlayMap<string, PageEntry>;
  private readonly parentOf: OverlayMap<string, ParentId>;
  private readonly childrenOf: OverlayMap<ParentId, readonly string[]>;
  private readonly ownedLists = new Set<ParentId>();
  private readonly dirty = new Set<ParentId>();
  private readonly changed = new Set<string>();

  constructor(private readonly base: PageTree) {
    this.pages = overlay(base.pages);
    this.parentOf = overlay(base.parentOf);
    this.childrenOf = overlay(base.childrenOf);
  }

  get(id: string): PageEntry | undefined {
    return this.pages.get(id);
  }

  parent(id: string): ParentId {
    return this.parentOf.get(id) ?? null;
  }

  children(parent: ParentId): readonly string[] {
    return this.childrenOf.get(parent) ?? [];
  }

  /** A read-only view of the current state, for the model's helpers (paths, ancestry). */
  view(): Pick<PageTree, 'pages' | 'parentOf' | 'childrenOf'> {
    return { pages: this.pages, parentOf: this.parentOf, childrenOf: this.childrenOf };
  }

  private list(parent: ParentId): string[] {
    if (!this.ownedLists.has(parent)) {
      this.childrenOf.set(parent, [...(this.childrenOf.get(parent) ?? [])]);
      this.ownedLists.add(parent);
    }
    this.dirty.add(parent);
    return this.childrenOf.get(parent) as string[];
  }

  insert(parent: ParentId, index: number, entry: PageEntry): void {
    this.pages.set(entry.id, entry);
    this.parentOf.set(entry.id, parent);
    this.list(parent).splice(index, 0, entry.id);
    this.changed.add(entry.id);
  }

  /** Replaces a page's entry (its children stay). */
  update(entry: PageEntry): void {
    this.pages.set(entry.id, entry);
    this.changed.add(entry.id);
    this.dirty.add(this.parent(entry.id));
  }

  /** Moves a page (with its subtree) to `index` among `parent`'s children, counted without the page. */
  move(id: string, parent: ParentId, index: number): void {
    const from = this.list(this.parent(id));
    from.splice(from.indexOf(id), 1);
    this.parentOf.set(id, parent);
    this.list(parent).splice(index, 0, id);
    this.changed.add(id);
  }

  /** Removes a page and its whole subtree. */
  remove(id: string): void {
    const from = this.list(this.parent(id));
    from.splice(from.indexOf(id), 1);
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop()!;
      stack.push(...(this.childrenOf.get(current) ?? []));
      this.pages.delete(current);
      this.parentOf.delete(current);
      this.childrenOf.delete(current);
      this.dirty.delete(current);
    }
  }

  // Primitives for merges (merge3-tree.ts), which compute the final parent of every page and the final
  // order of every changed children list first, then write them as they are. The caller keeps the tree
  // consistent: every listed child is put under that parent, and no cycle is left.

  /** Sets a page's entry and parent without touching any children list; its own list is re-hashed. */
  put(entry: PageEntry, parent: ParentId): void {
    this.pages.set(entry.id, entry);
    this.parentOf.set(entry.id, parent);
    this.changed.add(entry.id);
    this.dirty.add(parent);
    // A page new to this tree gets its children hash from its list (set by setChildren, or none).
    if (!this.base.pages.has(entry.id)) this.dirty.add(entry.id);
  }

  /** Removes one page (not its children, which the caller re-parents or drops). */
  drop(id: string): void {
    this.pages.delete(id);
    this.parentOf.delete(id);
    this.childrenOf.delete(id);
    this.ownedLists.delete(id);
    this.dirty.delete(id);
  }

  /** Replaces a parent's ordered children list. */
  setChildren(parent: ParentId, ids: readonly string[]): void {
    this.childrenOf.set(parent, [...ids]);
    this.ownedLists.add(parent);
    this.dirty.add(parent);
  }

  private depth(parent: ParentId): number {
    let depth = 0;
    for (let current = parent; current !== null; current = this.parent(current)) depth++;
    return depth;
  }

  /** Hashes the changed lists bottom-up and returns the new tree with the nodes to store. */
  commit(): Committed<PageTree> {
    const buckets: Array<Set<ParentId>> = [];
    const schedule = (parent: ParentId) => {
      const depth = this.depth(parent);
      (buckets[depth] ??= new Set()).add(parent);
    };
    for (const parent of this.dirty) if (parent === null || this.pages.has(parent)) schedule(parent);

    const chunksOf = overlay(this.base.chunksOf);
    const nodes: NewNode[] = [];
    let rootHash = this.base.rootHash;
    for (let depth = buckets.length - 1; depth >= 0; depth--) {
      for (const parent of buckets[depth] ?? []) {
        const ids = this.childrenOf.get(parent) ?? [];
        let hash: string | null = null;
        chunksOf.delete(parent);
        if (ids.length === 0) {
          this.childrenOf.delete(parent);
        } else {
          const encoded = encodeList(
            ids.map((id) => this.pages.get(id)!),
            this.base.chunksOf.get(parent) ?? null,
            (id) => this.changed.has(id),
          );
          hash = encoded.hash;
          nodes.push(...encoded.nodes);
          if (encoded.chunks) chunksOf.set(parent, encoded.chunks);
        }
        if (parent === null) {
          rootHash = hash;
          continue;
        }
        const entry = this.pages.get(parent)!;
        if (entry.childrenHash !== hash) {
          this.pages.set(parent, { ...entry, childrenHash: hash });
          this.changed.add(parent);
          schedule(this.parent(parent));
        }
      }
    }
    const tree: PageTree = { rootHash, pages: this.pages, parentOf: this.parentOf, childrenOf: this.childrenOf, chunksOf };
    return { tree, nodes: uniqueNodes(nodes) };
  }
}

/** Editor of a flat list kept in id order (files, reusable contents). */
export class FlatTreeEditor<E extends { id: string }> {
  private readonly items: OverlayMap<string, E>;
  private readonly changed = new Set<string>();
  private readonly added = new Set<string>();
  private readonly removed = new Set<string>();

  constructor(private readonly base: FlatTree<E>) {
    this.items = overlay(base.items);
  }

  get(id: string): E | undefined {
    return this.items.get(id);
  }

  set(entry: E): void {
    if (!this.items.has(entry.id)) {
      if (this.removed.has(entry.id)) this.removed.delete(entry.id);
      else this.added.add(entry.id);
    }
    this.items.set(entry.id, entry);
    this.changed.add(entry.id);
  }

  delete(id: string): void {
    if (!this.items.delete(id)) return;
    if (this.added.has(id)) this.added.delete(id);
    else this.removed.add(id);
  }

  /** The base order without removed ids, with added ids merged in (both sorted): no full re-sort. */
  private order(): readonly string[] {
    if (this.added.size === 0 && this.removed.size === 0) return this.base.order;
    const kept = this.removed.size ? this.base.order.filter((id) => !this.removed.has(id)) : this.base.order;
    const added = [...this.added].sort();
    const order: string[] = [];
    let i = 0;
    for (const id of added) {
      while (i < kept.length && kept[i]! < id) order.push(kept[i++]!);
      order.push(id);
    }
    while (i < kept.length) order.push(kept[i++]!);
    return order;
  }

  commit(): Committed<FlatTree<E>> {
    if (this.changed.size === 0 && this.removed.size === 0) return { tree: this.base, nodes: [] };
    const order = this.order();
    if (order.length === 0) return { tree: { rootHash: null, items: this.items, order, chunks: null }, nodes: [] };
    const encoded = encodeList(
      order.map((id) => this.items.get(id)!),
      this.base.chunks as readonly ListChunk[] | null,
      (id) => this.changed.has(id),
    );
    return { tree: { rootHash: encoded.hash, items: this.items, order, chunks: encoded.chunks }, nodes: uniqueNodes(encoded.nodes) };
  }
}
