// A small least-recently-used cache bounded by entries and by total weight (bytes, for rendered pages and
// document bodies), sharing one load among concurrent callers of the same key. In memory, per process:
// what it holds is keyed by immutable things (revisions, tree and content hashes), so it never serves a
// stale value.
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private weight = 0;

  constructor(private readonly limits: { maxEntries: number; maxWeight?: number }) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, weight = 1): void {
    const old = this.entries.get(key);
    if (old) {
      this.weight -= old.weight;
      this.entries.delete(key);
    }
    // Something larger than the whole budget is not kept at all.
    if (this.limits.maxWeight !== undefined && weight > this.limits.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && (this.limits.maxWeight === undefined || this.weight <= this.limits.maxWeight)) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.weight -= old.weight;
    this.entries.delete(key);
  }

  async getOrLoad(key: string, load: () => Promise<{ value: V; weight: number }>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      ({ value, weight }) => {
        this.loading.delete(key);
        this.set(key, value, weight);
        return value;
      },
      (error: unknown) => {
        this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }
}
