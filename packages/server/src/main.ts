// Production entry: `node dist/main.js` (the build, the release archive, the systemd unit). It needs
// DATABASE_URL (or an explicit EMBEDDED_DATABASE=true), creates no demo account, and runs until it is
// signalled — whatever happens to the process that launched it (nohup, a wrapper script, a supervisor
// that double-forks). `pnpm start` runs dev.ts instead.
import { printedVersion } from './version.js';

if (!printedVersion()) {
  const { runServer } = await import('./run-server.js');
  await runServer('production');
}
