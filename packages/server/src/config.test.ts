import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig, lookAlikeVariables } from './config.js';

describe('loadConfig', () => {
  it('has defaults for a local start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, publicUrl: 'http://localhost:8080', appUrl: 'http://localhost:8080/app', databaseUrl: undefined, dbPoolSize: 10, validateResponses: false });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('reads and normalises values', () => {
    const config = loadConfig({ PORT: '9000', PUBLIC_URL: 'https://api.example.com/', DATABASE_URL: 'postgres://u:p@db:5432/cw', VALIDATE_RESPONSES: '1' });
    expect(config).toMatchObject({ port: 9000, publicUrl: 'https://api.example.com', appUrl: 'https://api.example.com/app', databaseUrl: 'postgres://u:p@db:5432/cw', validateResponses: true });
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' })).toThrowError(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/DATABASE_URL/);
      expect((error as Error).message).toMatch(/LOG_LEVEL/);
    }
  });

  it('has import and PDF limits that end within a request', () => {
    expect(loadConfig({}).import).toEqual({ maxPages: 200, maxDepth: 3, maxBytes: 25 * 1024 * 1024, timeLimitMs: 20_000, readDeadlineMs: 10_000, zipMaxEntries: 5000, zipMaxExpandedBytes: 200 * 1024 * 1024 });
    expect(loadConfig({ IMPORT_READ_DEADLINE_MS: '3000' }).import.readDeadlineMs).toBe(3000);
    expect(loadConfig({}).pdf).toEqual({ maxPages: 500, renderTimeoutMs: 20_000, cacheMaxBytes: 256 * 1024 * 1024 });
    // Unset, the time limits follow a shorter request timeout.
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '15000' }).import.timeLimitMs).toBe(10_000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '15000', IMPORT_TIME_LIMIT_MS: '12000', PDF_RENDER_TIMEOUT_MS: '11000' })).toThrowError(
      /IMPORT_TIME_LIMIT_MS: must be at most REQUEST_TIMEOUT_MS - 5000 \(10000\)\n {2}PDF_RENDER_TIMEOUT_MS/,
    );
  });

  it('reads the rate limits and whose X-Forwarded-For to trust', () => {
    expect(loadConfig({})).toMatchObject({ rateLimit: { enabled: true, perToken: 600, perAddress: 300, windowSeconds: 60 }, trustProxy: false });
    const config = loadConfig({ RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_PER_TOKEN: '100', RATE_LIMIT_PER_ADDRESS: '10', RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY: '1' });
    expect(config).toMatchObject({ rateLimit: { enabled: false, perToken: 100, perAddress: 10, windowSeconds: 3600 }, trustProxy: 1 });
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::1']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('refuses limits below 1 and a proxy setting that would trust any client', () => {
    for (const env of [{ RATE_LIMIT_PER_TOKEN: '0' }, { RATE_LIMIT_WINDOW_SECONDS: '0' }, { TRUST_PROXY: 'true' }, { TRUST_PROXY: '10.0.0.0/99' }, { TRUST_PROXY: 'proxy.example.com' }]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrowError(new RegExp(Object.keys(env)[0]!));
    }
  });

  it('lets no page call the API from a browser by default; CORS_ORIGINS lists origins, or * for any', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: ' https://app.example.com , http://localhost:5173 ' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    // Not as a browser sends an Origin: a path, a trailing slash, capitals, another scheme, * among others.
    for (const invalid of ['https://app.example.com/', 'https://app.example.com/app', 'https://APP.example.com', 'ftp://files.example.com', 'app.example.com', 'https://a.example, *']) {
      expect(() => loadConfig({ CORS_ORIGINS: invalid }), invalid).toThrow(/CORS_ORIGINS: expected \* or origins/);
    }
  });

  it('OpenAPI refresh is off by default, and 0 or at least 5 minutes', () => {
    expect(loadConfig({}).openapi).toEqual({ refreshMinutes: 0, maxFiles: 100, processTimeoutMs: 60_000 });
    expect(loadConfig({ OPENAPI_REFRESH_MINUTES: '360', OPENAPI_MAX_FILES: '20' }).openapi).toMatchObject({ refreshMinutes: 360, maxFiles: 20 });
    expect(() => loadConfig({ OPENAPI_REFRESH_MINUTES: '3' })).toThrowError(/OPENAPI_REFRESH_MINUTES: must be 0 \(off\) or at least 5/);
    expect(() => loadConfig({ OPENAPI_MAX_FILES: '0' })).toThrowError(/OPENAPI_MAX_FILES/);
  });

  it('reads ACCESS_LOG as a level, true (info) or false/off (none)', () => {
    expect(loadConfig({}).accessLog).toBe('info');
    expect(loadConfig({ ACCESS_LOG: 'true' }).accessLog).toBe('info');
    expect(loadConfig({ ACCESS_LOG: 'debug' }).accessLog).toBe('debug');
    expect(loadConfig({ ACCESS_LOG: 'false' }).accessLog).toBe(false);
    expect(loadConfig({ ACCESS_LOG: 'off' }).accessLog).toBe(false);
    expect(() => loadConfig({ ACCESS_LOG: 'loud' })).toThrowError(/ACCESS_LOG/);
  });

  it('in production, needs DATABASE_URL, or EMBEDDED_DATABASE=true with DATA_DIR, and creates no demo account unless told', () => {
    expect(() => loadConfig({}, 'production')).toThrowError(
      /^Invalid configuration: DATABASE_URL: not set\. Set it to your PostgreSQL \(postgres:\/\/user:password@host:5432\/database\); or, .*EMBEDDED_DATABASE=true and DATA_DIR/,
    );
    expect(() => loadConfig({ EMBEDDED_DATABASE: 'true' }, 'production')).toThrowError(/DATA_DIR: EMBEDDED_DATABASE=true needs DATA_DIR/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/cw', EMBEDDED_DATABASE: 'true' }, 'production')).toThrowError(/EMBEDDED_DATABASE: set either DATABASE_URL or EMBEDDED_DATABASE=true, not both/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/cw' }, 'production')).toMatchObject({ mode: 'production', databaseUrl: 'postgres://db/cw', bootstrapDemo: false });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/cw', BOOTSTRAP_DEMO: 'true' }, 'production').bootstrapDemo).toBe(false); // never on your own database
    expect(loadConfig({ EMBEDDED_DATABASE: 'true', DATA_DIR: '/var/lib/cw' }, 'production')).toMatchObject({ databaseUrl: undefined, dataDir: '/var/lib/cw', bootstrapDemo: false });
    expect(loadConfig({ EMBEDDED_DATABASE: 'true', DATA_DIR: '/var/lib/cw', BOOTSTRAP_DEMO: 'true' }, 'production').bootstrapDemo).toBe(true);
    // Development (`pnpm start`): the embedded database and the demo account unless told otherwise.
    expect(loadConfig({})).toMatchObject({ mode: 'development', databaseUrl: undefined, bootstrapDemo: true });
    expect(loadConfig({ BOOTSTRAP_DEMO: 'false' }).bootstrapDemo).toBe(false);
    expect(() => loadConfig({ EMBEDDED_DATABASE: 'false' })).toThrowError(/DATABASE_URL: not set/);
  });

  it('says what a value must be, in words, and never repeats a database URL', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        const lines = (error as Error).message.split('\n');
        return lines.length === 1 ? [lines[0]!.replace('Invalid configuration: ', '  ')] : lines.slice(1);
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    expect(message({ PORT: 'abc' })).toEqual(['  PORT: must be a port number (0–65535)']);
    expect(message({ PORT: '70000' })).toEqual(['  PORT: must be a port number (0–65535)']);
    expect(message({ PORT: '80.5' })).toEqual(['  PORT: must be a port number (0–65535)']);
    expect(loadConfig({ PORT: '' }).port).toBe(8080); // `PORT=` in an environment file: unset
    expect(message({ DB_POOL_SIZE: 'ten', SHUTDOWN_TIMEOUT_MS: '-1', RATE_LIMIT_PER_TOKEN: '2000000' })).toEqual([
      '  DB_POOL_SIZE: must be a whole number',
      '  SHUTDOWN_TIMEOUT_MS: must be at least 0',
      '  RATE_LIMIT_PER_TOKEN: must be at most 1000000',
    ]);
    expect(message({ DATABASE_URL: 'mysql://root:s3cret@db:3306/cw' })).toEqual(['  DATABASE_URL: must be a postgres:// URL: Content Workspace requires PostgreSQL (15 or later), not mysql']);
    expect(message({ DATABASE_URL: 'db.internal:5432 user=cw password=s3cret' })).toEqual(['  DATABASE_URL: must be a URL like postgres://user:password@host:5432/database']);
    expect(loadConfig({ DATABASE_URL: 'postgresql://cw@db/cw' }).databaseUrl).toBe('postgresql://cw@db/cw');
  });

  it('finds variables that look like one of ours: a typo, another case', () => {
    const env = { DATABSE_URL: 'postgres://db/cw', port: '9000', RATE_LIMIT_PER_TOKENS: '5', LOGLEVEL: 'debug', PORT: '8080', HOME: '/root', HOSTNAME: 'vm', PGHOST: 'db', PATH: '/bin', NODE_ENV: 'production', PWD: '/' };
    expect(lookAlikeVariables(env)).toEqual([
      { name: 'DATABSE_URL', meant: 'DATABASE_URL' },
      { name: 'port', meant: 'PORT' },
      { name: 'RATE_LIMIT_PER_TOKENS', meant: 'RATE_LIMIT_PER_TOKEN' },
      { name: 'LOGLEVEL', meant: 'LOG_LEVEL' },
    ]);
    // No variable of ours looks like another of ours (each warning would then fire on a correct setting).
    expect(lookAlikeVariables(Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, 'x'])))).toEqual([]);
  });

  it('events are kept 30 days; a webhook attempt has 10 s; retries follow a schedule that ends before the events do', () => {
    expect(loadConfig({})).toMatchObject({
      events: { retentionDays: 30 },
      webhooks: { timeoutMs: 10_000, retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] },
    });
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '500ms, 2s,1m,3h' }).webhooks.retryScheduleMs).toEqual([500, 2000, 60_000, 10_800_000]);
    for (const schedule of ['', '5', '5d', '5s,,5s', 'soon', Array.from({ length: 21 }, () => '1s').join(',')]) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: schedule }), schedule).toThrowError(/WEBHOOK_RETRY_SCHEDULE/);
    }
    // A delivery must end before its event is pruned: retention 2 days leaves one day of retries.
    expect(() => loadConfig({ EVENTS_RETENTION_DAYS: '2' })).toThrowError(/WEBHOOK_RETRY_SCHEDULE: its waits must add up to less than EVENTS_RETENTION_DAYS - 1 days/);
    expect(loadConfig({ EVENTS_RETENTION_DAYS: '2', WEBHOOK_RETRY_SCHEDULE: '5s,5m,30m,2h,5h,10h' }).events.retentionDays).toBe(2);
    expect(() => loadConfig({ EVENTS_RETENTION_DAYS: '1' })).toThrowError(/EVENTS_RETENTION_DAYS/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '60001' })).toThrowError(/WEBHOOK_TIMEOUT_MS/);
  });
});
