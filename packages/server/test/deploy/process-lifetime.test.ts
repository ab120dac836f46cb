// The built server's lifetime as an operator sees it (Linux: processes are found through /proc):
// launched from a shell that exits at once (`node dist/main.js &`, nohup, a wrapper script, a
// double-forking supervisor) it keeps serving; killed with SIGKILL, the embedded PostgreSQL it started
// stops too (its watchdog); a postmaster orphaned anyway (the watchdog killed with it) is adopted by
// the next start and stopped at its end — after which no process of ours is left.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunning, processInfo } from '../../src/processes.js';
import { sleep } from '../fault/child-server.js';
import { buildServer, duplicateKeys, freePorts, serviceEnvironment, type Build } from './build.js';

/** Every process whose command line mentions `text`, with its command line. */
function processesMentioning(text: string): { pid: number; argv: string[] }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((name) => {
      const info = processInfo(Number(name));
      return info && isRunning(Number(name)) && info.argv.some((arg) => arg.includes(text)) ? [{ pid: Number(name), argv: info.argv }] : [];
    });
}

/** The running children of `pid`. */
function childrenOf(pid: number): { pid: number; argv: string[] }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      const info = processInfo(Number(name));
      return info?.parent === pid && isRunning(Number(name)) ? [{ pid: Number(name), argv: info.argv }] : [];
    });
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) if (condition()) return true;
  return condition();
}

describe.skipIf(process.platform !== 'linux')('the built server, launched by a shell that exits at once', { timeout: 240_000 }, () => {
  let build: Build;
  let dir: string;
  const logs: string[] = [];
  beforeAll(async () => {
    build = await buildServer();
    dir = mkdtempSync(join(tmpdir(), 'cw-lifetime-'));
    chmodSync(dir, 0o755); // as root, the embedded PostgreSQL runs as user postgres, which must enter it
  }, 60_000);
  afterAll(() => {
    // Whatever a failed check left running.
    for (const { pid } of [...processesMentioning(join(dir, 'data')), ...processesMentioning(build.dir)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
    build?.remove();
  });

  /** `node main.js &` in a shell that then exits, as `nohup … &` or a wrapper script does; resolves once it listens, with its pid. */
  async function launch(port: number): Promise<{ pid: number; log: () => string }> {
    const n = logs.length;
    const [stdout, stderr] = [join(dir, `stdout-${n}`), join(dir, `stderr-${n}`)];
    logs.push(stdout);
    const env = serviceEnvironment({ EMBEDDED_DATABASE: 'true', DATA_DIR: join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_TIMEOUT_MS: '5000' });
    const { stdout: echoed } = await promisify(execFile)(
      'sh',
      ['-c', `"$0" --enable-source-maps "$1" </dev/null >"$2" 2>"$3" & echo $!`, process.execPath, join(build.dir, 'main.js'), stdout, stderr],
      { env },
    );
    const pid = Number(echoed.trim());
    const log = () => (existsSync(stdout) ? readFileSync(stdout, 'utf8') : '');
    const listening = await until(() => log().includes('"msg":"listening"') || !isRunning(pid), 120_000);
    expect(listening && isRunning(pid), `${log()}\n${existsSync(stderr) ? readFileSync(stderr, 'utf8') : ''}`).toBe(true);
    return { pid, log };
  }

  it('outlives its launcher; after SIGKILL its watchdog stops the database; an orphaned postmaster is adopted and stopped; nothing of ours is left', async () => {
    const [port] = await freePorts(1);
    const url = `http://127.0.0.1:${port}`;

    // 1. The shell that launched it is gone: the server was re-parented, and keeps serving.
    const first = await launch(port!); // the shell has exited when launch() returns
    await sleep(2500); // the development entry's launcher check runs every second: long enough to have stopped it
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(isRunning(first.pid)).toBe(true);
    expect(first.log()).not.toContain('shutting down');

    // 2. SIGKILL: nothing runs its shutdown, yet its postmaster stops (fast shutdown by the watchdog).
    const children = childrenOf(first.pid);
    const postmaster = children.find((child) => /postgres$/.test(child.argv[0]!))!;
    const watchdog = children.find((child) => child.argv[0] === 'sh')!;
    expect(postmaster).toBeDefined();
    expect(watchdog?.argv.at(-1)).toBe(String(postmaster.pid));
    process.kill(first.pid, 'SIGKILL');
    expect(await until(() => !isRunning(postmaster.pid) && !isRunning(watchdog.pid), 20_000)).toBe(true);

    // 3. Killed together with its watchdog, the server leaves its postmaster running: orphaned.
    const second = await launch(port!);
    expect(second.log()).not.toContain('adopting');
    const [orphan, orphanWatchdog] = [childrenOf(second.pid).find((child) => /postgres$/.test(child.argv[0]!))!, childrenOf(second.pid).find((child) => child.argv[0] === 'sh')!];
    process.kill(orphanWatchdog.pid, 'SIGKILL');
    process.kill(second.pid, 'SIGKILL');
    await sleep(1500);
    expect(isRunning(orphan.pid)).toBe(true);

    // 4. The next start adopts it (one postmaster, not a second one beside it), and stops it at its end.
    const third = await launch(port!);
    expect(third.log()).toContain('adopting the embedded PostgreSQL left running by a process that exited');
    expect(third.log().split('\n').filter((line) => duplicateKeys(line).length > 0)).toEqual([]);
    expect(processesMentioning(join(dir, 'data', 'postgres')).filter((found) => /postgres$/.test(found.argv[0]!)).map((found) => found.pid)).toEqual([orphan.pid]);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    process.kill(third.pid, 'SIGTERM');
    expect(await until(() => !isRunning(third.pid), 20_000)).toBe(true);
    expect(third.log()).toContain('"msg":"stopped"');

    // Nothing of ours is left: no server, no postmaster or backend, no watchdog.
    expect(await until(() => processesMentioning(join(dir, 'data')).length === 0 && processesMentioning(build.dir).length === 0, 10_000)).toBe(true);
    expect(isRunning(orphan.pid)).toBe(false);
    // (Other test files run servers with watchdogs of their own: only ours count.)
    expect(processesMentioning('read -r _; kill -INT').filter((found) => [postmaster.pid, orphan.pid].includes(Number(found.argv.at(-1))))).toEqual([]);
  });
});
