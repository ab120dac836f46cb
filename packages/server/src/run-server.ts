// The server process, shared by its two entries (main.ts for production, dev.ts for `pnpm start`):
// `--version`, the configuration, the start, the signals that stop it — and a start that fails says
// why in one line on stderr and exits 1.
import { ConfigError, loadConfig, lookAlikeVariables, lookAlikeWarning, type Config, type Mode } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { startServer } from './server.js';
import { armShutdownWatchdog } from './shutdown-watchdog.js';
import { StartFailure } from './start-failure.js';

const USAGE = `Usage: node dist/main.js [--version]

Starts the Content Workspace server. Its configuration comes from environment variables
(DATABASE_URL, PORT, HOST, PUBLIC_URL, …): see docs/deploy.md.
`;

export type RunOptions = {
  /** Called once the server listens, with the function that stops it gracefully. */
  whileRunning?(stop: (reason: string) => void): void;
};

export async function runServer(mode: Mode, options: RunOptions = {}): Promise<void> {
  // --version is answered by the entries before they load this (version.ts).
  const argument = process.argv[2];
  if (argument !== undefined) {
    process.stderr.write(argument === '--help' || argument === '-h' ? USAGE : `Unknown argument ${argument}.\n${USAGE}`);
    process.exitCode = argument === '--help' || argument === '-h' ? 0 : 1;
    return;
  }

  // Said first: a misspelt DATABASE_URL is why the configuration then finds none.
  const lookAlikes = lookAlikeVariables(process.env);
  for (const { name, meant } of lookAlikes) process.stderr.write(`${lookAlikeWarning(name, meant)}\n`);
  let config: Config;
  try {
    config = loadConfig(process.env, mode);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const log = createLogger(config);
  for (const { name, meant } of lookAlikes) log.warn({ variable: name, meant }, 'unknown variable ignored');

  let running;
  try {
    running = await startServer(config, log);
  } catch (error) {
    failedToStart(error, log);
    process.exit(1);
  }
  let stopping = false;
  const stop = (reason: string) => {
    // A Ctrl+C may reach this process twice (from the terminal and relayed by pnpm): once is enough.
    if (stopping) return;
    stopping = true;
    log.info({ reason, timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
    // The promise to the operator: gone within SHUTDOWN_TIMEOUT_MS, whatever hangs.
    setTimeout(() => {
      log.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    // …even when the event loop is blocked and that timer cannot fire.
    armShutdownWatchdog(config.shutdownTimeoutMs);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  options.whileRunning?.(stop);
}

/**
 * One line on stderr for people, and a `fatal` JSON line for the log collector: a StartFailure's
 * sentence alone, anything else with its stack in the log and its message on stderr.
 */
function failedToStart(error: unknown, log: Logger) {
  if (error instanceof StartFailure) {
    log.fatal(error.details, error.message);
    process.stderr.write(`${error.message}\n`);
    return;
  }
  log.fatal({ err: error }, 'could not start');
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Could not start: ${message.split('\n')[0]} (the details are in the log).\n`);
}
