import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * The server's lines are buffered and written in chunks of about this size (one write for some twenty
 * access-log lines) rather than one blocking write per line: a write per request was a fifth of the
 * access log's cost (bench/README.md, issue 30), and a blocking write stalls the event loop whenever
 * whoever reads stdout (journald, a container runtime) is slow.
 */
const BUFFERED_BYTES = 4096;
/** What waits in the buffer is written at least this often, so a quiet server's lines are not held. */
const FLUSH_EVERY_MS = 250;

/**
 * JSON lines on stdout (the server), or on `stream` (the CLI: stderr, its stdout being its output, each
 * line written at once). The server's buffer is written out when the process exits, also on a fatal
 * error or a signal (pino's exit handlers); only a kill -9 or a power cut loses its last quarter second.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, stream: 'stdout' | 'stderr' = 'stdout'): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
  if (stream === 'stderr') return pino(options, pino.destination({ fd: 2, sync: true }));
  const destination = pino.destination({ fd: 1, sync: false, minLength: BUFFERED_BYTES });
  setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
  return pino(options, destination);
}
