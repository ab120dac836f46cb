// Servers to compare, each run the way an operator runs it: this working tree built (`pnpm build`'s
// tsdown configuration, into a folder of its own) and run by plain node, and earlier commits of the
// repository as sides of the same run — each in a git worktree under /tmp (never inside the clone),
// installed from the pnpm store (downloading only what a fresh machine's store lacks), built when the commit has a build (from sources with tsx when
// it has none: the foundation commit `d00cf1f` had none), then started on a database of its own.
//
// A commit's worktree is kept between runs (`/tmp/cw-bench-history/<sha>`, ready once its install and
// build finished): building an old commit costs a minute, and it never changes.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { onCore } from './cpus.js';

const run = promisify(execFile);
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const HISTORY_ROOT = '/tmp/cw-bench-history';

export type ServerBuild = {
  /** How reports name it: `this tree` or the commit's short hash. */
  label: string;
  /** The commit (full hash), for a commit's build. */
  commit?: string;
  /** The command starting the server (`node …/main.js`, or node with tsx for a commit without a build). */
  main: string[];
  /** The command running the CLI (`admin bootstrap`, `admin create-user`: the seed's users and tokens). */
  cli: string[];
  /** The folder the commands run in. */
  cwd: string;
  /** Removes what the build made for this run only (a commit's worktree is kept). */
  remove(): void;
};

/** This working tree, built with the server package's tsdown configuration into a folder of its own. */
export async function buildWorkingTree(): Promise<ServerBuild> {
  const serverDir = join(repoRoot, 'packages/server');
  // Beside dist/, at the same depth: whatever the build finds relative to itself is found the same way.
  const dir = mkdtempSync(join(serverDir, '.dist-bench-'));
  try {
    await run(join(serverDir, 'node_modules/.bin/tsdown'), ['--out-dir', dir, '--log-level', 'warn'], { cwd: serverDir });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    label: 'this tree',
    main: [process.execPath, join(dir, 'main.js')],
    cli: [process.execPath, join(dir, 'cli.js')],
    cwd: serverDir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An earlier commit's sources, installed (from the pnpm store, downloading only what it lacks) in its own worktree under /tmp,
 * not built: for a benchmark that imports a commit's modules beside this tree's (bench/events.ts).
 * Its folder.
 */
export async function checkoutCommit(revision: string): Promise<{ commit: string; dir: string }> {
  const git = (...args: string[]) => run('git', args, { cwd: repoRoot }).then(({ stdout }) => stdout.trim());
  const commit = await git('rev-parse', '--verify', `${revision}^{commit}`);
  const dir = join(HISTORY_ROOT, commit);
  const installed = join(dir, '.bench-installed');
  if (!existsSync(installed) && !existsSync(join(dir, '.bench-ready'))) {
    console.log(`installing ${revision} (${commit.slice(0, 7)}) in ${dir}`);
    mkdirSync(HISTORY_ROOT, { recursive: true });
    if (existsSync(dir)) {
      // An install that did not finish: start again from a clean worktree.
      await git('worktree', 'remove', '--force', dir).catch(() => rmSync(dir, { recursive: true, force: true }));
      await git('worktree', 'prune');
    }
    await git('worktree', 'add', '--detach', dir, commit);
    // --prefer-offline, not --offline: an old commit's packages may be missing from a fresh machine's store.
    await run('pnpm', ['install', '--prefer-offline', '--frozen-lockfile'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
    writeFileSync(installed, `${new Date().toISOString()}\n`);
  }
  return { commit, dir };
}

/** An earlier commit (any git revision: `d00cf1f`, `main~3`), built in its own worktree under /tmp. */
export async function buildCommit(revision: string): Promise<ServerBuild> {
  const { commit, dir } = await checkoutCommit(revision);
  const ready = join(dir, '.bench-ready');
  const serverDir = join(dir, 'packages/server');
  if (!existsSync(ready)) {
    console.log(`building ${revision} (${commit.slice(0, 7)}) in ${dir}`);
    if (hasBuild(serverDir)) await run('pnpm', ['--filter', '@content-workspace/server', 'build'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
    writeFileSync(ready, `${new Date().toISOString()}\n`);
  }
  const built = hasBuild(serverDir);
  // Without a build, node itself runs the sources with tsx as its loader (no tsx parent process).
  const fromSources = (entry: string) => [process.execPath, '--import', 'tsx', join(serverDir, entry)];
  return {
    label: commit.slice(0, 7),
    commit,
    main: built ? [process.execPath, join(serverDir, 'dist/main.js')] : fromSources('src/main.ts'),
    cli: built ? [process.execPath, join(serverDir, 'dist/cli.js')] : fromSources('src/cli/main.ts'),
    cwd: serverDir,
    remove: () => {},
  };
}

function hasBuild(serverDir: string): boolean {
  const manifest = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return Boolean(manifest.scripts?.build);
}

/**
 * The environment every compared server gets: production defaults (logging at `info`, the access log),
 * rate limits on with budgets no run reaches (the per-minute setting of commits before per-token
 * limits too), no jobs, no demo data.
 */
export function comparedServerEnvironment(databaseUrl: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    JOBS_ENABLED: 'false',
    BOOTSTRAP_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_PER_TOKEN: '1000000',
    RATE_LIMIT_PER_ADDRESS: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
  };
}

export type StartedServer = { child: ChildProcess; url: string; label: string };

/** Starts a build's server on `core` and waits until `/healthz` answers. Its logs are discarded. */
export async function startBuild(build: ServerBuild, core: number, env: Record<string, string>, nodeArgs: string[] = []): Promise<StartedServer> {
  const [node, ...args] = build.main;
  const command = [...onCore(core), node!, ...nodeArgs, ...args];
  const child = spawn(command[0]!, command.slice(1), { cwd: build.cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${build.label} exited (${child.exitCode}) before it was ready:\n${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url, label: build.label };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${build.label} did not answer within 2 minutes:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs a build's CLI to its end; its stdout. */
export async function runCli(build: ServerBuild, args: string[], env: Record<string, string>): Promise<string> {
  const [node, ...rest] = build.cli;
  const { stdout } = await run(node!, [...rest, ...args], { cwd: build.cwd, env });
  return stdout;
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

