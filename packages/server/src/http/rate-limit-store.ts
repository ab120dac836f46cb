// Request counters shared by every instance on one database: rate-limiter-flexible's PostgreSQL store
// (table `rate_limits`, on the app's pool), behind an in-memory front so that a request in the steady
// state costs no database round trip.
//
// The store keeps a fixed window per key: it starts at the key's first hit and lasts `windowMs`. Each
// instance keeps, per key, `known` (the store's count when it last heard it), `pending` (hits it admitted
// and has not written yet) and `sending` (hits in a write not yet answered); its estimate of the count is
// known + sending + pending. A hit is decided:
// - at the store, synchronously, when the instance knows no current window for the key (its first hit in a
//   window; concurrent first hits on one instance share that round trip);
// - locally, refused, when the estimate is at the limit: a flood over its limit costs no database work;
// - locally, admitted, when at least `slack` hits stay left after it and fewer than `slack` of this
//   instance's hits are unwritten;
// - at the store, synchronously (this hit and the pending ones in one write), otherwise: near the limit,
//   every decision is exact against what every instance has written.
// Pending hits are written in the background by `flush` (every half second: one statement for every key,
// which also tells the instance each key's current count).
//
// Bound: an instance admits locally only while fewer than `slack` of its hits are unwritten, and once a
// write shows the count near the limit it decides at the store. So a decision at the store misses at most
// `slack` hits of each other instance, and an instance working from an older count admits at most
// `slack` more before a write corrects it: a window admits at most limit + 2 × slack × instances, in
// practice about limit + slack × (instances − 1). `slack` is 2.5% of the limit (at least 1).
//
// When the store fails, the instance counts alone (each instance enforces the whole limit by itself) and
// tries the store again after `retryMs`; unwritten hits are kept and written then.
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Database } from '../db/database.js';
import { addRateLimitHits } from './rate-limits.repository.js';
import type { Logger } from '../logger.js';

export type Decision = {
  allowed: boolean;
  limit: number;
  /** Hits left in the window after this one (0 when refused). */
  remaining: number;
  /** When the window ends, epoch milliseconds. */
  resetAt: number;
};

type Window = {
  known: number;
  /** Below zero after a refund of a hit already written. */
  pending: number;
  sending: number;
  resetAt: number;
  /** The store round trip that opens this window, while it runs. */
  opening?: Promise<void>;
};

/** Keys an instance tracks at most (a key is a token or a client address); the oldest go first. */
const MAX_KEYS = 200_000;
const TABLE = 'rate_limits';

export class SharedCounter {
  private readonly windows = new Map<string, Window>();
  private readonly store: RateLimiterPostgres;
  private readonly slack: number;
  private readonly tolerance: number;
  private storeDownUntil = 0;
  private flushing?: Promise<void>;

  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly db: Database,
    pool: pg.Pool,
    private readonly log: Logger,
    private readonly retryMs = 2_000,
  ) {
    this.store = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: TABLE,
      tableCreated: true, // by the migration
      clearExpiredByTimeout: false, // RateLimits deletes ended windows, and stops with the server
      keyPrefix: name,
      points: limit,
      duration: windowMs / 1000,
    } as ConstructorParameters<typeof RateLimiterPostgres>[0]);
    this.slack = Math.max(1, Math.floor(limit / 40));
    // Two answers for one window differ by their latency: within this, they are the same window.
    this.tolerance = Math.min(1_000, windowMs / 2);
  }

  /** Counts one hit on `key` and decides it: at once when the front can, else after a store round trip. */
  hit(key: string): Decision | Promise<Decision> {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || now >= window.resetAt) return this.open(key, now);
    if (window.opening) return window.opening.then(() => this.hit(key));
    const used = window.known + window.sending + window.pending;
    if (used >= this.limit) return this.decision(false, window);
    const local = this.limit - used - 1 >= this.slack && window.sending + window.pending < this.slack;
    if (local || now < this.storeDownUntil) {
      window.pending++;
      return this.decision(true, window);
    }
    return this.writeAndDecide(key, window);
  }

  /**
   * Takes back one hit `hit` admitted (a charge that turned out not to apply). When the hit was written
   * already, pending goes below zero, and the next flush takes it back from the store.
   */
  refund(key: string): void {
    const window = this.windows.get(key);
    if (window) window.pending--;
  }

  /** Writes every key's pending hits in one statement, and forgets windows that have ended. */
  flush(): Promise<void> {
    // One flush at a time: a slow database must not pile them up.
    this.flushing ??= this.writePending().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    const now = Date.now();
    if (now < this.storeDownUntil) return;
    const writing = new Map<string, { window: Window; points: number }>();
    for (const [key, window] of this.windows) {
      if (now >= window.resetAt) {
        // Pending hits of an ended window would charge the next one: dropped with the window.
        if (now >= window.resetAt + this.tolerance && window.sending === 0 && !window.opening) this.windows.delete(key);
        continue;
      }
      if (window.pending === 0) continue;
      writing.set(`${this.name}:${key}`, { window, points: window.pending });
      window.sending += window.pending;
      window.pending = 0;
    }
    if (!writing.size) return;
    const entries = [...writing.values()];
    try {
      const rows = await addRateLimitHits(this.db, { keys: [...writing.keys()], points: entries.map((entry) => entry.points) }, this.windowMs);
      for (const entry of entries) entry.window.sending -= entry.points;
      for (const row of rows) this.learn(writing.get(row.key)!.window, { count: row.points, resetAt: row.expire });
    } catch (error) {
      this.storeFailed(error);
      for (const entry of entries) {
        entry.window.sending -= entry.points;
        entry.window.pending += entry.points;
      }
    }
  }

  /** The first hit of a window: decided by the store, which starts the window. */
  private open(key: string, now: number): Decision | Promise<Decision> {
    if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
    const window: Window = { known: 0, pending: 0, sending: 1, resetAt: now + this.windowMs };
    this.windows.delete(key); // re-inserted last: the map's order is the eviction order
    this.windows.set(key, window);
    if (now < this.storeDownUntil) {
      // The store failed a moment ago: counted here, without waiting for it to fail again.
      window.sending = 0;
      window.pending = 1;
      return this.decision(true, window);
    }
    let allowed = true;
    window.opening = this.penalty(key, 1).then(
      (result) => {
        window.sending -= 1;
        window.known = result.count;
        window.resetAt = result.resetAt;
        allowed = result.count <= this.limit;
      },
      () => {
        // The store is unreachable: this instance counts alone until it answers again.
        window.sending -= 1;
        window.pending += 1;
      },
    );
    return window.opening.then(() => {
      window.opening = undefined;
      return this.decision(allowed, window);
    });
  }

  /** Near the limit: this hit and the pending ones in one write; the store's count decides. */
  private async writeAndDecide(key: string, window: Window): Promise<Decision> {
    const points = window.pending + 1;
    window.pending = 0;
    window.sending += points;
    try {
      const result = await this.penalty(key, points);
      window.sending -= points;
      this.learn(window, result);
      return this.decision(result.count <= this.limit, window);
    } catch {
      window.sending -= points;
      window.pending += points;
      return this.decision(window.known + window.pending <= this.limit, window);
    }
  }

  private async penalty(key: string, points: number): Promise<{ count: number; resetAt: number }> {
    try {
      const result = await this.store.penalty(key, points);
      return { count: result.consumedPoints, resetAt: Date.now() + result.msBeforeNext };
    } catch (error) {
      this.storeFailed(error);
      throw error;
    }
  }

  private storeFailed(error: unknown): void {
    if (Date.now() >= this.storeDownUntil) this.log.warn({ err: error, limiter: this.name }, 'rate limit store unavailable; counting in this instance only');
    this.storeDownUntil = Date.now() + this.retryMs;
  }

  /** Counts only grow within a window; a later window (the store started a new one) replaces it. */
  private learn(window: Window, result: { count: number; resetAt: number }): void {
    if (result.resetAt > window.resetAt + this.tolerance) {
      window.known = result.count;
      window.resetAt = result.resetAt;
    } else window.known = Math.max(window.known, result.count);
  }

  private decision(allowed: boolean, window: Window): Decision {
    const used = window.known + window.sending + window.pending;
    return { allowed, limit: this.limit, remaining: allowed ? Math.max(0, this.limit - used) : 0, resetAt: window.resetAt };
  }
}
