// The development server's tie to what launched it. `pnpm start` is a chain — pnpm, pnpm (the
// package's script), then this process (node with tsx's loader; `pnpm cli`: tsx, then this process) — and a launcher killed outright (SIGKILL) passes no
// signal on: its children are re-parented and would serve on with nobody to stop them. So the
// development entry watches the chain and stops when a link of it is gone. The production entry
// (main.ts) never does: it runs until signalled.
import { isRunning, processInfo } from './processes.js';

/** A launcher is a package manager or tsx, however it was started (a script with a shebang, `node …/cli.mjs`). */
const LAUNCHER = /(^|\/)(pnpm|npm|npx|yarn|tsx)(\.[cm]?js)?$|\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(pnpm|npm|yarn|tsx)\//;

/**
 * This process's launchers, nearest first: its parent, and above it each ancestor that is a launcher
 * too (pnpm, tsx), up to the first that is not (the shell, a terminal, a test runner). Where there is
 * no /proc (macOS, Windows), the parent alone.
 */
export function launcherChain(): number[] {
  const chain = [process.ppid];
  for (let info = processInfo(process.ppid); info && info.parent > 1; ) {
    const above = processInfo(info.parent);
    if (!above || !above.argv.slice(0, 3).some((arg) => LAUNCHER.test(arg))) break;
    chain.push(info.parent);
    info = above;
  }
  return chain;
}

/** Calls `stop` (once a second at most, until it stops the process) when a launcher of this process is gone. */
export function watchLaunchers(stop: (reason: string) => void): void {
  const parent = process.ppid;
  if (parent <= 1) return; // started by init itself: nothing to outlive
  const chain = launcherChain();
  setInterval(() => {
    if (process.ppid !== parent) stop('the process that launched it exited');
    else {
      const gone = chain.find((pid) => !isRunning(pid));
      if (gone !== undefined) stop(`a process that launched it (pid ${gone}) exited`);
    }
  }, 1000).unref();
}
