// Whether the database can be reached, as the server's connections see it, logged once per change: one
// warning when an outage starts and one when it ends, however many connections, requests and job polls
// fail in between (each of those only at `debug`). Fed by the pools (db/database.ts: connections made,
// failed or broken) and by the connections of their own (the job queue, the token listener).
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from './errors.js';
import { unreachableReason } from './unreachable.js';

export class DatabaseAvailability {
  private downSince: number | undefined;
  private failures = 0;

  constructor(
    private readonly log: Logger,
    /** `host:port/database`, never the password (unreachable.ts `databaseAddress`). */
    private readonly address: string,
  ) {}

  /** False from the first failure of an outage until a connection is made again. */
  get available(): boolean {
    return this.downSince === undefined;
  }

  /**
   * Reports `error` of a connection (`source`: which one). An error that says the database is away
   * starts an outage (logged once) or counts in the current one; any other error is the caller's to log:
   * returns whether it was taken.
   */
  failed(error: unknown, source: string): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.failures++;
    const reason = unreachableReason(error);
    if (this.downSince !== undefined) {
      this.log.debug({ source, reason }, 'database still unavailable');
      return true;
    }
    this.downSince = Date.now();
    this.log.warn({ database: this.address, source, reason }, 'database unavailable: requests that need it are answered 503 until it is back');
    return true;
  }

  /** A connection was made: an outage, if any, is over. */
  succeeded(): void {
    if (this.downSince === undefined) return;
    this.log.warn({ database: this.address, downMs: Date.now() - this.downSince, failures: this.failures }, 'database available again');
    this.downSince = undefined;
    this.failures = 0;
  }
}
