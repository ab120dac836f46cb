// Issue 12 §2: the database goes away under write load — its connections terminated, then its
// postmaster killed — and the server stays up, answers 503 with Retry-After while it cannot reach it,
// restarts the embedded PostgreSQL, recovers by itself, and loses no acknowledged write. Issue 29 §6:
// each outage is logged once when it starts and once when it ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startChildServer, writeLoad, type ChildServer, type Outcome } from './child-server.js';

let server: ChildServer;
beforeAll(async () => {
  server = await startChildServer({ command: 'tsx' });
}, 90_000);
afterAll(async () => {
  await server?.cleanUp();
});

/** Waits until `condition` holds, checking every 25 ms; false when `ms` passed first. */
async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(25);
  }
  return false;
}

describe('database outage under write load', () => {
  it('terminated connections and a killed postmaster: the process survives, 503 + Retry-After while down, 2xx after, no acknowledged write lost', async () => {
    const client = server.client(server.token);
    let stop = false;
    const load = writeLoad(client, server.organizationId, { prefix: 'outage', workers: 6, until: () => stop });
    // Readiness as a load balancer polls it.
    const readiness: { status: number; at: number }[] = [];
    const probe = (async () => {
      while (!stop) {
        const response = await fetch(`${server.url}/readyz`).catch(() => undefined);
        readiness.push({ status: response?.status ?? 0, at: Date.now() });
        await response?.body?.cancel();
        await sleep(50);
      }
    })();
    // Whether the server answers `status` on a read, after `after`.
    const answered = async (after: number, status: number) =>
      (await client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: server.organizationId } } }).catch(() => undefined))?.response.status === status &&
      Date.now() > after;

    await sleep(1500);
    // 1. Every connection of the server's database is terminated (pool, pg-boss, token listener).
    const terminatedAt = Date.now();
    const terminated = await server.sql(async (admin) => {
      const result = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      return result.rowCount ?? 0;
    });
    expect(terminated).toBeGreaterThan(2);
    expect(await until(() => answered(terminatedAt, 200), 10_000)).toBe(true);
    await server.waitForLog(/token change listener reconnected/, 10_000);
    const killedFrom = server.logs.length;

    // 2. The embedded postmaster is killed outright.
    const killedAt = Date.now();
    process.kill(server.postmasterPid(), 'SIGKILL');
    await server.waitForLog(/embedded PostgreSQL exited unexpectedly/, 10_000);
    await server.waitForLog(/embedded PostgreSQL restarted/, 20_000);
    expect(await until(() => answered(killedAt, 200), 15_000)).toBe(true);
    await sleep(1000);
    stop = true;
    const [outcomes] = await Promise.all([load, probe]);

    // The process survived (tsx exits with its child).
    expect(server.process.exitCode).toBeNull();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // Every answer was a 201 or a 503 in the error shape with Retry-After: never a 500, never a reset.
    const byStatus: Record<string, Outcome[]> = {};
    for (const outcome of outcomes) (byStatus[String(outcome.status ?? outcome.error)] ??= []).push(outcome);
    expect(Object.keys(byStatus).sort()).toEqual(['201', '503']);
    for (const refused of byStatus['503']!) {
      expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(refused.body).toEqual({ error: { code: 503, message: expect.any(String) } });
    }
    // 503 after the kill, then 2xx again.
    const firstRefusal = outcomes.find((o) => o.status === 503 && o.at > killedAt)!;
    expect(firstRefusal).toBeDefined();
    expect(outcomes.some((o) => o.status === 201 && o.at > firstRefusal.at)).toBe(true);
    expect(readiness.some((r) => r.status === 503 && r.at > killedAt)).toBe(true);
    expect(readiness.at(-1)!.status).toBe(200);

    // The log tells each outage once, when it starts and when it ends, without a stack: not a line per
    // failed connection, request or job poll. (Whatever else is logged at warn and above is the embedded
    // PostgreSQL's own death and restart.)
    const outages = (lines: typeof server.logs) => lines.filter((line) => /^database (unavailable|available again)/.test(line.msg)).map((line) => line.msg.split(':')[0]);
    const [terminatedLines, killedLines] = [server.logs.slice(0, killedFrom), server.logs.slice(killedFrom)];
    // (On a failure, which connection said what, and when.)
    const told = (lines: typeof server.logs) =>
      lines
        .filter((line) => line.level >= 40 && !line.reqId)
        .map((line) => `${new Date(line.time as number).toISOString()} ${line.msg} ${line.source ?? ''} ${line.reason ?? ''}`)
        .join('\n');
    expect(outages(terminatedLines), told(terminatedLines)).toEqual(['database unavailable', 'database available again']);
    expect(outages(killedLines), told(killedLines)).toEqual(['database unavailable', 'database available again']);
    // (An answered 503's access line is at warn: one per request by design, without a stack.)
    // (The lag alarm's `event loop blocked` depends on the machine's load, not on the outage.)
    const loud = server.logs.filter((line) => line.level >= 40 && !(line.msg === 'request' && line.status === 503 && line.level === 40) && line.msg !== 'event loop blocked');
    expect(loud.filter((line) => !/^(database (unavailable|available again)|embedded PostgreSQL (exited unexpectedly|restarted))/.test(line.msg)).map((line) => line.msg)).toEqual([]);
    expect(loud.filter((line) => line.err !== undefined && !/^embedded PostgreSQL/.test(line.msg))).toEqual([]);
    expect(server.logs.find((line) => line.msg === 'database available again')).toMatchObject({ level: 40, downMs: expect.any(Number), failures: expect.any(Number) });

    // Every acknowledged write is there.
    const acknowledged = byStatus['201']!.map((o) => o.title);
    const stored = new Set(
      await server.sql(async (admin) => (await admin.query<{ title: string }>(`SELECT title FROM spaces WHERE title LIKE 'outage %'`)).rows.map((r) => r.title)),
    );
    const lost = acknowledged.filter((title) => !stored.has(title));
    expect(lost).toEqual([]);
    const lastRefusal = outcomes.filter((o) => o.status === 503).at(-1)!;
    const recoveredAt = outcomes.find((o) => o.status === 201 && o.at > lastRefusal.at)!.at;
    if (process.env.FAULT_LOGS) for (const line of server.logs.filter((l) => l.level >= 40 && !l.reqId)) console.info(new Date(line.time as number).toISOString(), line.msg, JSON.stringify(line.err ?? {}).slice(0, 300));
    console.info(
      `database outage: writes answered again ${recoveredAt - killedAt} ms after the kill; ${outcomes.length} writes, ${acknowledged.length} acknowledged (lost: ${lost.length}), ${byStatus['503']!.length} answered 503; ` +
        `${terminated} connections terminated; readiness 503 seen: ${readiness.filter((r) => r.status === 503).length} times`,
    );
  }, 60_000);

  it('after recovering, a token deleted in the database stops working (changes are heard again)', async () => {
    const client = server.client(server.token);
    const { data: created } = await client.POST('/v1/user/tokens', { body: { label: 'after the outage' } });
    const other = server.client(created!.token);
    expect((await other.GET('/v1/user')).response.status).toBe(200);
    expect((await other.GET('/v1/user')).response.status).toBe(200);
    await server.sql((admin) => admin.query('DELETE FROM api_tokens WHERE id = $1', [created!.id]));
    expect(await until(async () => (await other.GET('/v1/user')).response.status === 401, 5000)).toBe(true);
  });
});
