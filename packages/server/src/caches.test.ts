// The caches' own rules (caches.ts): bounded in bytes, least recently used out first, a value larger
// than the budget never stored, one load shared by concurrent callers, hits and misses counted, and
// budgets scaled to CACHE_MEMORY_MB.
import { describe, expect, it } from 'vitest';
import { Cache, CACHE_BUDGETS, createCaches, DEFAULT_CACHE_MEMORY_BYTES } from './caches.js';

const textCache = (maxBytes: number) => new Cache<string>('test', maxBytes, (value) => value.length);

describe('Cache', () => {
  it('holds at most its bytes, letting the least recently used entries go first', () => {
    const cache = textCache(100);
    cache.set('a', 'x'.repeat(40));
    cache.set('b', 'x'.repeat(40));
    expect(cache.get('a')).toBeDefined(); // a is now more recent than b
    cache.set('c', 'x'.repeat(40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 80, maxBytes: 100 });
  });

  it('does not store a value larger than its whole budget', () => {
    const cache = textCache(100);
    cache.set('small', 'x');
    cache.set('huge', 'x'.repeat(101));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBe('x');
  });

  it('answers nothing for a value its reader cannot use (an older version), and counts it a miss', () => {
    const cache = textCache(100);
    cache.set('k', 'v1');
    expect(cache.get('k', (value) => value === 'v2')).toBeUndefined();
    expect(cache.get('k', (value) => value === 'v1')).toBe('v1');
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
  });

  it('shares one load among concurrent callers of a key, and counts hits and misses', async () => {
    const cache = textCache(1000);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return 'loaded';
    };
    expect(await Promise.all([cache.load('k', load), cache.load('k', load), cache.load('k', load)])).toEqual(['loaded', 'loaded', 'loaded']);
    expect(await cache.load('k', load)).toBe('loaded');
    expect(loads).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 3, misses: 1 });
  });

  it('does not keep a failed load', async () => {
    const cache = textCache(1000);
    await expect(cache.load('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.load('k', async () => 'back')).toBe('back');
  });
});

describe('createCaches', () => {
  it('keeps the site model of a 100,000-page space at the default budget (its tree is counted by `trees`)', () => {
    const caches = createCaches();
    const model = { tree: { pages: { size: 100_000 } } } as unknown as Parameters<typeof caches.siteModels.set>[1];
    caches.siteModels.set('organization:root', model);
    expect(caches.siteModels.get('organization:root')).toBe(model);
  });

  it('builds every named cache, each with its share of the total', () => {
    const caches = createCaches(DEFAULT_CACHE_MEMORY_BYTES / 4);
    expect(Object.keys(caches).sort()).toEqual(Object.keys(CACHE_BUDGETS).sort());
    expect(caches.trees.stats().maxBytes).toBe(CACHE_BUDGETS.trees / 4);
    const total = Object.values(caches).reduce((sum, cache) => sum + cache.stats().maxBytes, 0);
    expect(total).toBeLessThanOrEqual(DEFAULT_CACHE_MEMORY_BYTES / 4 + Object.keys(caches).length * 64 * 1024);
  });

  it('gives each server its own caches', () => {
    const one = createCaches();
    const two = createCaches();
    one.sitePages.set('page', '<html>');
    expect(two.sitePages.get('page')).toBeUndefined();
  });
});
