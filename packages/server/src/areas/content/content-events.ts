// `space.content-updated`: recorded in the transaction of every move of a space's head (a direct edit,
// an import, a merge), from the page diff the head index has just applied (content/space-head.ts), so
// listing the changed pages costs no second diff.
import type { SpaceHeadListener, SpaceHeadMove } from '../../content/space-head.js';
import { canonicalJson } from '../../content/hashing.js';
import { pathOf, type PageEntry, type PageTree } from '../../content/model.js';
import type { RevisionType } from '../../db/schema.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import { recordEvents, type EventActor, type NewEvent } from '../events/index.js';

/** Pages listed in one event, all lists together; `truncated` says when more changed. */
export const MAX_EVENT_PAGES = 1000;

type EventPage = Schemas['EventPage'];
type ChangedPages = Schemas['SpaceContentUpdatedEventData']['pages'];

/** A field of the page itself changed (not its children, nor only the time an edit or a move stamps). */
function fieldsChanged(before: PageEntry, after: PageEntry): boolean {
  const { updatedAt: _u1, childrenHash: _c1, ...old } = before;
  const { updatedAt: _u2, childrenHash: _c2, ...now } = after;
  return canonicalJson(old) !== canonicalJson(now);
}

/**
 * Pages placed elsewhere among the same siblings: of the siblings under `parent` both before and after,
 * those outside the heaviest run that keeps its order, where a page the change did not touch (its
 * `updatedAt` unchanged) outweighs any number of touched ones. So siblings that only shifted because a
 * page was inserted, removed or moved next to them are not counted, and of two swapped pages the one
 * the change placed is. A Fenwick tree of prefix maxima: O(k log k) for k siblings.
 */
function reorderedUnder(move: SpaceHeadMove, parent: string | null): string[] {
  const after = move.after.pages.childrenOf.get(parent) ?? [];
  const positions = new Map(after.map((id, index) => [id, index + 1]));
  const kept = (move.before.pages.childrenOf.get(parent) ?? []).filter((id) => positions.has(id));
  const untouchedWeight = kept.length + 1;
  const tree: Array<{ weight: number; index: number }> = Array.from({ length: after.length + 1 }, () => ({ weight: 0, index: -1 }));
  const previous: number[] = [];
  const weights: number[] = [];
  kept.forEach((id, i) => {
    const position = positions.get(id)!;
    let best = { weight: 0, index: -1 };
    for (let p = position - 1; p > 0; p -= p & -p) if (tree[p]!.weight > best.weight) best = tree[p]!;
    const untouched = move.before.pages.pages.get(id)!.updatedAt === move.after.pages.pages.get(id)!.updatedAt;
    weights[i] = best.weight + (untouched ? untouchedWeight : 1);
    previous[i] = best.index;
    for (let p = position; p < tree.length; p += p & -p) if (weights[i]! > tree[p]!.weight) tree[p] = { weight: weights[i]!, index: i };
  });
  let last = -1;
  weights.forEach((weight, i) => {
    if (last < 0 || weight > weights[last]!) last = i;
  });
  const inOrder = new Set<string>();
  for (let i = last; i >= 0; i = previous[i]!) inOrder.add(kept[i]!);
  return kept.filter((id) => !inOrder.has(id));
}

/**
 * The pages a move changed. A page `moved` when its parent changed, or when it was placed elsewhere
 * among its siblings; siblings that only shifted because of another page are not listed.
 */
function changedPages(move: SpaceHeadMove): { pages: ChangedPages; truncated: boolean } {
  const pages: ChangedPages = { added: [], edited: [], moved: [], removed: [] };
  let listed = 0;
  let truncated = false;
  const add = (list: EventPage[], tree: PageTree, id: string) => {
    if (listed >= MAX_EVENT_PAGES) return void (truncated = true);
    listed++;
    list.push({ id, title: tree.pages.get(id)!.title, path: pathOf(tree, id) });
  };
  const reorderedParents = new Set(move.pages.flatMap((diff) => (diff.reordered ? [diff.after!.parentId] : [])));
  const reordered = new Set([...reorderedParents].flatMap((parent) => reorderedUnder(move, parent)));
  for (const diff of move.pages) {
    if (!diff.before) add(pages.added, move.after.pages, diff.id);
    else if (!diff.after) add(pages.removed, move.before.pages, diff.id);
    else {
      if (diff.moved || reordered.has(diff.id)) add(pages.moved, move.after.pages, diff.id);
      if (diff.edited && fieldsChanged(diff.before.entry, diff.after.entry)) add(pages.edited, move.after.pages, diff.id);
    }
  }
  return { pages, truncated };
}

export type ContentEventSource = {
  actor: EventActor;
  urls: Urls;
  revisionType: RevisionType;
  /** The merged change request (merge revisions). */
  changeRequestId?: string;
  /** Further events of the same change, recorded with it (an import's `import.finished`). */
  also?: (revisionId: string) => NewEvent[];
};

/** The `space.content-updated` event of a move of the space's head. */
export function contentUpdatedEvent(space: { organizationId: string; id: string }, move: SpaceHeadMove, source: ContentEventSource): NewEvent {
  const { pages, truncated } = changedPages(move);
  return {
    type: 'space.content-updated',
    organizationId: space.organizationId,
    spaceId: space.id,
    actor: source.actor,
    data: {
      revision: move.to,
      previousRevision: move.from,
      revisionType: source.revisionType,
      ...(source.changeRequestId ? { changeRequest: source.changeRequestId } : {}),
      pages,
      truncated,
      urls: { revision: source.urls.api(`/v1/spaces/${space.id}/revisions/${move.to}`), space: source.urls.api(`/v1/spaces/${space.id}`) },
    },
  };
}

/** A head listener recording each move of the space's head (and `source.also`'s events) in its transaction. */
export function recordingContentUpdates(space: { organizationId: string; id: string }, source: ContentEventSource): SpaceHeadListener {
  return (trx, move) => recordEvents(trx, [contentUpdatedEvent(space, move, source), ...(source.also?.(move.to) ?? [])]).then(() => undefined);
}
