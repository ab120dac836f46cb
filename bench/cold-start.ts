// Cold start (docs/design/budgets.md): `pnpm start`'s process on the embedded PostgreSQL, timed from spawn to the
// first answered request — first on an empty data directory (initdb, migrations, demo bootstrap), then
// again on the initialised one.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('../packages/server/', import.meta.url));
const tsx = join(serverDir, 'node_modules/.bin/tsx');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Milliseconds from spawning the server until `/readyz` answers 200; then stops it gracefully. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(tsx, ['src/dev.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let elapsed: number;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) {
        elapsed = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return elapsed;
}

export async function runColdStartBenchmark(): Promise<{ firstRunMs: number; warmRunsMs: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cw-cold-'));
  chmodSync(dir, 0o755);
  try {
    const firstRunMs = await timeStart(join(dir, 'data'));
    const warmRunsMs: number[] = [];
    for (let i = 0; i < 3; i++) warmRunsMs.push(await timeStart(join(dir, 'data')));
    return { firstRunMs, warmRunsMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
