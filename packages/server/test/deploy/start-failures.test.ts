// A start that cannot work, as the operator sees it: exit code 1 and one line on stderr saying what to
// set or fix — no stack, no JSON — for the built entry (production) and for `pnpm start`.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, repoRoot, run, type Build, type Exit } from './build.js';

let build: Build;
let dir: string;
let busy: Server;
let busyPort: number;
beforeAll(async () => {
  build = await buildServer();
  dir = mkdtempSync(join(tmpdir(), 'cw-start-failures-'));
  chmodSync(dir, 0o755);
  // A port something else listens on (every interface, as another server would).
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, resolve));
  busyPort = (busy.address() as { port: number }).port;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => busy?.close(resolve));
  build?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const built = (env: Record<string, string>) => run(process.execPath, [join(build.dir, 'main.js')], env);

/** Exit code 1, and stderr is `line` alone; stdout holds at most the `fatal` JSON line, without a stack. */
function expectOneLine(exit: Exit, line: string | RegExp) {
  expect(exit.code, exit.stderr + exit.stdout).toBe(1);
  const lines = exit.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(typeof line === 'string' ? new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : line);
  expect(exit.stdout + exit.stderr).not.toMatch(/^\s+at /m);
  for (const logged of exit.stdout.split('\n').filter(Boolean)) expect(JSON.parse(logged)).toMatchObject({ level: 60 });
}

describe('the built server refuses to start, in one line', { timeout: 120_000 }, () => {
  it('without DATABASE_URL: no embedded database, no demo account; it says what to set', async () => {
    const exit = await built({ PORT: '0', DATA_DIR: join(dir, 'unused') });
    expectOneLine(
      exit,
      'Invalid configuration: DATABASE_URL: not set. Set it to your PostgreSQL (postgres://user:password@host:5432/database); ' +
        'or, to try the server on an embedded PostgreSQL instead, set EMBEDDED_DATABASE=true and DATA_DIR (`pnpm start` does this for development)',
    );
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });

  it('on a port in use: before starting its database', async () => {
    const dataDir = join(dir, 'busy-port');
    const exit = await built({ EMBEDDED_DATABASE: 'true', DATA_DIR: dataDir, PORT: String(busyPort) });
    expectOneLine(exit, `Port ${busyPort} is in use (on 0.0.0.0): set PORT to a free port, or stop the process using it.`);
    expect(JSON.parse(exit.stdout)).toMatchObject({ level: 60, address: `0.0.0.0:${busyPort}`, code: 'EADDRINUSE' });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('on an address this machine does not have', async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never assigned to a host.
    const exit = await built({ DATABASE_URL: 'postgres://cw@127.0.0.1:1/cw', HOST: '192.0.2.1', PORT: '0' });
    expectOneLine(exit, 'HOST 192.0.2.1 is not an address of this machine: set HOST to one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).');
  });

  it('on values that are not what they must be, in words; a variable that looks like one of ours is named first', async () => {
    expectOneLine(await built({ PORT: 'abc', DATABASE_URL: 'postgres://cw@db/cw' }), 'Invalid configuration: PORT: must be a port number (0–65535)');
    const mysql = await built({ DATABASE_URL: 'mysql://root:s3cret@db:3306/cw' });
    expectOneLine(mysql, 'Invalid configuration: DATABASE_URL: must be a postgres:// URL: Content Workspace requires PostgreSQL (15 or later), not mysql');
    expect(mysql.stderr).not.toContain('s3cret');

    const typo = await built({ DATABSE_URL: 'postgres://cw@db/cw', PORT: '0' });
    expect(typo.code).toBe(1);
    expect(typo.stderr.split('\n').filter(Boolean)).toEqual([
      'Warning: DATABSE_URL is not a Content Workspace setting and is ignored; did you mean DATABASE_URL?',
      expect.stringMatching(/^Invalid configuration: DATABASE_URL: not set\. /),
    ]);
  });

  it('on an embedded database folder it cannot use, naming the folder and what to set', async () => {
    // As root the embedded PostgreSQL runs as user postgres, which cannot enter a 0700 folder of
    // another's; as another user, a folder it may not write is refused.
    const closed = join(dir, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, userInfo().uid === 0 ? 0o700 : 0o500);
    const exit = await built({ EMBEDDED_DATABASE: 'true', DATA_DIR: join(closed, 'data'), PORT: '0' });
    chmodSync(closed, 0o700);
    if (userInfo().uid === 0) {
      expectOneLine(
        exit,
        `The embedded PostgreSQL runs as user "postgres", which cannot enter ${closed} (mode 700): run \`chmod o+x ${closed}\`, set DATA_DIR to a folder it can reach, or set DATABASE_URL to use another PostgreSQL.`,
      );
    } else {
      expectOneLine(exit, `Cannot write ${join(closed, 'data')} (EACCES) for the embedded PostgreSQL: set DATA_DIR to a folder this user may write, or DATABASE_URL to use another PostgreSQL.`);
    }
    expect(readdirSync(closed)).toEqual(userInfo().uid === 0 ? ['data'] : []);
  });
});

describe('pnpm start refuses to start, in one line of its own', { timeout: 120_000 }, () => {
  it('on a port in use: the sentence, not only pnpm’s failure', async () => {
    const exit = await run('pnpm', ['start'], { HOME: process.env.HOME ?? '/root', PORT: String(busyPort), DATA_DIR: join(dir, 'pnpm-start') }, repoRoot);
    expect(exit.code, exit.stderr + exit.stdout).toBe(1);
    const ours = exit.stderr.split('\n').filter((line) => line && !/ELIFECYCLE/.test(line));
    expect(ours).toEqual([`Port ${busyPort} is in use (on 0.0.0.0): set PORT to a free port, or stop the process using it.`]);
    expect(exit.stderr + exit.stdout).not.toContain('ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL');
    expect(existsSync(join(dir, 'pnpm-start'))).toBe(false);
  });
});
