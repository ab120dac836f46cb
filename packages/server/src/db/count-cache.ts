// List counts that are expensive to recompute (a count over every space, with access computed per
// row), cached per instance until the organization's `listing_version` moves. Every instance reads the
// version from the database with the request, so a cached count is never staler than that version.
import type { CacheStats } from '../metrics.js';

export class CountCache {
  private readonly entries = new Map<string, { version: number; count: number }>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly capacity = 10_000) {}

  async get(key: string, version: number, compute: () => Promise<number>): Promise<number> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.hits++;
      return hit.count;
    }
    this.misses++;
    const count = await compute();
    this.entries.delete(key);
    this.entries.set(key, { version, count });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return count;
  }

  /** For the metrics (`cache_*{cache="counts"}`). */
  stats(): CacheStats {
    return { entries: this.entries.size, hits: this.hits, misses: this.misses };
  }
}
