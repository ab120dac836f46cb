// A PostgreSQL of the benchmark's own: the embedded server in a fresh temp folder, migrated (or in a
// folder that is kept, so that a costly seed can be reused by the next run).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../packages/server/src/db/embedded.js';
import { createLogger } from '../../packages/server/src/logger.js';
import { migrate } from '../../packages/server/src/db/migrate.js';
// The area registry: the services' mappers decide permissions with its access rules
// (packages/server/src/areas/permissions-objects.ts); the server loads it through server.ts, a bench here.
import '../../packages/server/src/areas/index.js';

export type BenchDatabase = { url: string; postmasterPid: () => number | undefined; stop(): Promise<void> };

/** `keepIn`: the folder of a database kept after the run (created when missing), instead of a temporary one. */
export async function startBenchDatabase(options: { keepIn?: string } = {}): Promise<BenchDatabase> {
  const dir = options.keepIn ?? mkdtempSync(join(tmpdir(), 'cw-bench-'));
  mkdirSync(dir, { recursive: true });
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
      if (!options.keepIn) rmSync(dir, { recursive: true, force: true });
    },
  };
}
