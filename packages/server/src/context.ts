// Everything a handler may use, built once at start-up (main.ts or the test harness).
import type { Lifecycle } from './areas/lifecycle.js';
import type { SiteInsights } from './areas/sites/index.js';
import type { Caches } from './caches.js';
import type { Config } from './config.js';
import type { BlobStore } from './content/blob-store.js';
import type { CountCache } from './db/count-cache.js';
import type { Database } from './db/database.js';
import type { CursorCodec } from './db/cursor.js';
import type { RateLimits } from './http/rate-limit.js';
import type { Jobs } from './jobs/queue.js';
import type { TokenCache } from './auth/token-cache.js';
import type { Logger } from './logger.js';
import type { ParsePool } from './parsing/parse-pool.js';
import type { Metrics } from './metrics.js';
import type { ServerKeys } from './keys.js';
import type { Urls } from './urls.js';

export type AppContext = {
  config: Config;
  db: Database;
  log: Logger;
  keys: ServerKeys;
  cursors: CursorCodec;
  /** Cached list counts (see db/count-cache.ts). */
  counts: CountCache;
  urls: Urls;
  /** Cached token lookups (see auth/token-cache.ts). */
  tokens: TokenCache;
  jobs: Jobs;
  /** Every area's transfer, purge and duplicate steps (areas/index.ts). */
  lifecycle: Lifecycle;
  /** Request budgets per token and per client address (see http/rate-limit.ts). */
  rateLimits: RateLimits;
  /** Every in-memory cache of the server, each named and bounded in bytes (see caches.ts). */
  caches: Caches;
  /** Where file bytes are stored (see content/blob-store.ts). */
  blobs: BlobStore;
  /** The worker threads where untrusted input is parsed, with their deadlines and limits (parsing/parse-pool.ts). */
  parsing: ParsePool;
  /** The instance's Prometheus registry (`/metrics`): register a cache, a counter or a gauge in one line (see metrics.ts). */
  metrics: Metrics;
  /** Published sites' views and searches, counted in memory and written in batches (areas/sites/insights-recorder.ts). */
  insights: SiteInsights;
};
