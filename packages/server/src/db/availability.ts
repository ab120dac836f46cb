// Whether the database can be reached, as the server's connections see it, logged once per change: one
// warning when an outage starts and one when it ends, however many connections, requests and job polls
// fail in between (each of those only at `debug`). Fed by the pools (db/database.ts: connections made,
// failed or broken; the job queue's pool is one of them) and by the token listener's own connection.
//
// A failure is evidence about the moment its connection was made (or, for an attempt that failed, when
// it began), and a connection made about the moment its attempt began. Neither tells about a later
// state: a success whose attempt began before the outage did ends no outage, and a failure from before
// the last outage ended starts no outage. After a restart, a connection the starting server refused a
// moment before it was ready, or a backend of the killed server that ends late, can report after the
// first new connection was made (seen on a loaded CI machine: a second outage logged a moment after the
// first ended).
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from './errors.js';
import { unreachableReason } from './unreachable.js';

export class DatabaseAvailability {
  private downSince: number | undefined;
  /** When the last outage ended (0: none has). */
  private recoveredAt = 0;
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
   * Reports `error` of a connection (`source`: which one) made at `since` (for an attempt that failed,
   * when it began). An error that says the database is away starts an outage (logged once) or counts in
   * the current one, unless the connection is older than the last recovery; any other error is the
   * caller's to log: returns whether it was taken.
   */
  failed(error: unknown, source: string, since: number): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    const reason = unreachableReason(error);
    if (this.downSince === undefined && since < this.recoveredAt) {
      this.log.debug({ source, reason }, 'database connection from before the outage ended failed');
      return true;
    }
    this.failures++;
    if (this.downSince !== undefined) {
      this.log.debug({ source, reason }, 'database still unavailable');
      return true;
    }
    this.downSince = Date.now();
    this.log.warn({ database: this.address, source, reason }, 'database unavailable: requests that need it are answered 503 until it is back');
    return true;
  }

  /**
   * A connection was made, its attempt begun at `attemptedAt`: an outage, if any, is over, unless the
   * attempt began before the outage did (a backend the killed server forked a moment before it died
   * still completes its start-up: seen on CI, 8 ms after the first failure).
   */
  succeeded(attemptedAt: number): void {
    if (this.downSince === undefined) return;
    if (attemptedAt <= this.downSince) {
      this.log.debug('database connection begun before the outage was made');
      return;
    }
    this.recoveredAt = Date.now();
    this.log.warn({ database: this.address, downMs: this.recoveredAt - this.downSince, failures: this.failures }, 'database available again');
    this.downSince = undefined;
    this.failures = 0;
  }
}
