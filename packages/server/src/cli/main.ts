// The CLI of the build (`node dist/cli.js`, production): DATABASE_URL, or EMBEDDED_DATABASE=true with
// DATA_DIR, says where the database is. `pnpm cli` runs dev.ts instead.
import { printedVersion } from '../version.js';

if (!printedVersion()) await (await import('./program.js')).runCli('production');
