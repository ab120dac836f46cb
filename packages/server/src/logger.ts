import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** JSON lines on stdout (the server), or on `stream` (the CLI: stderr, its stdout being its output). */
export function createLogger(config: Pick<Config, 'logLevel'>, stream: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    pino.destination({ fd: stream === 'stdout' ? 1 : 2, sync: true }),
  );
}
