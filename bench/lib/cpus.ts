// Pinning processes to cores where `taskset` exists, so the server under test has one core and the
// load generator and database share the other (the design's anchor figures in docs/design/budgets.md were measured that way).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * CPU seconds (user + system) used so far by `pid` and its descendants (tsx runs the script in a child
 * process; PostgreSQL runs a process per connection), from /proc; undefined where /proc is missing. A
 * process that ended counts through its parent's total of reaped children (a backend whose connection
 * closed is in its postmaster's). CPU time per request is steadier than requests per second on a
 * machine that is not quiet.
 */
export function processTreeCpuSeconds(pid: number): number | undefined {
  let stats: Array<{ pid: number; ppid: number; ticks: number }>;
  try {
    stats = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => {
        try {
          // Fields after the command (which may contain spaces), from "state": ppid is 2nd, utime 12th, stime
          // 13th, and the reaped children's cutime and cstime 14th and 15th.
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
          return [{ pid: Number(name), ppid: Number(fields[1]), ticks }];
        } catch {
          return []; // the process ended meanwhile
        }
      });
  } catch {
    return undefined;
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const stat of stats) if (!tree.has(stat.pid) && tree.has(stat.ppid)) grew = tree.add(stat.pid) !== undefined;
  }
  return stats.filter((stat) => tree.has(stat.pid)).reduce((sum, stat) => sum + stat.ticks, 0) / 100;
}
