// Other processes of the machine, by pid: whether one still runs, its parent and its command line
// (Linux's /proc; elsewhere what `kill(pid, 0)` tells).
import { readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command (which may hold spaces and parentheses): state, ppid, … */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs. A zombie (exited, not yet reaped by its parent) does not. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = statFields(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}

/** The parent of `pid` and its command line, or undefined where there is no /proc (or no such process). */
export function processInfo(pid: number): { parent: number; argv: string[] } | undefined {
  const parent = Number(statFields(pid)?.[1]);
  if (!Number.isInteger(parent)) return undefined;
  try {
    return { parent, argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) };
  } catch {
    return undefined;
  }
}
