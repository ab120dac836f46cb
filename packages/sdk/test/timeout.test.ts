import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, TimeoutError, createClient } from '../src/index.js';
import { json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { retryDelayMs: 1, maxRetryDelayMs: 20 };
const get = { params: { path: { organizationId: 'o1' } } } as const;

const never = Number.POSITIVE_INFINITY;

/** Answers request `index` after `delays[index]` ms (`never`: no answer; at once past the list). */
function slowThenFast(delays: number[]) {
  return startServer((_request, response, index) => {
    const delay = delays[index] ?? 0;
    if (delay === never) return;
    setTimeout(() => {
      if (!response.destroyed) json(response, 200, organization(`o${index}`));
    }, delay);
  });
}

describe('timeouts', () => {
  it('rejects with TimeoutError when no answer comes in time', async () => {
    server = await slowThenFast([never]);
    const client = createClient({ baseUrl: server.url, timeoutMs: 200, maxRetries: 0 });

    const started = performance.now();
    const failure = await client.GET('/v1/orgs/{organizationId}', get).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect((failure as TimeoutError).timeoutMs).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('retries a timed-out GET, with a fresh time limit for each attempt', async () => {
    server = await slowThenFast([never, never]);
    // The third attempt is answered at once, but must come and go within the limit on a busy machine
    // too (200 ms was not enough for a server in this process while three other test files ran).
    const client = createClient({ baseUrl: server.url, timeoutMs: 1_000, ...fast });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data?.id).toBe('o2');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a timed-out POST with the same Idempotency-Key', async () => {
    server = await slowThenFast([never, never]);
    // Long enough for the request to reach the server even on a busy machine.
    const client = createClient({ baseUrl: server.url, timeoutMs: 1_000, ...fast, maxRetries: 1 });

    await expect(client.POST('/v1/user/tokens', { body: { label: 'x' } })).rejects.toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.headers['idempotency-key']).toBe(server.requests[0]!.headers['idempotency-key']);
  });

  it('covers a body that stalls after the headers', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"object":"organization",'); // and never the rest
    });
    const client = createClient({ baseUrl: server.url, timeoutMs: 100, maxRetries: 0 });

    await expect(client.GET('/v1/orgs/{organizationId}', get)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('takes a per-call timeoutMs over the client’s', async () => {
    server = await slowThenFast([300, 300]);
    const client = createClient({ baseUrl: server.url, timeoutMs: 50, maxRetries: 0 });

    const { data } = await client.GET('/v1/orgs/{organizationId}', { ...get, timeoutMs: 5_000 });
    expect(data?.id).toBe('o0');

    const tight = createClient({ baseUrl: server.url, timeoutMs: 5_000, maxRetries: 0 });
    await expect(tight.GET('/v1/orgs/{organizationId}', { ...get, timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('has no time limit with timeoutMs 0', async () => {
    server = await slowThenFast([150]);
    const client = createClient({ baseUrl: server.url, timeoutMs: 0, maxRetries: 0 });

    const { data } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data?.id).toBe('o0');
  });
});

describe('AbortSignal', () => {
  it('aborts a call in flight with the signal’s reason, without retrying', async () => {
    const controller = new AbortController();
    // The server aborts once it holds the request, so the abort surely lands mid-call.
    server = await startServer(() => controller.abort());
    const client = createClient({ baseUrl: server.url, ...fast });

    const failure = await client
      .GET('/v1/orgs/{organizationId}', { ...get, signal: controller.signal })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DOMException);
    expect((failure as DOMException).name).toBe('AbortError');
    expect(failure).not.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it('passes a custom abort reason through', async () => {
    server = await slowThenFast([never]);
    const client = createClient({ baseUrl: server.url });
    const reason = new Error('user navigated away');

    const custom = new AbortController();
    const pending = client.GET('/v1/orgs/{organizationId}', { ...get, signal: custom.signal });
    custom.abort(reason);
    await expect(pending).rejects.toBe(reason);

    // AbortSignal.timeout() is the caller's own limit: its DOMException comes through, not our TimeoutError.
    const timedOut = await client
      .GET('/v1/orgs/{organizationId}', { ...get, signal: AbortSignal.timeout(10) })
      .catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(DOMException);
    expect(timedOut).toMatchObject({ name: 'TimeoutError' });
    expect(timedOut).not.toBeInstanceOf(TimeoutError);
  });

  it('stops waiting between retries when aborted', async () => {
    const controller = new AbortController();
    server = await startServer((_request, response) => {
      json(response, 503, { error: { code: 503, message: 'Draining' } });
      setTimeout(() => controller.abort(), 100); // while the client waits 5 to 10 s to retry
    });
    const client = createClient({ baseUrl: server.url, retryDelayMs: 10_000, maxRetryDelayMs: 10_000 });

    const started = performance.now();
    const pending = client.GET('/v1/orgs/{organizationId}', { ...get, signal: controller.signal });

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    server = await slowThenFast([]);
    const client = createClient({ baseUrl: server.url });

    await expect(
      client.GET('/v1/orgs/{organizationId}', { ...get, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});
