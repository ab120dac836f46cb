// A space's model as a site shows it (space-model.ts): paths, navigation, reading order, and a large
// tree modelled in slices that let other work run between them.
import { describe, expect, it } from 'vitest';
import type { PageEntry, PageTree, ParentId } from '../../../content/model.js';
import { buildModel, MODEL_SLICE_PAGES } from './space-model.js';

type Spec = { id: string; parent?: string; type?: PageEntry['type']; hidden?: boolean };

/** A tree from pages listed in order (children in the order given); slugs are the ids. */
function treeOf(specs: Spec[]): PageTree {
  const pages = new Map<string, PageEntry>();
  const parentOf = new Map<string, ParentId>();
  const childrenOf = new Map<ParentId, string[]>();
  for (const { id, parent = null, type = 'document', hidden = false } of specs) {
    pages.set(id, { id, type, title: id, slug: id, hidden, noIndex: false, noRobotsIndex: false, createdAt: '', updatedAt: '', documentHash: null, childrenHash: null });
    parentOf.set(id, parent);
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), id]);
  }
  return { rootHash: 'root', pages, parentOf, childrenOf, chunksOf: new Map() };
}

describe('space model', () => {
  it('paths of every page, navigation and reading order without hidden pages and what is under them', async () => {
    // A child listed before its parent takes the path the walk up gives it.
    const model = await buildModel(
      treeOf([
        { id: 'early', parent: 'guide' },
        { id: 'intro' },
        { id: 'guide', type: 'group' },
        { id: 'install', parent: 'guide' },
        { id: 'linux', parent: 'install' },
        { id: 'secret', hidden: true },
        { id: 'under-secret', parent: 'secret' },
        { id: 'faq' },
      ]),
    );
    expect(Object.fromEntries(model.pathById)).toEqual({
      early: 'guide/early',
      intro: 'intro',
      guide: 'guide',
      install: 'guide/install',
      linux: 'guide/install/linux',
      secret: 'secret',
      'under-secret': 'secret/under-secret',
      faq: 'faq',
    });
    expect(model.idByPath.get('guide/install/linux')).toBe('linux');
    expect(Object.fromEntries(model.navChildren)).toEqual({ null: ['intro', 'guide', 'faq'], guide: ['early', 'install'], install: ['linux'] });
    // Documents only (the group is not read), depth first.
    expect(model.readingOrder).toEqual(['intro', 'early', 'install', 'linux', 'faq']);
    expect(model.readingIndex.get('linux')).toBe(3);
    expect(model.firstPage).toBe('intro');
  });

  it('a large tree is modelled in slices: other callbacks run while it is built', async () => {
    const specs: Spec[] = [];
    for (let top = 0; top < 10; top++) {
      specs.push({ id: `t${top}` });
      for (let child = 0; child < MODEL_SLICE_PAGES / 2; child++) specs.push({ id: `c${top}-${child}`, parent: `t${top}` });
    }
    // A callback queued before the build runs only if the build gives the event loop a turn.
    let ran = false;
    setImmediate(() => (ran = true));
    const model = await buildModel(treeOf(specs));
    expect(model.readingOrder).toHaveLength(specs.length);
    expect(ran).toBe(true);
  });
});
