// The CLI from the sources (`pnpm cli`, development): without DATABASE_URL it works on the embedded
// PostgreSQL of `pnpm start` (the running server's, or started for the command).
import { printedVersion } from '../version.js';

if (!printedVersion()) await (await import('./program.js')).runCli('development');
