// Token lookups, cached per instance: authentication is on every request, and a token rarely
// changes. Correctness comes from invalidation, not from the time limit: a trigger announces every
// change to a token or its user on `cw_token_changes`, each instance listens, and while the listening
// connection is down the cache is bypassed (and emptied), so a revoked token never outlives its
// revocation by more than the notification's delivery.
import pg from 'pg';
import type { TokenCredential } from '../db/repositories/tokens.repository.js';
import type { UserRow } from '../db/repositories/users.repository.js';
import type { Logger } from '../logger.js';

export type CachedToken = { token: TokenCredential; user: UserRow };

const CHANNEL = 'cw_token_changes';

export class TokenCache {
  private readonly entries = new Map<string, { value: CachedToken; cachedAt: number }>();
  /** False while changes cannot be heard: lookups then go to the database. */
  private live = false;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly capacity = 50_000,
  ) {}

  get(hashHex: string): CachedToken | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(hashHex);
    if (!entry) return undefined;
    if (Date.now() - entry.cachedAt > this.ttlMs) {
      this.entries.delete(hashHex);
      return undefined;
    }
    return entry.value;
  }

  set(hashHex: string, value: CachedToken): void {
    if (!this.live) return;
    this.entries.set(hashHex, { value, cachedAt: Date.now() });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Applies a change notification: `t:<hash>` (one token) or `u:<user id>` (every token of the user). */
  invalidate(payload: string): void {
    if (payload.startsWith('t:')) this.entries.delete(payload.slice(2));
    else if (payload.startsWith('u:')) {
      const userId = payload.slice(2);
      for (const [key, entry] of this.entries) if (entry.value.user.id === userId) this.entries.delete(key);
    } else this.entries.clear();
  }

  setLive(live: boolean): void {
    this.live = live;
    if (!live) this.entries.clear();
  }
}

/** Keeps a LISTEN connection open for `cache`, reconnecting after failures, until stopped. */
export async function listenForTokenChanges(connectionString: string, cache: TokenCache, log: Logger): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => cache.invalidate(message.payload ?? ''));
    next.on('error', (error) => log.warn({ err: error }, 'token change listener failed'));
    next.on('end', () => {
      cache.setLive(false);
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
      cache.setLive(true);
    } catch (error) {
      log.warn({ err: error }, 'could not listen for token changes; retrying');
      await next.end().catch(() => {});
    }
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
