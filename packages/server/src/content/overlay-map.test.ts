import { describe, expect, it } from 'vitest';
import { type OverlayMap, overlay } from './overlay-map.js';

describe('OverlayMap', () => {
  it('reads through to the base, keeps writes and deletes in its layer, and counts', () => {
    const base = new Map([['a', 1], ['b', 2]]);
    const top = overlay(base);
    top.set('c', 3).set('a', 10);
    expect(top.delete('b')).toBe(true);
    expect(top.delete('missing')).toBe(false);
    expect([top.get('a'), top.get('b'), top.get('c'), top.has('b'), top.size]).toEqual([10, undefined, 3, false, 2]);
    expect(base).toEqual(new Map([['a', 1], ['b', 2]]));
    expect(new Map(top)).toEqual(new Map([['a', 10], ['c', 3]]));
    top.set('b', 20);
    expect([top.get('b'), top.size]).toEqual([20, 3]);
  });

  it('stacks layers, iterates the merged view and flattens deep chains', () => {
    let map: ReadonlyMap<string, number> = new Map([['k0', 0]]);
    for (let i = 1; i <= 40; i++) {
      const layer = overlay(map);
      layer.set(`k${i}`, i);
      if (i % 2 === 0) layer.delete(`k${i - 1}`);
      map = layer;
    }
    expect((map as OverlayMap<string, number>).depth).toBeLessThanOrEqual(16);
    const expected = new Map([['k0', 0], ...Array.from({ length: 20 }, (_, j) => [`k${2 * (j + 1)}`, 2 * (j + 1)] as [string, number])]);
    expect(new Map(map)).toEqual(expected);
    expect(map.size).toBe(expected.size);
    expect((map as OverlayMap<string, number>).flatten()).toEqual(expected);
  });
});
