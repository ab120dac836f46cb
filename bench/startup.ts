// `pnpm bench startup [--against <revision>] [--rounds N]` (issue 30, second round): what one start of
// the built server costs — wall time from spawn to the first answered `/readyz`, and the CPU time the
// process used until then — on a database already migrated and holding its keys (a restart; the first
// start's key generation is done before timing). With `--against`, earlier commits are built (bench/lib/
// builds.ts) and started in the same rounds, in rotated order, each on a database of its own, so a
// change shows as a ratio on the same machine.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { buildCommit, buildWorkingTree, comparedServerEnvironment, freePort, type ServerBuild } from './lib/builds.js';
import { startBenchDatabase } from './lib/database.js';
import { stop } from './lib/processes.js';

export type StartupTimes = { label: string; wallMs: number[]; cpuMs: number[] };
export type StartupResult = { sides: StartupTimes[]; loadAverage: string[] };

/** CPU time (user + system) `pid` has used, in ms, from /proc (clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A start's patience: on a machine at a load average of 30–40, a start of 5bc4894 took over 2 minutes. */
const START_DEADLINE_MS = 10 * 60_000;

/** Spawns the build's server, polls `/readyz` every 5 ms; wall and CPU time at its first 200, then stops it. */
async function timeOneStart(build: ServerBuild, env: Record<string, string>): Promise<{ wallMs: number; cpuMs: number }> {
  const [node, ...args] = build.main;
  const started = performance.now();
  const child = spawn(node!, args, { cwd: build.cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${env.PORT}/readyz`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${build.label} exited (${child.exitCode}) before answering`);
      try {
        if ((await fetch(url)).ok) {
          const wallMs = performance.now() - started;
          return { wallMs, cpuMs: processCpuMs(child.pid!) };
        }
      } catch {
        // not listening yet
      }
      if (performance.now() - started > START_DEADLINE_MS) throw new Error(`${build.label} did not answer within ${START_DEADLINE_MS / 60_000} minutes`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await stop(child);
  }
}

export async function runStartupBenchmark(options: { rounds: number; against: string[] }): Promise<StartupResult> {
  const database = await startBenchDatabase();
  const builds: ServerBuild[] = [];
  try {
    builds.push(await buildWorkingTree());
    for (const revision of options.against) builds.push(await buildCommit(revision));
    const envs: Record<string, string>[] = [];
    for (const [index, build] of builds.entries()) {
      const name = `startup_${index}`;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      // A copy of the benchmark's migrated database (the compared commits share its migrations).
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${new URL(database.url).pathname.slice(1)}`);
      await admin.end();
      const url = new URL(database.url);
      url.pathname = `/${name}`;
      const env = { ...comparedServerEnvironment(url.toString(), await freePort()), LOG_LEVEL: 'warn' };
      envs.push(env);
      // The first start makes the keys (and would migrate what the template lacks): a restart's state, untimed.
      await timeOneStart(build, env);
    }
    const sides: StartupTimes[] = builds.map((build) => ({ label: build.label, wallMs: [], cpuMs: [] }));
    const loadAverage: string[] = [];
    for (let round = 0; round < options.rounds; round++) {
      loadAverage.push(loadavg()[0]!.toFixed(1));
      // Rotated order: no build always goes first (or last) on a machine whose load drifts.
      for (let step = 0; step < builds.length; step++) {
        const index = (round + step) % builds.length;
        const { wallMs, cpuMs } = await timeOneStart(builds[index]!, envs[index]!);
        sides[index]!.wallMs.push(wallMs);
        sides[index]!.cpuMs.push(cpuMs);
      }
    }
    return { sides, loadAverage };
  } finally {
    for (const build of builds) build.remove();
    await database.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function formatStartup(result: StartupResult): string {
  const lines = [
    `Start of the built server (spawn to the first answered /readyz, database migrated, keys stored); load average per round: ${result.loadAverage.join(', ')}`,
    '',
    '| server | wall ms, median (each round) | CPU ms, median (each round) |',
    '|---|---|---|',
  ];
  for (const side of result.sides) {
    const each = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    lines.push(`| ${side.label} | ${median(side.wallMs).toFixed(0)} (${each(side.wallMs)}) | ${median(side.cpuMs).toFixed(0)} (${each(side.cpuMs)}) |`);
  }
  return lines.join('\n');
}
