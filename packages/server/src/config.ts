// Environment → typed configuration. Invalid values stop the start with a message naming them.
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
const siteHostnameSettings = {
  SITE_DNS_SERVERS: listOf(dnsServer, 'DNS server addresses (ip, ip:port or [ipv6]:port)').default([]),
  SITE_CNAME_DOMAIN: z.string().trim().toLowerCase().regex(DNS_NAME, 'expected a domain name').optional(),
  SERVER_HOSTNAMES: listOf((item) => DNS_NAME.test(item), 'hostnames').default([]),
};

const schema = z.object({
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_LOG: accessLog.default('info'),
  DATA_DIR: z.string().min(1).default(join(repoRoot, '.data')),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  VALIDATE_RESPONSES: booleanString.default(false),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  JOBS_ENABLED: booleanString.default(true),
  BOOTSTRAP_DEMO: booleanString.default(true),
  RATE_LIMIT_ENABLED: booleanString.default(true),
  RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).max(1_000_000).default(600),
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(300),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  TRUST_PROXY: trustProxy.default(false),
  OUTBOUND_ALLOW_PRIVATE: booleanString.default(false),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  OUTBOUND_MAX_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  MAX_FILE_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  LARGE_BODY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  IMPORT_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(200),
  IMPORT_MAX_DEPTH: z.coerce.number().int().min(0).max(20).default(3),
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(25 * 1024 * 1024),
  IMPORT_TIME_LIMIT_MS: z.coerce.number().int().min(100).optional(),
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
});

/** Time an import or a PDF rendering leaves the rest of its request (the write, the answer). */
const REQUEST_RESERVE_MS = 5000;

export type Config = {
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
  requestTimeoutMs: number;
  shutdownTimeoutMs: number;
  jobsEnabled: boolean;
  bootstrapDemo: boolean;
  /** Requests per window per token, and per client address for requests without a valid token. */
  rateLimit: { enabled: boolean; perToken: number; perAddress: number; windowSeconds: number };
  /** Express's `trust proxy`: which proxies' `X-Forwarded-For` gives the client's address. */
  trustProxy: false | number | string[];
  outbound: { allowPrivate: boolean; timeoutMs: number; maxBytes: number };
  maxFileBytes: number;
  /** How many request bodies above 1 MB (content batches, imports) are read at once; more get 503. */
  largeBodyConcurrency: number;
  /** Content import limits (docs/decisions.md, Content import). */
  import: { maxPages: number; maxDepth: number; maxBytes: number; timeLimitMs: number; zipMaxEntries: number; zipMaxExpandedBytes: number };
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
};

/** Every environment variable the configuration reads (the documentation's tables are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export class ConfigError extends Error {}

/** Reads the configuration from `env`; throws a ConfigError listing every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Imports and renderings run inside a request: they must end before the server gives up on it.
  const longest = e.REQUEST_TIMEOUT_MS - REQUEST_RESERVE_MS;
  const tooLong = (['IMPORT_TIME_LIMIT_MS', 'PDF_RENDER_TIMEOUT_MS'] as const).filter((name) => e[name] !== undefined && e[name] > longest);
  if (tooLong.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${tooLong.map((name) => `  ${name}: must be at most REQUEST_TIMEOUT_MS - ${REQUEST_RESERVE_MS} (${longest})`).join('\n')}`);
  }
  const withinRequest = (value: number | undefined) => value ?? Math.max(100, Math.min(20_000, longest));
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    databaseUrl: e.DATABASE_URL,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    appUrl: (e.APP_URL ?? `${publicUrl}/app`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    accessLog: e.ACCESS_LOG,
    dataDir: resolve(e.DATA_DIR),
    dbPoolSize: e.DB_POOL_SIZE,
    validateResponses: e.VALIDATE_RESPONSES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    jobsEnabled: e.JOBS_ENABLED,
    bootstrapDemo: e.BOOTSTRAP_DEMO,
    rateLimit: {
      enabled: e.RATE_LIMIT_ENABLED,
      perToken: e.RATE_LIMIT_PER_TOKEN,
      perAddress: e.RATE_LIMIT_PER_ADDRESS,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    },
    trustProxy: e.TRUST_PROXY,
    outbound: { allowPrivate: e.OUTBOUND_ALLOW_PRIVATE, timeoutMs: e.OUTBOUND_TIMEOUT_MS, maxBytes: e.OUTBOUND_MAX_BYTES },
    maxFileBytes: e.MAX_FILE_BYTES,
    largeBodyConcurrency: e.LARGE_BODY_CONCURRENCY,
    import: {
      maxPages: e.IMPORT_MAX_PAGES,
      maxDepth: e.IMPORT_MAX_DEPTH,
      maxBytes: e.IMPORT_MAX_BYTES,
      timeLimitMs: withinRequest(e.IMPORT_TIME_LIMIT_MS),
      zipMaxEntries: e.IMPORT_ZIP_MAX_ENTRIES,
      zipMaxExpandedBytes: e.IMPORT_ZIP_MAX_EXPANDED_BYTES,
    },
    pdf: { maxPages: e.PDF_MAX_PAGES, renderTimeoutMs: withinRequest(e.PDF_RENDER_TIMEOUT_MS), cacheMaxBytes: e.PDF_CACHE_MAX_BYTES },
    openapi: { refreshMinutes: e.OPENAPI_REFRESH_MINUTES, maxFiles: e.OPENAPI_MAX_FILES, processTimeoutMs: e.OPENAPI_PROCESS_TIMEOUT_MS },
    sites: { dnsServers: e.SITE_DNS_SERVERS, cnameDomain: e.SITE_CNAME_DOMAIN, serverHostnames: e.SERVER_HOSTNAMES },
    cacheMemoryBytes: e.CACHE_MEMORY_MB * 1024 * 1024,
  };
}
