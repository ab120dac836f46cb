// Child processes for servers under test and for the load generator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCore } from './cpus.js';

const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

/**
 * Starts `script` (TypeScript, through tsx) on `core`, resolving once it prints `ready <port>`. With
 * `nodeArgs` (e.g. `--cpu-prof`, which NODE_OPTIONS refuses), node runs it itself with tsx as a loader.
 */
export function startScript(script: string, core: number, env: Record<string, string>, nodeArgs?: string[]): Promise<{ child: ChildProcess; port: number }> {
  const command = [...onCore(core), ...(nodeArgs ? [process.execPath, ...nodeArgs, '--import', 'tsx'] : [tsx]), script];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready:\n${output}`)));
    child.on('error', reject);
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Runs `script` to completion on `core` and parses the JSON it prints last. `args` travel in a temp
 * file (they can be larger than one command-line argument may be).
 */
export function runScript<T>(script: string, core: number, args: unknown): Promise<T> {
  const file = join(mkdtempSync(join(tmpdir(), 'cw-bench-args-')), 'args.json');
  writeFileSync(file, JSON.stringify(args));
  const command = [...onCore(core), tsx, script, file];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      rmSync(dirname(file), { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`${script} failed (${code})`));
      try {
        resolve(JSON.parse(output.trim().split('\n').at(-1)!) as T);
      } catch (error) {
        reject(error);
      }
    });
  });
}
