// A PostgreSQL server for work that needs a throw-away database (the test run's template, `pnpm db:types`):
// the server of TEST_DATABASE_URL when set, else an embedded one in a fresh temporary folder, removed by
// `stop`. Kept out of src/: the server itself never reads TEST_DATABASE_URL.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import type { Logger } from '../src/logger.js';

export type ScratchPostgres = {
  /** A URL with the right to create databases. */
  adminUrl: string;
  /** Stops the embedded server and removes its folder (nothing for TEST_DATABASE_URL). */
  stop: () => Promise<void>;
};

/** `folderPrefix` names the temporary folder (e.g. `cw-test-`), to tell whose it is. */
export async function startScratchPostgres(folderPrefix: string, log: Logger): Promise<ScratchPostgres> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, stop: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as user postgres when we are root
  const embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), database: 'postgres', log, durability: 'fast' });
  return {
    adminUrl: embedded.url,
    stop: async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
