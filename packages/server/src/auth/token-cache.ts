// Token lookups, cached per instance: authentication is on every request, and a token rarely
// changes. Correctness comes from invalidation, not from the time limit: a trigger announces every
// change to a token or its user on `cw_token_changes`, each instance listens, and while the listening
// connection is down the cache is bypassed (and emptied), so a revoked token never outlives its
// revocation by more than the notification's delivery. The entries are the server's `tokens` cache
// (caches.ts: bounded in bytes, kept a minute at most).
import pg from 'pg';
import type { Cache } from '../caches.js';
import type { TokenCredential } from './tokens.repository.js';
import type { UserRow } from './users.repository.js';
import { DatabaseAvailability } from '../db/availability.js';
import { databaseAddress } from '../db/unreachable.js';
import type { Logger } from '../logger.js';

export type CachedToken = { token: TokenCredential; user: UserRow };

const CHANNEL = 'cw_token_changes';

export class TokenCache {
  /** False while changes cannot be heard: lookups then go to the database. */
  private live = false;
  /**
   * Moves with every notification and every change of `live`. A lookup stores its result only when
   * the generation did not move while it read the database: a change announced (or missed, while the
   * listener was down) during the read would otherwise be cached over.
   */
  private generationCounter = 0;

  constructor(private readonly entries: Cache<CachedToken>) {}

  /** Read before looking a token up in the database; pass it to `set`. */
  get generation(): number {
    return this.generationCounter;
  }

  get(hashHex: string): CachedToken | undefined {
    return this.live ? this.entries.get(hashHex) : undefined;
  }

  /** Caches a lookup that started at `generation` (see `generation`). */
  set(hashHex: string, value: CachedToken, generation: number): void {
    if (!this.live || generation !== this.generationCounter) return;
    this.entries.set(hashHex, value);
  }

  /** Applies a change notification: `t:<hash>` (one token) or `u:<user id>` (every token of the user). */
  invalidate(payload: string): void {
    this.generationCounter++;
    if (payload.startsWith('t:')) this.entries.delete(payload.slice(2));
    else if (payload.startsWith('u:')) {
      const userId = payload.slice(2);
      for (const key of this.entries.keysWhere((entry) => entry.user.id === userId)) this.entries.delete(key);
    } else this.entries.clear();
  }

  /** Whether changes are heard. Going down or coming back empties the cache: notifications may have been missed. */
  setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    this.generationCounter++;
    this.entries.clear();
  }
}

const RECONNECT_DELAY_MS = { first: 250, max: 5000 };

/**
 * Keeps a LISTEN connection open for `cache` until stopped. When the connection breaks (database
 * restarted, connection terminated, network), the cache is bypassed at once and the connection is made
 * again with a doubling delay; once LISTEN is back, the cache starts again empty.
 */
export async function listenForTokenChanges(
  connectionString: string,
  cache: TokenCache,
  log: Logger,
  /** The server's (an outage is logged once, there); else the listener's own. */
  availability = new DatabaseAvailability(log, databaseAddress(connectionString)),
): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const reconnectLater = () => {
    if (stopped || retry) return;
    const delayMs = Math.min(RECONNECT_DELAY_MS.first * 2 ** failures, RECONNECT_DELAY_MS.max);
    failures++;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delayMs);
  };

  const connect = async () => {
    // keepAlive: a peer that vanished without closing (network cut) is noticed, not waited on forever.
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
    // When the attempt began, then when the connection was made: what a failure is evidence about.
    let since = Date.now();
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      const wasListening = client === next;
      if (wasListening) client = undefined;
      cache.setLive(false);
      if (!stopped) {
        // The database away is the availability's to log, once per outage; anything else is said here.
        const outage = error === undefined || availability.failed(error, 'token listener', since);
        if (!outage) log.warn({ err: error }, 'token change listener lost its connection; the token cache is bypassed until it is back');
        else if (wasListening) log.info('token change listener lost its connection; the token cache is bypassed until it is back');
      }
      next.end().catch(() => {});
      reconnectLater();
    };
    next.on('notification', (message) => cache.invalidate(message.payload ?? ''));
    next.on('error', onLost);
    next.on('end', () => onLost());
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (lost) return;
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    availability.succeeded(since);
    since = Date.now();
    if (failures > 0) log.info({ attempts: failures }, 'token change listener reconnected');
    failures = 0;
    cache.setLive(true);
  };

  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      cache.setLive(false);
      await client?.end().catch(() => {});
    },
  };
}
