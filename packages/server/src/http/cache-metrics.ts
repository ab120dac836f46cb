// The in-memory caches on /metrics (caches.ts): each cache's bytes, budget and entries now, and its
// hits and misses since the server started, labelled by the cache's name. Read at each scrape from the
// caches themselves, so nothing is counted twice and a cache costs its requests nothing extra.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { NamedCache } from '../caches.js';

/** Registers the gauges and counters of `caches` on `registry`. */
export function registerCacheMetrics(registry: Registry, caches: readonly NamedCache[]): void {
  const gauge = (name: string, help: string, read: (cache: NamedCache) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['cache'],
      registers: [registry],
      collect() {
        for (const cache of caches) this.set({ cache: cache.name }, read(cache));
      },
    });
  const counter = (name: string, help: string, read: (cache: NamedCache) => number) =>
    new Counter({
      name,
      help,
      labelNames: ['cache'],
      registers: [registry],
      collect() {
        // The caches count; the counter shows their totals (never decreasing: they only grow).
        this.reset();
        for (const cache of caches) this.inc({ cache: cache.name }, read(cache));
      },
    });
  gauge('cw_cache_bytes', 'Bytes an in-memory cache holds (estimated when each entry is stored)', (cache) => cache.stats().bytes);
  gauge('cw_cache_max_bytes', 'Bytes an in-memory cache may hold (its share of CACHE_MEMORY_MB)', (cache) => cache.stats().maxBytes);
  gauge('cw_cache_entries', 'Entries an in-memory cache holds', (cache) => cache.stats().entries);
  counter('cw_cache_hits_total', 'Lookups an in-memory cache answered', (cache) => cache.stats().hits);
  counter('cw_cache_misses_total', 'Lookups an in-memory cache did not answer', (cache) => cache.stats().misses);
}
