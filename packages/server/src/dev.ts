// Development entry: `pnpm start` runs it from the sources with tsx's loader (`node --import tsx`). Without DATABASE_URL it starts
// the embedded PostgreSQL in the checkout's `.data/` and creates the demo account on its first start.
// Unlike the production entry it is tied to the processes that launched it: killed without passing a
// signal on (`kill -9` of pnpm), they leave it re-parented, and it stops (launchers.ts).
import { printedVersion } from './version.js';

if (!printedVersion()) {
  const [{ runServer }, { watchLaunchers }] = await Promise.all([import('./run-server.js'), import('./launchers.js')]);
  await runServer('development', { whileRunning: (stop) => watchLaunchers(stop) });
}
