// Environment → typed configuration. Invalid values stop the start with a message naming them.
//
// Two modes: `production` (the built entry, `node dist/main.js`, and the built CLI) needs DATABASE_URL
// — the embedded PostgreSQL only on an explicit EMBEDDED_DATABASE=true — and creates no demo account;
// `development` (`pnpm start`, `pnpm cli`, the test harness) falls back to the embedded PostgreSQL in
// the checkout's `.data/` and creates the demo account on an empty one.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');

const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

// Express's `trust proxy` names: the proxies' addresses, subnets, or these ranges.
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (item: string) => {
  if (PROXY_RANGES.has(item)) return true;
  if (!item.includes('/')) return ipaddr.isValid(item);
  try {
    ipaddr.parseCIDR(item);
    return true;
  } catch {
    return false;
  }
};

/**
 * Whose `X-Forwarded-For` to believe for the client's address: `false` (nobody: the socket's peer is the
 * client), a number of proxy hops, or the proxies' addresses/subnets. `true` (anybody) is refused: any
 * client could then pick its own address and escape the per-address limits.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    if (value === 'false' || value === '0' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const items = value.split(',').map((item) => item.trim()).filter(Boolean);
    const invalid = items.filter((item) => !isProxyAddress(item));
    if (!items.length || invalid.length) {
      context.addIssue({
        code: 'custom',
        message: `expected false, a number of proxy hops, or proxy addresses/subnets (loopback, linklocal, uniquelocal allowed); invalid: ${invalid.join(', ') || value}`,
      });
      return z.NEVER;
    }
    return items;
  });

/** `ACCESS_LOG`: the level of the one line logged per request, or `false` for none (see http/observability.ts). */
const accessLog = z
  .enum(['true', 'false', 'off', 'trace', 'debug', 'info'])
  .transform((value) => (value === 'true' ? 'info' : value === 'false' || value === 'off' ? false : value));

/**
 * A PostgreSQL connection URL. The message never repeats the value (it may hold a password), and a URL
 * of another database says what the server needs instead of "Invalid URL".
 */
const postgresUrl = z.string().superRefine((value, context) => {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (!scheme || !URL.canParse(value)) {
    context.addIssue({ code: 'custom', message: 'must be a URL like postgres://user:password@host:5432/database' });
    return;
  }
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    context.addIssue({ code: 'custom', message: `must be a postgres:// URL: Content Workspace requires PostgreSQL (15 or later), not ${scheme}` });
  }
});

const PORT_MESSAGE = 'must be a port number (0–65535)';
/** A TCP port; a blank value counts as unset rather than as port 0. */
const port = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.coerce.number({ error: PORT_MESSAGE }).int({ error: PORT_MESSAGE }).min(0, { error: PORT_MESSAGE }).max(65535, { error: PORT_MESSAGE }).default(8080),
);

// Published sites' custom hostnames (areas/sites/hostnames.service.ts): the DNS servers their proofs
// are looked up on (`ip`, `ip:port`, `[ipv6]:port`; none: the system's), the domain whose wildcard names
// may prove one by CNAME, and the server's own names besides PUBLIC_URL's and APP_URL's (never a site's).
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const dnsServer = (item: string) => {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(item);
  const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]] : item.split(':').length === 2 ? item.split(':') : [item, undefined];
  return ipaddr.isValid(address!) && (port === undefined || (Number(port) >= 1 && Number(port) <= 65535));
};
const listOf = (valid: (item: string) => boolean, expected: string) =>
  z
    .string()
    .transform((value, context) => {
      const items = value.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
      const invalid = items.filter((item) => !valid(item));
      if (invalid.length) context.addIssue({ code: 'custom', message: `expected ${expected}, separated by commas; invalid: ${invalid.join(', ')}` });
      return items;
    });
/**
 * `CORS_ORIGINS`: the origins whose pages may call the API from a browser (http/cors.ts), separated by
 * commas, each as a browser sends it (`https://app.example.com`, `http://localhost:5173`: scheme, host,
 * port only), or `*` for any. None by default.
 */
const corsOrigins = z
  .string()
  .trim()
  .transform((value, context): '*' | string[] => {
    if (value === '*') return '*';
    const items = value.split(',').map((item) => item.trim()).filter(Boolean);
    const isOrigin = (item: string) => URL.canParse(item) && /^https?:$/.test(new URL(item).protocol) && new URL(item).origin === item;
    const invalid = items.filter((item) => !isOrigin(item));
    if (invalid.length) {
      context.addIssue({
        code: 'custom',
        message: `expected * or origins separated by commas, each scheme://host[:port] in lowercase without a path (https://app.example.com); invalid: ${invalid.join(', ')}`,
      });
      return z.NEVER;
    }
    return items;
  });

const siteHostnameSettings = {
  SITE_DNS_SERVERS: listOf(dnsServer, 'DNS server addresses (ip, ip:port or [ipv6]:port)').default([]),
  SITE_CNAME_DOMAIN: z.string().trim().toLowerCase().regex(DNS_NAME, 'expected a domain name').optional(),
  SERVER_HOSTNAMES: listOf((item) => DNS_NAME.test(item), 'hostnames').default([]),
};

/**
 * `WEBHOOK_RETRY_SCHEDULE`: the waits after each failed delivery attempt, comma-separated durations
 * (`500ms`, `5s`, `5m`, `2h`), in milliseconds; its length is the number of retries.
 */
const retrySchedule = z
  .string()
  .trim()
  .transform((value, context): number[] => {
    const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
    const waits = value.split(',').map((item) => /^(\d{1,7})(ms|s|m|h)$/.exec(item.trim()));
    if (waits.length > 20 || waits.some((match) => !match)) {
      context.addIssue({ code: 'custom', message: 'expected 1 to 20 comma-separated durations such as 5s, 5m, 2h or 500ms' });
      return z.NEVER;
    }
    return waits.map((match) => Number(match![1]) * units[match![2] as keyof typeof units]);
  });

const schema = z.object({
  DATABASE_URL: postgresUrl.optional(),
  EMBEDDED_DATABASE: booleanString.optional(),
  PORT: port,
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_LOG: accessLog.default('info'),
  DATA_DIR: z.string().min(1).optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  VALIDATE_RESPONSES: booleanString.default(false),
  COMPILE_VALIDATORS_AHEAD: booleanString.default(true),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  JOBS_ENABLED: booleanString.default(true),
  BOOTSTRAP_DEMO: booleanString.optional(),
  RATE_LIMIT_ENABLED: booleanString.default(true),
  RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).max(1_000_000).default(600),
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(300),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Page feedback a client address may send to published sites per hour (areas/sites/published/endpoints/feedback.ts). */
  RATE_LIMIT_FEEDBACK_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(20),
  TRUST_PROXY: trustProxy.default(false),
  CORS_ORIGINS: corsOrigins.default([]),
  OUTBOUND_ALLOW_PRIVATE: booleanString.default(false),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  OUTBOUND_MAX_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  MAX_FILE_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  LARGE_BODY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  IMPORT_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(200),
  IMPORT_MAX_DEPTH: z.coerce.number().int().min(0).max(20).default(3),
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(25 * 1024 * 1024),
  IMPORT_TIME_LIMIT_MS: z.coerce.number().int().min(100).optional(),
  // One resource's read in the parse pool (packages/server/src/areas/import/import-parser.ts): an HTML
  // page past 10 s is adversarial (Readability takes ~1 s for a 2 MB page). The hostile-input tests,
  // which wait for it, set it lower.
  IMPORT_READ_DEADLINE_MS: z.coerce.number().int().min(100).default(10_000),
  IMPORT_ZIP_MAX_ENTRIES: z.coerce.number().int().min(1).max(100_000).default(5000),
  IMPORT_ZIP_MAX_EXPANDED_BYTES: z.coerce.number().int().min(1024).default(200 * 1024 * 1024),
  PDF_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(500),
  PDF_RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  PDF_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(256 * 1024 * 1024),
  OPENAPI_REFRESH_MINUTES: z.coerce
    .number()
    .int()
    .refine((minutes) => minutes === 0 || minutes >= 5, 'must be 0 (off) or at least 5')
    .default(0),
  OPENAPI_MAX_FILES: z.coerce.number().int().min(1).max(1000).default(100),
  OPENAPI_PROCESS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  // The in-memory caches' total (caches.ts shares it out): 16 MB to 64 GB.
  CACHE_MEMORY_MB: z.coerce.number().int().min(16).max(65_536).default(512),
  ...siteHostnameSettings,
  EVENTS_RETENTION_DAYS: z.coerce.number().int().min(2).max(3650).default(30),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule.default(retrySchedule.parse('5s,5m,30m,2h,5h,10h,10h')),
});

/** Time an import or a PDF rendering leaves the rest of its request (the write, the answer). */
const REQUEST_RESERVE_MS = 5000;

/** `production`: the built entries; `development`: `pnpm start`, `pnpm cli` and tests (see above). */
export type Mode = 'production' | 'development';

export type Config = {
  mode: Mode;
  /** The PostgreSQL to use; undefined: the embedded PostgreSQL in `dataDir` (development, or EMBEDDED_DATABASE=true). */
  databaseUrl: string | undefined;
  port: number;
  host: string;
  /** Base of the absolute API addresses in responses (`urls.location`). No trailing slash. */
  publicUrl: string;
  /** Base of the app addresses in responses (`urls.app`). No trailing slash. */
  appUrl: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** Level of the access log line of each request below 500, or false for none. */
  accessLog: z.infer<typeof schema>['ACCESS_LOG'];
  dataDir: string;
  dbPoolSize: number;
  validateResponses: boolean;
  /**
   * Compile every operation's request validators after start, one per macrotask, rather than on each
   * operation's first request (a tick of up to tens of ms). Off in tests, whose servers each see a few operations.
   */
  compileValidatorsAhead: boolean;
  requestTimeoutMs: number;
  shutdownTimeoutMs: number;
  jobsEnabled: boolean;
  /** Create the demo user and organization on an empty embedded database. */
  bootstrapDemo: boolean;
  /** Requests per window per token, and per client address for requests without a valid token. */
  rateLimit: { enabled: boolean; perToken: number; perAddress: number; windowSeconds: number; feedbackPerHour: number };
  /** Express's `trust proxy`: which proxies' `X-Forwarded-For` gives the client's address. */
  trustProxy: false | number | string[];
  /** Origins whose pages may call the API from a browser, or `'*'` for any (http/cors.ts). */
  corsOrigins: '*' | string[];
  outbound: { allowPrivate: boolean; timeoutMs: number; maxBytes: number };
  maxFileBytes: number;
  /** How many request bodies above 1 MB (content batches, imports) are read at once; more get 503. */
  largeBodyConcurrency: number;
  /** Content import limits (docs/decisions.md, Content import). */
  import: { maxPages: number; maxDepth: number; maxBytes: number; timeLimitMs: number; readDeadlineMs: number; zipMaxEntries: number; zipMaxExpandedBytes: number };
  /** Change-request PDFs: pages in one PDF, rendering time, cached bytes per organization. */
  pdf: { maxPages: number; renderTimeoutMs: number; cacheMaxBytes: number };
  /**
   * OpenAPI processing: URL sources re-processed when their last processing is older than
   * `refreshMinutes` (0: never); at most `maxFiles` files per spec (the entry and what it references),
   * within `processTimeoutMs` in all; the files together within `outbound.maxBytes`.
   */
  openapi: { refreshMinutes: number; maxFiles: number; processTimeoutMs: number };
  /** Published sites: see siteHostnameSettings above. */
  sites: { dnsServers: string[]; cnameDomain: string | undefined; serverHostnames: string[] };
  /** Bytes the in-memory caches may hold together (caches.ts `CACHE_BUDGETS` share them out). */
  cacheMemoryBytes: number;
  /** Events are kept `retentionDays`; a webhook attempt waits `timeoutMs` for an answer, failures are retried after each wait of `retryScheduleMs`. */
  events: { retentionDays: number };
  webhooks: { timeoutMs: number; retryScheduleMs: number[] };
};

/** Every environment variable the configuration reads (the documentation's tables are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export class ConfigError extends Error {
  /** `issues`: `NAME: what is wrong`, one per variable. One issue is one line; several, a list under a heading. */
  constructor(issues: string[]) {
    super(issues.length === 1 ? `Invalid configuration: ${issues[0]}` : `Invalid configuration:\n${issues.map((issue) => `  ${issue}`).join('\n')}`);
  }
}

/**
 * Variables in `env` that look like one of ours but are not (a typo, another case: `DATABSE_URL`,
 * `port`), each with the one it resembles: they are ignored, so the start warns about them. Close means
 * within one edit (two for names longer than six letters), a swap of neighbours counting as one.
 */
export function lookAlikeVariables(env: NodeJS.ProcessEnv): { name: string; meant: string }[] {
  const known = new Set(CONFIG_VARIABLES);
  const found: { name: string; meant: string }[] = [];
  for (const name of Object.keys(env)) {
    if (known.has(name)) continue;
    const upper = name.toUpperCase();
    const meant = CONFIG_VARIABLES.find((variable) => editDistance(upper, variable, 2) <= (variable.length > 6 ? 2 : 1));
    if (meant) found.push({ name, meant });
  }
  return found;
}

/** The sentence for a look-alike variable. */
export function lookAlikeWarning(name: string, meant: string): string {
  return `Warning: ${name} is not a Content Workspace setting and is ignored; did you mean ${meant}?`;
}

/** Optimal-string-alignment distance of `a` and `b`, or `limit + 1` once it is sure to exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, before[j - 2]! + 1);
      current.push(distance);
    }
    if (Math.min(...current) > limit) return limit + 1;
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}

/**
 * Words for the issues every variable of a kind shares, instead of zod's ("expected number, received
 * NaN"): a number that is not one, out of range.
 */
function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int')) return 'must be a whole number';
  if (issue.code === 'too_small' && issue.origin === 'number') return `must be at least ${String(issue.minimum)}`;
  if (issue.code === 'too_big' && issue.origin === 'number') return `must be at most ${String(issue.maximum)}`;
  return undefined;
}

/** Where the database comes from, by mode: one sentence saying what to set when nothing says it. */
function databaseIssues(e: z.infer<typeof schema>, mode: Mode): string[] {
  if (e.DATABASE_URL !== undefined) return e.EMBEDDED_DATABASE ? ['EMBEDDED_DATABASE: set either DATABASE_URL or EMBEDDED_DATABASE=true, not both'] : [];
  if (!(e.EMBEDDED_DATABASE ?? mode === 'development')) {
    return [
      'DATABASE_URL: not set. Set it to your PostgreSQL (postgres://user:password@host:5432/database); ' +
        'or, to try the server on an embedded PostgreSQL instead, set EMBEDDED_DATABASE=true and DATA_DIR (`pnpm start` does this for development)',
    ];
  }
  if (mode === 'production' && e.DATA_DIR === undefined) return ['DATA_DIR: EMBEDDED_DATABASE=true needs DATA_DIR, a folder this user may write, to keep the database in'];
  return [];
}

/**
 * Reads the configuration from `env` for `mode` (see the top of this file); throws a ConfigError listing
 * every invalid variable, one per line.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, mode: Mode = 'development'): Config {
  const parsed = schema.safeParse(env, { error: issueMessage });
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const database = databaseIssues(e, mode);
  if (database.length > 0) throw new ConfigError(database);
  // Imports and renderings run inside a request: they must end before the server gives up on it.
  const longest = e.REQUEST_TIMEOUT_MS - REQUEST_RESERVE_MS;
  const tooLong = (['IMPORT_TIME_LIMIT_MS', 'PDF_RENDER_TIMEOUT_MS'] as const).filter((name) => e[name] !== undefined && e[name] > longest);
  if (tooLong.length > 0) {
    throw new ConfigError(tooLong.map((name) => `${name}: must be at most REQUEST_TIMEOUT_MS - ${REQUEST_RESERVE_MS} (${longest})`));
  }
  // A delivery must end before its event is pruned (deliveries go with their event).
  const retryingMs = e.WEBHOOK_RETRY_SCHEDULE.reduce((sum, wait) => sum + wait, 0);
  if (retryingMs >= (e.EVENTS_RETENTION_DAYS - 1) * 86_400_000) {
    throw new ConfigError(['WEBHOOK_RETRY_SCHEDULE: its waits must add up to less than EVENTS_RETENTION_DAYS - 1 days']);
  }
  const withinRequest = (value: number | undefined) => value ?? Math.max(100, Math.min(20_000, longest));
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const embedded = e.DATABASE_URL === undefined;
  return {
    mode,
    databaseUrl: e.DATABASE_URL,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    appUrl: (e.APP_URL ?? `${publicUrl}/app`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    accessLog: e.ACCESS_LOG,
    // Development keeps its database in the checkout; production names its folder (unused with DATABASE_URL).
    dataDir: resolve(e.DATA_DIR ?? (mode === 'development' ? join(repoRoot, '.data') : '.data')),
    dbPoolSize: e.DB_POOL_SIZE,
    validateResponses: e.VALIDATE_RESPONSES,
    compileValidatorsAhead: e.COMPILE_VALIDATORS_AHEAD,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    jobsEnabled: e.JOBS_ENABLED,
    bootstrapDemo: embedded && (e.BOOTSTRAP_DEMO ?? mode === 'development'),
    rateLimit: {
      enabled: e.RATE_LIMIT_ENABLED,
      perToken: e.RATE_LIMIT_PER_TOKEN,
      perAddress: e.RATE_LIMIT_PER_ADDRESS,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      feedbackPerHour: e.RATE_LIMIT_FEEDBACK_PER_HOUR,
    },
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    outbound: { allowPrivate: e.OUTBOUND_ALLOW_PRIVATE, timeoutMs: e.OUTBOUND_TIMEOUT_MS, maxBytes: e.OUTBOUND_MAX_BYTES },
    maxFileBytes: e.MAX_FILE_BYTES,
    largeBodyConcurrency: e.LARGE_BODY_CONCURRENCY,
    import: {
      maxPages: e.IMPORT_MAX_PAGES,
      maxDepth: e.IMPORT_MAX_DEPTH,
      maxBytes: e.IMPORT_MAX_BYTES,
      timeLimitMs: withinRequest(e.IMPORT_TIME_LIMIT_MS),
      readDeadlineMs: e.IMPORT_READ_DEADLINE_MS,
      zipMaxEntries: e.IMPORT_ZIP_MAX_ENTRIES,
      zipMaxExpandedBytes: e.IMPORT_ZIP_MAX_EXPANDED_BYTES,
    },
    pdf: { maxPages: e.PDF_MAX_PAGES, renderTimeoutMs: withinRequest(e.PDF_RENDER_TIMEOUT_MS), cacheMaxBytes: e.PDF_CACHE_MAX_BYTES },
    openapi: { refreshMinutes: e.OPENAPI_REFRESH_MINUTES, maxFiles: e.OPENAPI_MAX_FILES, processTimeoutMs: e.OPENAPI_PROCESS_TIMEOUT_MS },
    sites: { dnsServers: e.SITE_DNS_SERVERS, cnameDomain: e.SITE_CNAME_DOMAIN, serverHostnames: e.SERVER_HOSTNAMES },
    cacheMemoryBytes: e.CACHE_MEMORY_MB * 1024 * 1024,
    events: { retentionDays: e.EVENTS_RETENTION_DAYS },
    webhooks: { timeoutMs: e.WEBHOOK_TIMEOUT_MS, retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE },
  };
}
