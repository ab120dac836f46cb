// The server under test, as `pnpm start` runs it (response validation off, as in production).
import { loadConfig } from '../../packages/server/src/config.js';
import { createLogger } from '../../packages/server/src/logger.js';
import { startServer } from '../../packages/server/src/server.js';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', JOBS_ENABLED: 'false', BOOTSTRAP_DEMO: 'false' });
const running = await startServer(config, createLogger(config), { databaseUrl: process.env.DATABASE_URL!, migrate: false });
console.log(`ready ${new URL(running.url).port}`);
process.on('SIGTERM', () => running.close().then(() => process.exit(0)));
