// Process entry: `pnpm start`.
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

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
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
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
} catch (error) {
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
