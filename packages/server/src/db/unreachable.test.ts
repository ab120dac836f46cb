import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseUnreachableError, databaseAddress, ensureReachable } from './unreachable.js';

describe('databaseAddress', () => {
  it('is host:port/database, never the user or the password', () => {
    expect(databaseAddress('postgres://cw:s3cret@db.internal:6432/content?sslmode=require')).toBe('db.internal:6432/content');
    expect(databaseAddress('postgresql://cw:s3cret@db.internal/content')).toBe('db.internal:5432/content');
    // A Unix socket given as the host parameter, and a database named after the user when the path is empty.
    expect(databaseAddress('postgres://cw@localhost/content?host=/run/postgresql')).toBe('/run/postgresql:5432/content');
    expect(databaseAddress('postgres://cw:s3cret@10.0.0.5:5433')).toBe('10.0.0.5:5433/cw');
    expect(databaseAddress('not a url with s3cret')).not.toContain('s3cret');
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('ensureReachable', () => {
  it('names the address and the reason of a refused connection, also when the name has several addresses', async () => {
    const port = await closedPort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const url = `postgres://cw:s3cret@${host}:${port}/content`;
      const pool = new pg.Pool({ connectionString: url });
      try {
        const error = await ensureReachable(pool, url).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(DatabaseUnreachableError);
        expect((error as Error).message).toMatch(new RegExp(`^Cannot connect to the database at ${host}:${port}/content: connection refused`));
        expect((error as Error).message).not.toContain('s3cret');
      } finally {
        await pool.end();
      }
    }
  });
});
