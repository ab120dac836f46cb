// Request counters shared by every instance on one database: rate-limiter-flexible's PostgreSQL store
// (table `rate_limits`, on the app's pool), behind an in-memory front so that a request in the steady
// state costs no database round trip.
//
// The store keeps a fixed window per key: it starts at the key's first hit and lasts `windowMs`. Each
// instance keeps, per key, `known` (the store's count when it last heard it), `pending` (hits it admitted
// and has not written yet) and `sending` (hits in a write not yet answered); its estimate of the count is
// known + sending + pending. A hit is decided:
// - locally, refused, when the estimate is at the limit: a flood over its limit costs no database work;
// - locally, admitted, when at least `slack` hits stay left after it and fewer than `slack` of this
//   instance's hits are unwritten. The first hit of a window is one of these: the instance opens the
//   window with a count of 0 and hears the store's count (and the window's real end) at its next write,
//   so a key seen again after a pause costs no round trip;
// - at the store, synchronously (this hit and the pending ones in one write), otherwise: near the limit,
//   every decision is exact against what every instance has written.
// Pending hits are written in the background (one statement for every key due, which also tells the
// instance each key's current count), every half second for a key whose window the store has not
// confirmed yet or that has half its slack unwritten, and at least every WRITE_EVERY_MS otherwise: a
// quiet key costs the database one row write every few seconds rather than two a second (a write of a
// thousand keys twice a second slowed the requests' own queries).
//
// Bound: an instance admits locally only while fewer than `slack` of its hits are unwritten, and once a
// write shows the count near the limit it decides at the store. So a decision at the store misses at most
// `slack` hits of each other instance, and an instance working from an older count (or none yet, in a
// window it has just opened) admits at most `slack` more before a write corrects it: a window admits at
// most limit + 2 × slack × instances, in practice about limit + slack × (instances − 1). `slack` is 2.5%
// of the limit (at least 1).
//
// When the store fails, the instance counts alone (each instance enforces the whole limit by itself) and
// tries the store again after `retryMs`; unwritten hits are kept and written then.
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Database } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
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
  pending: number;
  sending: number;
  resetAt: number;
  /** Whether the store answered for this window yet: until then `known` and `resetAt` are this instance's guess. */
  heard: boolean;
  /** When this instance's hits in the window were last written (0: never). */
  writtenAt: number;
};

/** The longest a key's admitted hits wait to be written (see the background write above). */
const WRITE_EVERY_MS = 5_000;

/** Keys an instance tracks at most (a key is a token or a client address); the oldest go first. */
const MAX_KEYS = 200_000;
const TABLE = 'rate_limits';

export class SharedCounter {
  private readonly windows = new Map<string, Window>();
  private readonly store: RateLimiterPostgres;
  private readonly slack: number;
  /** Unwritten hits of a key that make it due at the next background write (half the slack). */
  private readonly writeAt: number;
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
    this.writeAt = Math.ceil(this.slack / 2);
    // Two answers for one window differ by their latency: within this, they are the same window.
    this.tolerance = Math.min(1_000, windowMs / 2);
  }

  /** Counts one hit on `key` and decides it: at once when the front can, else after a store round trip. */
  hit(key: string): Decision | Promise<Decision> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || now >= window.resetAt) window = this.open(key, now);
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
   * The refusal `hit` would answer now, without counting a hit; undefined when it would not refuse at
   * once. For a check that must come before costly work, when the hit itself is counted later.
   */
  refusal(key: string): Decision | undefined {
    const window = this.windows.get(key);
    if (!window || Date.now() >= window.resetAt) return undefined;
    return window.known + window.sending + window.pending >= this.limit ? this.decision(false, window) : undefined;
  }

  /**
   * The background write: every key's pending hits in one statement, and windows that have ended
   * forgotten. One at a time: while one runs, a slow database must not pile more up.
   */
  flushInBackground(): Promise<void> {
    this.flushing ??= this.writePending(false).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Writes every hit pending now (shutdown; tests), after the write that runs, which may not include them. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.writePending(true).finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  /** Writes the pending hits of the keys due (see the background write above), or of all when `all`. */
  private async writePending(all: boolean): Promise<void> {
    const now = Date.now();
    if (now < this.storeDownUntil) return;
    const writing = new Map<string, { window: Window; points: number }>();
    for (const [key, window] of this.windows) {
      if (now >= window.resetAt) {
        // Pending hits of an ended window would charge the next one: dropped with the window.
        if (now >= window.resetAt + this.tolerance && window.sending === 0) this.windows.delete(key);
        continue;
      }
      if (window.pending === 0) continue;
      const due = all || !window.heard || window.pending >= this.writeAt || now - window.writtenAt >= WRITE_EVERY_MS;
      if (!due) continue;
      writing.set(`${this.name}:${key}`, { window, points: window.pending });
      window.sending += window.pending;
      window.pending = 0;
    }
    if (!writing.size) return;
    const entries = [...writing.values()];
    try {
      const rows = await addRateLimitHits(this.db, { keys: [...writing.keys()], points: entries.map((entry) => entry.points) }, this.windowMs);
      for (const entry of entries) {
        entry.window.sending -= entry.points;
        entry.window.writtenAt = now;
      }
      for (const row of rows) {
        const { window } = writing.get(row.key)!;
        // A row without an end (none of ours; the column allows it) keeps the window's own.
        this.learn(window, { count: row.points, resetAt: row.expire ?? window.resetAt });
      }
    } catch (error) {
      this.storeFailed(error);
      for (const entry of entries) {
        entry.window.sending -= entry.points;
        entry.window.pending += entry.points;
      }
    }
  }

  /** A new window for `key`, opened here: the store's count and end come with the next write. */
  private open(key: string, now: number): Window {
    if (this.windows.size >= MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
    const window: Window = { known: 0, pending: 0, sending: 0, resetAt: now + this.windowMs, heard: false, writtenAt: 0 };
    this.windows.delete(key); // re-inserted last: the map's order is the eviction order
    this.windows.set(key, window);
    return window;
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
    if (Date.now() >= this.storeDownUntil) {
      // The database away is logged once per outage by the pool's availability (db/availability.ts).
      if (isDatabaseUnavailable(error)) this.log.debug({ limiter: this.name }, 'rate limit store unavailable; counting in this instance only');
      else this.log.warn({ err: error, limiter: this.name }, 'rate limit store unavailable; counting in this instance only');
    }
    this.storeDownUntil = Date.now() + this.retryMs;
  }

  /**
   * The store's first answer for a window replaces the guess it was opened with. After that, counts only
   * grow within a window, and a later window (the store started a new one) replaces it.
   */
  private learn(window: Window, result: { count: number; resetAt: number }): void {
    if (!window.heard || result.resetAt > window.resetAt + this.tolerance) {
      window.heard = true;
      window.known = result.count;
      window.resetAt = result.resetAt;
    } else window.known = Math.max(window.known, result.count);
  }

  private decision(allowed: boolean, window: Window): Decision {
    const used = window.known + window.sending + window.pending;
    return { allowed, limit: this.limit, remaining: allowed ? Math.max(0, this.limit - used) : 0, resetAt: window.resetAt };
  }
}
