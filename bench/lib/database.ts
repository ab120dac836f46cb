// A PostgreSQL of the benchmark's own: the embedded server in a fresh temp folder, migrated.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../packages/server/src/db/embedded.js';
import { createLogger } from '../../packages/server/src/logger.js';
import { migrate } from '../../packages/server/src/server.js';

export type BenchDatabase = { url: string; postmasterPid: () => number | undefined; stop(): Promise<void> };

export async function startBenchDatabase(): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-'));
  chmodSync(dir, 0o755);
  const log = createLogger({ logLevel: 'warn' });
  const embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), database: 'bench', log });
  await migrate(embedded.url, log);
  return {
    url: embedded.url,
    postmasterPid: () => {
      try {
        return Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return undefined;
      }
    },
    async stop() {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
