// Pinning processes to cores where `taskset` exists, so the server under test has one core and the
// load generator and database share the other (DESIGN.md §9 anchors were measured that way).
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

export const canPin = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return cpus().length >= 2;
  } catch {
    return false;
  }
})();

/** Prefix for spawning a command on `core` (empty when pinning is unavailable). */
export function onCore(core: number): string[] {
  return canPin ? ['taskset', '-c', String(core)] : [];
}

/** Moves a running process (all its threads; children it forks later inherit it) to `core`. */
export function pin(pid: number, core: number): void {
  if (canPin) execFileSync('taskset', ['-a', '-c', '-p', String(core), String(pid)], { stdio: 'ignore' });
}
