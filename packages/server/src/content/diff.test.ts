import { describe, expect, it } from 'vitest';
import { applyChanges, type ContentChange } from './apply-changes.js';
import { diffFlatTrees, diffPageTrees } from './diff.js';
import { EMPTY_PAGE_TREE, emptyFlatTree, type ContentState } from './model.js';

const EMPTY: ContentState = { pages: EMPTY_PAGE_TREE, files: emptyFlatTree(), reusables: emptyFlatTree() };

function apply(base: ContentState, changes: ContentChange[], prefix = 'id') {
  let n = 0;
  return applyChanges(base, changes, { now: '2026-01-01T00:00:00.000Z', files: new Map(), newId: () => `${prefix}${++n}` }).state;
}

const summary = (before: ContentState, after: ContentState) =>
  diffPageTrees(before.pages, after.pages)
    .map((d) => `${d.id}:${!d.before ? 'created' : !d.after ? 'deleted' : [d.moved && 'moved', d.edited && 'edited', d.reordered && 'reordered'].filter(Boolean).join('+')}`)
    .sort();

describe('diffPageTrees', () => {
  const base = apply(EMPTY, [
    { type: 'insert_page', title: 'A', ref: 'a' },
    { type: 'insert_page', title: 'A1', parent: { ref: 'a' } },
    { type: 'insert_page', title: 'A2', parent: { ref: 'a' } },
    { type: 'insert_page', title: 'B' },
    { type: 'insert_page', title: 'B1', parent: 'id4' },
  ]);

  it('is empty for equal roots', () => {
    expect(diffPageTrees(base.pages, base.pages)).toEqual([]);
  });

  it('classifies created, deleted, moved, edited and reordered pages', () => {
    expect(summary(base, apply(base, [{ type: 'insert_page', title: 'New', parent: 'id1' }], 'n'))).toEqual(['n1:created']);
    expect(summary(base, apply(base, [{ type: 'insert_page', title: 'First', parent: 'id1', index: 0 }], 'n'))).toEqual(['id2:reordered', 'id3:reordered', 'n1:created']);
    expect(summary(base, apply(base, [{ type: 'delete_page', page: 'id1' }]))).toEqual(['id1:deleted', 'id2:deleted', 'id3:deleted', 'id4:reordered']);
    expect(summary(base, apply(base, [{ type: 'update_page', page: 'id5', parent: 'id1', index: 0 }]))).toEqual(['id2:reordered', 'id3:reordered', 'id5:moved']);
    expect(summary(base, apply(base, [{ type: 'update_page', page: 'id3', title: 'A2 edited' }]))).toEqual(['id3:edited']);
    expect(summary(base, apply(base, [{ type: 'update_page', page: 'id3', index: 0 }]))).toEqual(['id2:reordered', 'id3:reordered']);
  });

  it('does not report a page whose only change is below it', () => {
    const after = apply(base, [{ type: 'update_page', page: 'id2', markdown: 'body' }]);
    expect(summary(base, after)).toEqual(['id2:edited']);
  });
});

describe('diffFlatTrees', () => {
  it('reports created, changed and deleted entries', () => {
    const before = apply(EMPTY, [
      { type: 'upsert_reusable_content', title: 'One', markdown: '1' },
      { type: 'upsert_reusable_content', title: 'Two', markdown: '2' },
    ]);
    const after = apply(before, [
      { type: 'upsert_reusable_content', reusableContent: 'id1', title: 'One!', markdown: '1' },
      { type: 'delete_reusable_content', reusableContent: 'id2' },
      { type: 'upsert_reusable_content', title: 'Three', markdown: '3' },
    ], 'n');
    const diffs = diffFlatTrees(before.reusables, after.reusables).map((d) => [d.id, d.before?.title ?? null, d.after?.title ?? null]);
    expect(diffs.sort()).toEqual([['id1', 'One', 'One!'], ['id2', 'Two', null], ['n1', null, 'Three']]);
  });
});
