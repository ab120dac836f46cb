// List counts that are expensive to recompute (a count over every space, with access computed per
// row), cached per instance until the organization's `listing_version` moves. Every instance reads the
// version from the database with the request, so a cached count is never staler than that version.
// The entries are the server's `counts` cache (caches.ts).
import type { Cache } from '../caches.js';

export type CountEntry = { version: number; count: number };

export class CountCache {
  constructor(private readonly entries: Cache<CountEntry>) {}

  async get(key: string, version: number, compute: () => Promise<number>): Promise<number> {
    // A count of another listing version is a miss (the cache counts it as one).
    const hit = this.entries.get(key, (entry) => entry.version === version);
    if (hit) return hit.count;
    const count = await compute();
    this.entries.set(key, { version, count });
    return count;
  }
}
