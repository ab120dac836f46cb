// The server as an operator deploys it: `pnpm build`'s output run by plain node (no tsx), started the
// way deploy/systemd/content-workspace@.service starts it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { captureOutput, sleep, type CapturedOutput } from '../fault/child-server.js';

export const serverDir = fileURLToPath(new URL('../..', import.meta.url));
export const repoRoot = join(serverDir, '../..');

export type Build = { dir: string; remove(): void };

/**
 * Builds the server with the package's own build configuration (tsdown.config.ts, as `pnpm build`)
 * into a folder of its own beside `dist/` — same depth, so whatever the build finds relative to itself
 * is found the same way — so a test never runs a stale build and never replaces `dist/` under a
 * running server. Removed by `remove()`.
 */
export async function buildServer(): Promise<Build> {
  const dir = mkdtempSync(join(serverDir, '.dist-test-'));
  try {
    await promisify(execFile)(join(serverDir, 'node_modules/.bin/tsdown'), ['--out-dir', dir, '--log-level', 'warn'], { cwd: serverDir });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clean environment, as systemd gives a service: PATH and what is passed, nothing of the test runner's. */
export function serviceEnvironment(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env };
}

/**
 * `count` free ports, all different: each probe stays open until every port is drawn (probes opened and
 * closed one after the other may be given the same port twice, and an instance then fails to start).
 */
export async function freePorts(count: number): Promise<number[]> {
  const probes: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const probe = createServer();
      probes.push(probe);
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(0, '127.0.0.1', resolve);
      });
    }
    return probes.map((probe) => (probe.address() as { port: number }).port);
  } finally {
    await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  }
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the built CLI (`node dist/cli.js …`) to its end. */
export async function runCli(build: Build, args: string[], env: Record<string, string>): Promise<Exit> {
  return run(process.execPath, [join(build.dir, 'cli.js'), ...args], env);
}

/** Runs a command to its end, whatever its exit code. */
export function run(command: string, args: string[], env: Record<string, string>, cwd = tmpdir()): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: serviceEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const UNIT = join(repoRoot, 'deploy/systemd/content-workspace@.service');
const INSTALLED_NODE = '/usr/bin/node';
const INSTALLED_DIST = '/opt/content-workspace/current/dist/';

/**
 * The command and environment of `content-workspace@<port>` as the unit file states them (ExecStart,
 * Environment, with `%i` the port), pointed at this node and at `build` instead of the installed paths.
 */
export function unitCommand(build: Build, port: number): { command: string; args: string[]; env: Record<string, string> } {
  const unit = readFileSync(UNIT, 'utf8').replaceAll('%i', String(port));
  const execStart = /^ExecStart=(.+)$/m.exec(unit)?.[1];
  if (!execStart?.startsWith(INSTALLED_NODE) || !execStart.includes(INSTALLED_DIST)) {
    throw new Error(`${UNIT}: ExecStart no longer runs ${INSTALLED_NODE} on ${INSTALLED_DIST}main.js; update this test with it`);
  }
  const [, ...args] = execStart.replace(INSTALLED_DIST, `${build.dir}/`).split(/\s+/);
  const env: Record<string, string> = {};
  for (const [, assignments] of unit.matchAll(/^Environment=(.+)$/gm)) {
    for (const assignment of assignments!.split(/\s+/)) {
      const [name, ...value] = assignment.split('=');
      env[name!] = value.join('=');
    }
  }
  return { command: process.execPath, args, env };
}

export type Instance = CapturedOutput & {
  port: number;
  url: string;
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, as systemd stops it; resolves with the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Starts `content-workspace@<port>` from the build and resolves once it logged `listening`. */
export async function startInstance(build: Build, port: number, env: Record<string, string>): Promise<Instance> {
  const unit = unitCommand(build, port);
  const child = spawn(unit.command, unit.args, { cwd: repoRoot, env: serviceEnvironment({ ...env, ...unit.env }), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const output = captureOutput(child);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const exit = await Promise.race([exited, sleep(20_000).then(() => undefined)]);
    if (exit) return exit;
    child.kill('SIGKILL');
    return exited;
  };
  try {
    await Promise.race([
      // Generous: on a busy two-core machine, loading the modules alone takes tens of seconds.
      output.waitForLog(/^listening$/, 120_000),
      exited.then(({ code }) => Promise.reject(new Error(`instance ${port} exited (code ${code}) while starting:\n${output.output.slice(-30).join('\n')}`))),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...output, port, url: `http://127.0.0.1:${port}`, process: child, exited, stop };
}

/**
 * The keys that appear twice in one object of a JSON text (JSON.parse keeps the last silently: a log
 * line `{"pid":1,…,"pid":2}` says two things and shows one).
 */
export function duplicateKeys(text: string): string[] {
  const found: string[] = [];
  const open: ({ keys: Set<string>; expectingKey: boolean } | undefined)[] = []; // undefined: an array
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const object = open.at(-1);
      if (object?.expectingKey) {
        const key = text.slice(i + 1, end);
        if (object.keys.has(key)) found.push(key);
        object.keys.add(key);
        object.expectingKey = false;
      }
      i = end;
    } else if (char === '{') open.push({ keys: new Set(), expectingKey: true });
    else if (char === '[') open.push(undefined);
    else if (char === '}' || char === ']') open.pop();
    else if (char === ',' && open.at(-1)) open.at(-1)!.expectingKey = true;
  }
  return found;
}
