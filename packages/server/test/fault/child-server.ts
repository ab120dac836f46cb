// The server as an operator runs it — a child process on a database server of its own (embedded, in a
// temp folder) — so fault tests can kill its database, signal it and watch it exit without disturbing
// the other test files.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient, type ContentWorkspaceClient } from '@content-workspace/sdk';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = join(serverDir, '../..');

export type LogLine = { level: number; msg: string; [key: string]: unknown };

export type ChildServer = {
  /** The process started: the server itself (`tsx`, `built`), or the outer `pnpm`. */
  process: ChildProcess;
  url: string;
  port: number;
  dataDir: string;
  /** The demo user's token (printed by the server on its first start). */
  token: string;
  organizationId: string;
  client(token?: string): ContentWorkspaceClient;
  /** The server's JSON log lines so far. */
  logs: LogLine[];
  /** Resolves with the first log line (present or future) whose message matches. */
  waitForLog(message: RegExp, timeoutMs?: number): Promise<LogLine>;
  /** Every line of stdout so far, and everything written to stderr so far. */
  stdout: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The embedded postmaster's pid (from its lock file). */
  postmasterPid(): number;
  /** Runs `work` on a connection of its own to the server's database (as its superuser). */
  sql<T>(work: (client: pg.Client) => Promise<T>): Promise<T>;
  /** Stops the server if still running (SIGTERM, then SIGKILL of everything it started) and removes its folder. */
  cleanUp(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export type CapturedOutput = {
  /** The JSON log lines (stdout) so far. */
  logs: LogLine[];
  /** Every line of both streams so far (for failure messages). */
  output: string[];
  /** Every line of stdout so far. */
  stdout: string[];
  /** Resolves with the first log line (present or future) whose message matches. */
  waitForLog(message: RegExp, timeoutMs?: number): Promise<LogLine>;
  /** Everything written to stderr so far. */
  stderr(): string;
};

/** Collects a server process's JSON log lines from stdout, and its stderr. */
export function captureOutput(child: ChildProcess): CapturedOutput {
  const logs: LogLine[] = [];
  const output: string[] = [];
  const stdout: string[] = [];
  const waiters: { message: RegExp; resolve(line: LogLine): void }[] = [];
  let pending = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      output.push(line);
      stdout.push(line);
      if (!line.startsWith('{')) continue;
      try {
        const parsed = JSON.parse(line) as LogLine;
        logs.push(parsed);
        for (const waiter of waiters.filter((w) => w.message.test(parsed.msg))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(parsed);
        }
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output.push(chunk.toString());
    errors += chunk.toString();
  });
  const waitForLog = (message: RegExp, timeoutMs = 30_000) => {
    const found = logs.find((line) => message.test(line.msg));
    if (found) return Promise.resolve(found);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log line ${message} within ${timeoutMs} ms; output:\n${output.slice(-40).join('\n')}`)), timeoutMs);
      waiters.push({ message, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  };
  return { logs, output, stdout, waitForLog, stderr: () => errors };
}

/**
 * Starts the server in a child process: `node --import tsx src/dev.ts` in the server package (the
 * development entry, as the package's `start` script runs it: no tsx command between the test and the
 * server, which would relay a signal and kill a server slow to acknowledge it, docs/decisions.md),
 * the README's `pnpm start` at the repository root, or the build's `main.js` in `dist` under
 * plain node (see test/deploy/build.ts; production: on the embedded PostgreSQL by EMBEDDED_DATABASE).
 * Resolves when it is ready, with the demo user's token. `dataDir` runs it on the folder of an earlier
 * server (the caller removes it), whose demo token is `demoToken`: this start's banner then shows the
 * command that issues a new one instead.
 */
export async function startChildServer(options: {
  command: 'tsx' | 'pnpm start' | 'built';
  dist?: string;
  env?: Record<string, string>;
  dataDir?: string;
  demoToken?: string;
}): Promise<ChildServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cw-fault-'));
  chmodSync(dataDir, 0o755); // as root, the embedded PostgreSQL runs as user postgres, which must enter it
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BOOTSTRAP_DEMO: 'true',
    JOBS_ENABLED: 'true',
    ...(options.command === 'built' ? { EMBEDDED_DATABASE: 'true' } : {}),
    ...options.env,
  };
  // A process group of its own, so cleaning up can reach every process of the chain.
  const spawnOptions: SpawnOptions = { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] };
  const child: ChildProcess =
    options.command === 'tsx'
      ? spawn(process.execPath, ['--import', 'tsx', 'src/dev.ts'], { cwd: serverDir, ...spawnOptions })
      : options.command === 'built'
        ? spawn(process.execPath, ['--enable-source-maps', join(options.dist ?? join(serverDir, 'dist'), 'main.js')], { cwd: tmpdir(), ...spawnOptions })
        : spawn('pnpm', ['start'], { cwd: repoRoot, ...spawnOptions });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const { logs, output, stdout, waitForLog, stderr } = captureOutput(child);
  // The demo token comes in a banner on stderr, after the `listening` line (on a later start, the
  // command that issues another).
  const demoToken = () => (options.demoToken ? (/A new API token/.test(stderr()) ? options.demoToken : undefined) : /API token[^\n]*\n\s*\n\s*(cw_\S+)\n/.exec(stderr())?.[1]);
  let token: string | undefined;

  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  const postmasterPid = () => Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
    }
    // Whatever is left of the chain it started (a wrapper may exit before the server does).
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone
    }
    // The postmaster has a process group of its own: never leave one behind.
    if (existsSync(pidFile)) {
      const pid = postmasterPid();
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
    }
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await Promise.race([
      waitForLog(/^listening$/, 90_000),
      exited.then(({ code }) => Promise.reject(new Error(`the server exited (code ${code}) while starting:\n${output.slice(-40).join('\n')}`))),
    ]);
    for (let waited = 0; !token && !(token = demoToken()) && waited < 2000; waited += 50) await sleep(50);
    if (!token) throw new Error(`the server printed no demo token:\n${output.slice(-40).join('\n')}`);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;
  const client = (as?: string) => createClient({ baseUrl: url, maxRetries: 0, timeoutMs: 15_000, ...(as ? { token: as } : {}) });
  const orgs = await client(token).GET('/v1/orgs');
  const organizationId = orgs.data!.items[0]!.id;

  return {
    process: child,
    url,
    port,
    dataDir,
    token,
    organizationId,
    client,
    logs,
    waitForLog,
    stdout,
    stderr,
    exited,
    postmasterPid,
    async sql(work) {
      const connection = new pg.Client({ connectionString: readFileSync(join(dataDir, 'postgres.url'), 'utf8').trim() });
      connection.on('error', () => {}); // the database may be killed under it: that is the point
      await connection.connect();
      try {
        return await work(connection);
      } finally {
        await connection.end().catch(() => {});
      }
    },
    cleanUp,
  };
}

/** The innermost code of an error's cause chain (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, …), else its message. */
function errorCode(error: unknown): string {
  let code: string | undefined;
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (typeof e.code === 'string') code = e.code;
  return code ?? String(error);
}

export type Outcome = { title: string; status?: number; retryAfter?: string | null; body?: unknown; error?: string; at: number };

/**
 * Creates spaces titled `<prefix> <worker>-<n>` through the SDK from `workers` loops until `until()`
 * says stop, recording each outcome: the acknowledged ones must be in the database afterwards.
 */
export async function writeLoad(client: ContentWorkspaceClient, organizationId: string, options: { prefix: string; workers: number; until(): boolean }): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const loop = async (worker: number) => {
    for (let n = 0; !options.until(); n++) {
      const title = `${options.prefix} ${worker}-${n}`;
      try {
        const { response, error } = await client.POST('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title } });
        outcomes.push({ title, status: response.status, retryAfter: response.headers.get('retry-after'), body: error, at: Date.now() });
        if (!response.ok) await sleep(20);
      } catch (error) {
        outcomes.push({ title, error: errorCode(error), at: Date.now() });
        await sleep(20);
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, worker) => loop(worker)));
  return outcomes;
}
