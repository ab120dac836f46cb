// Issue 12 §3: SIGTERM to `pnpm start` (the README's command) under keep-alive write load. The signal
// reaches the server through pnpm, pnpm; readiness turns 503 at once; no request starts after the
// signal; requests in flight finish with `Connection: close`; no committed request gets a reset; the
// process exits 0 within SHUTDOWN_TIMEOUT_MS, its embedded PostgreSQL stopped.
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { createLogger } from '../../src/logger.js';
import { sleep, startChildServer, writeLoad, type ChildServer, type Outcome } from './child-server.js';

const SHUTDOWN_TIMEOUT_MS = 6000;

let server: ChildServer | undefined;
afterAll(async () => {
  await server?.cleanUp();
});

/** An HTTP/1.1 exchange on a raw socket, so a request can be sent in parts around the signal. */
function rawExchange(port: number): { socket: Socket; send(text: string): void; response: Promise<{ status: number; headers: Record<string, string>; body: string }> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const response = new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
  return { socket, send: (text) => socket.write(text), response };
}

describe('SIGTERM under keep-alive load', () => {
  it('drains: readiness 503 at once, no request started after the signal, in-flight ones finish, no committed request reset, exit 0 in time', async () => {
    server = await startChildServer({ command: 'pnpm start', env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) } });
    const { organizationId, token, port } = server;
    const client = server.client(token);
    const spaceRequest = (title: string) => {
      const body = JSON.stringify({ title });
      const head =
        `POST /v1/orgs/${organizationId}/spaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      return head + body;
    };

    let exited = false;
    void server.exited.then(() => (exited = true));
    const load = writeLoad(client, organizationId, { prefix: 'drain', workers: 8, until: () => exited });
    await sleep(1500);

    // Before the signal: a request in flight (its body half sent), one whose headers are half sent, and
    // a readiness probe half sent.
    const inFlightRequest = spaceRequest('drain in flight');
    const inFlight = rawExchange(port);
    inFlight.send(inFlightRequest.slice(0, -5));
    const lateRequest = spaceRequest('drain late');
    const late = rawExchange(port);
    late.send(lateRequest.slice(0, 40));
    const readiness = rawExchange(port);
    readiness.send('GET /readyz HTTP/1.1\r\n');
    await sleep(300);

    const signalledAt = Date.now();
    server.process.kill('SIGTERM'); // the outer pnpm
    await server.waitForLog(/^shutting down$/, 5000);
    readiness.send('Host: 127.0.0.1\r\n\r\n');
    late.send(lateRequest.slice(40));
    inFlight.send(inFlightRequest.slice(-5));

    const [ready, refused, finished] = await Promise.all([readiness.response, late.response, inFlight.response]);
    const exit = await server.exited;
    const shutdownMs = Date.now() - signalledAt;
    const outcomes: Outcome[] = await load;

    // Readiness answered 503 right after the signal.
    expect(ready.status).toBe(503);
    // A request that arrived after the signal on an open connection: refused, not processed.
    expect(refused.status).toBe(503);
    expect(refused.headers).toMatchObject({ 'connection': 'close', 'retry-after': expect.stringMatching(/^\d+$/) });
    expect(JSON.parse(refused.body)).toEqual({ error: { code: 503, message: expect.any(String) } });
    // The request in flight at the signal finished, and closed its connection.
    expect(finished.status).toBe(201);
    expect(finished.headers.connection).toBe('close');
    // pnpm passed the server's exit code on: 0, within the timeout (plus pnpm's own exit).
    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1500);
    await server.waitForLog(/^stopped$/, 1000);
    expect(server.logs.some((line) => /did not finish in time|were cut/.test(line.msg))).toBe(false);

    // Against the database (restarted here on the server's data directory): every acknowledged write
    // is there, and nothing that got an error or a refusal was done.
    const log = createLogger({ logLevel: 'warn' });
    const database = await startEmbeddedPostgres({ dataDir: join(server.dataDir, 'postgres'), database: 'content_workspace', log });
    const pg = await import('pg');
    const connection = new pg.default.Client({ connectionString: database.url });
    await connection.connect();
    const stored = new Set((await connection.query<{ title: string }>(`SELECT title FROM spaces WHERE title LIKE 'drain %'`)).rows.map((r) => r.title));
    await connection.end();
    await database.stop();

    const acknowledged = outcomes.filter((o) => o.status === 201);
    const unacknowledged = outcomes.filter((o) => o.status !== 201);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.filter((o) => !stored.has(o.title))).toEqual([]);
    // Committed yet answered with an error or a reset: a client retry would duplicate it.
    expect(unacknowledged.filter((o) => stored.has(o.title))).toEqual([]);
    expect(unacknowledged.every((o) => o.status === 503 || o.error !== undefined)).toBe(true);
    expect(stored.has('drain in flight')).toBe(true);
    expect(stored.has('drain late')).toBe(false);
    const afterSignal = outcomes.filter((o) => o.at >= signalledAt);
    console.info(
      `shutdown drain: exit ${exit.code} after ${shutdownMs} ms (timeout ${SHUTDOWN_TIMEOUT_MS}); ${outcomes.length} writes, ` +
        `${acknowledged.length} acknowledged (all stored), ${unacknowledged.length} refused or failed to connect (none stored); ` +
        `after the signal: ${afterSignal.filter((o) => o.status === 201).length} × 201, ${afterSignal.filter((o) => o.status === 503).length} × 503, ` +
        `${afterSignal.filter((o) => o.error).length} connection errors (${[...new Set(afterSignal.map((o) => o.error).filter(Boolean))].join(', ')})`,
    );
  }, 90_000);
});
