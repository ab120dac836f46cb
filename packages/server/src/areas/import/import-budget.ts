// The limits of one import (pages, link depth, bytes, time) and what it left out. Reaching a limit
// does not fail the import: it stops reading, keeps what it read, and the answer says which limit
// stopped it. A page or file that fails on its own is left out and listed (`skipped`).
import type { components } from '@content-workspace/contract';
import type { Config } from '../../config.js';

export type ImportLimit = components['schemas']['ImportLimit'];
export type SkippedResource = components['schemas']['ImportSkippedResource'];

/** How many left-out resources the answer lists (the spec's `maxItems`). */
const MAX_SKIPPED_LISTED = 100;

export class ImportBudget {
  readonly limits: Config['import'];
  private readonly deadline: number;
  private bytesUsed = 0;
  private pagesCounted = 0;
  /** The limit that stopped the import, if one did. */
  stoppedBy: ImportLimit | undefined;
  readonly skipped: SkippedResource[] = [];

  constructor(limits: Config['import'], now = Date.now()) {
    this.limits = limits;
    this.deadline = now + limits.timeLimitMs;
  }

  /** Records the limit that stopped the import (the first one counts). */
  stop(limit: ImportLimit): void {
    this.stoppedBy ??= limit;
  }

  get stopped(): boolean {
    return this.stoppedBy !== undefined;
  }

  remainingMs(now = Date.now()): number {
    return Math.max(0, this.deadline - now);
  }

  /** False, and the import stopped, once the time is up. */
  hasTime(): boolean {
    if (this.remainingMs() > 0) return true;
    this.stop('time');
    return false;
  }

  get bytesLeft(): number {
    return Math.max(0, this.limits.maxBytes - this.bytesUsed);
  }

  /** Counts `bytes` read; false (and the import stopped) when they do not fit in what is left. */
  takeBytes(bytes: number): boolean {
    if (bytes > this.bytesLeft) {
      this.stop('bytes');
      return false;
    }
    this.bytesUsed += bytes;
    return true;
  }

  /** True while another page fits; false (and the import stopped) once the page limit is reached. */
  roomForPage(): boolean {
    if (this.pagesCounted < this.limits.maxPages) return true;
    this.stop('pages');
    return false;
  }

  /** Counts a page read. */
  countPage(): void {
    this.pagesCounted++;
  }

  skip(resource: string, reason: string): void {
    if (this.skipped.length < MAX_SKIPPED_LISTED) this.skipped.push({ resource, reason });
  }
}
