// Process entry: `pnpm start`.
import { ConfigError, loadConfig } from './config.js';
import { DatabaseUnreachableError } from './db/unreachable.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { armShutdownWatchdog } from './shutdown-watchdog.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const log = createLogger(config);

try {
  const running = await startServer(config, log);
  let stopping = false;
  const shutdown = (reason: string) => {
    // A Ctrl+C reaches this process twice (from the terminal and relayed by tsx): once is enough.
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
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // Started through wrappers (pnpm, tsx), this process is re-parented when the one that started it dies
  // without passing a signal on (killed with SIGKILL): stop rather than run on unsupervised.
  const parent = process.ppid;
  if (parent > 1) {
    setInterval(() => {
      if (process.ppid !== parent) shutdown('the parent process exited');
    }, 1000).unref();
  }
} catch (error) {
  if (error instanceof DatabaseUnreachableError) {
    // Something the operator fixes (an address, a password, a firewall): one sentence, no stack.
    log.fatal({ database: error.address }, error.message);
    console.error(error.message);
  } else log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
