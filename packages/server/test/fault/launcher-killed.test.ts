// `pnpm start` is a chain — pnpm, pnpm (the server package's script), the server (node with tsx's
// loader) — and SIGKILL of
// a launcher passes no signal on. The development entry (src/dev.ts, launchers.ts) watches the chain:
// with either pnpm killed outright, the server stops gracefully within seconds, and its embedded
// PostgreSQL with it. (The production entry never does this: test/deploy/process-lifetime.test.ts.)
// And every later development start says how to get a new demo token.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isRunning, processInfo } from '../../src/processes.js';
import { sleep, startChildServer, type ChildServer } from './child-server.js';

// Both starts on one data folder: the second is a later development start of the same database.
const dataDir = mkdtempSync(join(tmpdir(), 'cw-launchers-'));
chmodSync(dataDir, 0o755); // as root, the embedded PostgreSQL runs as user postgres, which must enter it
let demoToken: string | undefined;
let server: ChildServer | undefined;
afterEach(async () => {
  await server?.cleanUp();
  server = undefined;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) if (condition()) return true;
  return condition();
}

/** The server's launchers, nearest first: the package script's pnpm, the outer pnpm (the process started). */
function launchers(started: ChildServer): { serverPid: number; innerPnpm: number; outerPnpm: number } {
  const serverPid = started.logs[0]!.pid as number;
  const innerPnpm = processInfo(serverPid)!.parent;
  return { serverPid, innerPnpm, outerPnpm: processInfo(innerPnpm)!.parent };
}

describe.skipIf(process.platform !== 'linux')('pnpm start, a launcher killed with SIGKILL', { timeout: 180_000 }, () => {
  it.each(['outer', 'inner'] as const)('the %s pnpm: the server stops gracefully, its embedded PostgreSQL too (a later start tells how to get a new demo token)', async (which) => {
    server = await startChildServer({ command: 'pnpm start', dataDir, ...(demoToken ? { demoToken } : {}) });
    if (demoToken) {
      // A later start of the same database: the token was shown once; the banner says how to get another.
      expect(server.stderr()).toContain('A new API token (the first one was shown on the first start only):\n\n    pnpm cli admin token --email demo@example.com\n');
      expect(server.stderr()).not.toContain(demoToken);
    }
    demoToken = server.token;
    const chain = launchers(server);
    expect(chain.outerPnpm).toBe(server.process.pid);
    // No tsx process between pnpm and the server: tsx's CLI kills a child that does not acknowledge a
    // relayed signal within 60 ms (a busy machine), so `pnpm start` loads tsx into the server instead.
    expect(processInfo(chain.serverPid)!.argv.slice(1, 4)).toEqual(['--import', 'tsx', 'src/dev.ts']);
    expect(processInfo(chain.innerPnpm)!.argv.join(' ')).toMatch(/pnpm/);
    const postmaster = server.postmasterPid();

    const killed = which === 'outer' ? chain.outerPnpm : chain.innerPnpm;
    process.kill(killed, 'SIGKILL');
    const stopping = await server.waitForLog(/^shutting down$/, 10_000);
    expect(stopping.reason).toMatch(/launched it/);
    await server.waitForLog(/^stopped$/, 15_000);
    expect(await until(() => !isRunning(chain.serverPid) && !isRunning(postmaster), 15_000)).toBe(true);
  });
});
