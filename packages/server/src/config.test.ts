import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
    expect(loadConfig({}).import).toEqual({ maxPages: 200, maxDepth: 3, maxBytes: 25 * 1024 * 1024, timeLimitMs: 20_000, zipMaxEntries: 5000, zipMaxExpandedBytes: 200 * 1024 * 1024 });
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
