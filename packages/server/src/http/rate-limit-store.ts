// Request counters shared by every instance on one database: rate-limiter-flexible's PostgreSQL store
// (table `rate_limits`, on the app's pool), behind an in-memory front so that a request in the steady
// state costs no database round trip.
//
// The store keeps a fixed window per key: it starts at the key's first hit and lasts `windowMs`. Each
// instance keeps, per key, `known` (the store's count when it last heard it), `pending` (hits it admitted
// and has not written yet) and `sending` (hits in a write not yet answered); its estimate of the count is
// known + sending + pending. A hit is decided:
// - at the store, synchronously, when the instance knows no current window for the key (its first hit in a
//   window: concurrent first hits on one instance share that round trip);
// - locally, refused, when the estimate is at the limit: a flood over its limit costs no database work;
// - locally, admitted, when more than `slack` hits stay left after it and fewer than `slack` of this
//   instance's hits are unwritten. Pending hits are written in the background (`penalty`, which adds
//   them and answers the new count): when they reach half the slack, or `writeAfterMs` after the first of them;
// - at the store, synchronously (this hit and the pending ones in one write), otherwise: near the limit,
//   every decision is exact against what every instance has written.
//
// Bound: an instance admits locally only while its own unwritten hits stay below `slack`, and after the
// count nears the limit it decides at the store as soon as a write tells it so. Another instance deciding
// at the store misses at most the unwritten hits of the others, so a window admits at most about
// limit + instances × slack (2 × slack per instance when a background write races the crossing).
// `slack` is 2.5% of the limit (at least 1): two instances stay within ~5% of the limit.
//
// When the store fails, the instance counts alone (each instance enforces the whole limit by itself) and
// tries the store again after `retryMs`; unwritten hits are kept and written then.
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Database } from '../db/database.js';
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
  pending: number;
  sending: number;
  resetAt: number;
  /** When the oldest pending hit was admitted (0: none pending). */
  pendingSince: number;
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

  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
    pool: pg.Pool,
    private readonly log: Logger,
    private readonly writeAfterMs: number,
    private readonly retryMs = 2_000,
  ) {
    this.store = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: TABLE,
      tableCreated: true, // by the migration
      clearExpiredByTimeout: false, // RateLimits.sweep does it, and stops with the server
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
    const unwritten = window.sending + window.pending;
    if (now < this.storeDownUntil || (this.limit - used - 1 >= this.slack && unwritten < this.slack)) {
      if (window.pending++ === 0) window.pendingSince = now;
      if (window.pending * 2 >= this.slack && window.sending === 0 && now >= this.storeDownUntil) void this.write(key, window);
      return this.decision(true, window);
    }
    return this.writeAndDecide(key, window);
  }

  /**
   * Takes back one hit `hit` admitted (a charge that turned out not to apply). When the hit was written
   * already, pending goes below zero, and the next write takes it back from the store.
   */
  refund(key: string): void {
    const window = this.windows.get(key);
    if (!window) return;
    if (window.pending-- === 0) window.pendingSince = Date.now();
  }

  /**
   * Background work (every second or so): writes pending hits older than `writeAfterMs`, forgets ended windows.
   * With `all`, writes every pending hit (before shutting down).
   */
  async sync(all = false): Promise<void> {
    const now = Date.now();
    const writes: Array<Promise<void>> = [];
    for (const [key, window] of this.windows) {
      if (now >= window.resetAt + this.tolerance && window.sending === 0 && !window.opening) {
        this.windows.delete(key);
        continue;
      }
      const due = all || now - window.pendingSince >= this.writeAfterMs;
      if (window.pending !== 0 && window.sending === 0 && due && now >= this.storeDownUntil) writes.push(this.write(key, window));
    }
    await Promise.all(writes);
  }

  /** The first hit of a window: decided by the store, which starts the window. */
  private open(key: string, now: number): Promise<Decision> {
    if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
    const window: Window = { known: 0, pending: 0, sending: 1, resetAt: now + this.windowMs, pendingSince: 0 };
    this.windows.delete(key); // re-inserted last: the map's order is the eviction order
    this.windows.set(key, window);
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
        window.pendingSince = now;
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
    window.pendingSince = 0;
    window.sending += points;
    try {
      const result = await this.penalty(key, points);
      window.sending -= points;
      this.learn(window, result);
      return this.decision(result.count <= this.limit, window);
    } catch {
      window.sending -= points;
      window.pending += points;
      window.pendingSince ||= Date.now();
      return this.decision(window.known + window.pending <= this.limit, window);
    }
  }

  /** Writes the pending hits in the background; they stay pending when the store fails. */
  private async write(key: string, window: Window): Promise<void> {
    const points = window.pending;
    if (points === 0) return;
    if (Date.now() >= window.resetAt) {
      // Their window has ended: writing them now would charge the next one.
      window.pending = 0;
      return;
    }
    window.pending = 0;
    window.pendingSince = 0;
    window.sending += points;
    try {
      const result = await this.penalty(key, points);
      this.learn(window, result);
    } catch {
      window.pending += points;
      window.pendingSince ||= Date.now();
    } finally {
      window.sending -= points;
    }
  }

  private async penalty(key: string, points: number): Promise<{ count: number; resetAt: number }> {
    try {
      const result = await this.store.penalty(key, points);
      return { count: result.consumedPoints, resetAt: Date.now() + result.msBeforeNext };
    } catch (error) {
      if (Date.now() >= this.storeDownUntil) this.log.warn({ err: error, limiter: this.name }, 'rate limit store unavailable; counting in this instance only');
      this.storeDownUntil = Date.now() + this.retryMs;
      throw error;
    }
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

/** Deletes store rows whose window ended more than `olderThanMs` ago (every instance may run it). */
export async function deleteEndedWindows(db: Database, olderThanMs: number): Promise<void> {
  await db.deleteFrom('rateLimits').where('expire', '<', Date.now() - olderThanMs).execute();
}
