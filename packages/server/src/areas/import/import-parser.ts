// The import's use of the parse pool: each resource read in a worker within what is left of the
// import's time, and never longer than IMPORT_READ_DEADLINE_MS (`readDeadlineMs`). A read stopped by
// the import's own time limit stops the import (the limit is recorded, what was read is kept); one
// stopped by its own deadline or the worker's memory leaves that resource out, with the reason. The
// import's client leaving cancels the read (ParseCancelledError); a pool too busy answers 503.
import { ParseLimitError, type Lane, type ParsePool } from '../../parsing/parse-pool.js';
import type { TaskInput, TaskName, TaskOutput } from '../../parsing/tasks.js';
import type { ImportBudget } from './import-budget.js';

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

export class ImportParser {
  constructor(
    private readonly pool: ParsePool,
    private readonly budget: ImportBudget,
    /** One resource's read at most (IMPORT_READ_DEADLINE_MS). */
    private readonly readDeadlineMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  async run<K extends TaskName>(task: K, input: TaskInput<K>, lane: Lane = 'short'): Promise<ParseOutcome<TaskOutput<K>>> {
    const left = this.budget.remainingMs();
    if (left <= 0) {
      this.budget.stop('time');
      return { ok: false, reason: "the import's time limit was reached" };
    }
    const deadlineMs = Math.min(this.readDeadlineMs, left);
    try {
      return { ok: true, value: await this.pool.run(task, input, { deadlineMs, lane, ...(this.signal ? { signal: this.signal } : {}) }) };
    } catch (error) {
      if (!(error instanceof ParseLimitError)) throw error;
      if (error.limit === 'time' && deadlineMs < this.readDeadlineMs) {
        this.budget.stop('time');
        return { ok: false, reason: "the import's time limit was reached" };
      }
      if (error.limit === 'time') return { ok: false, reason: `could not be read within ${this.readDeadlineMs} ms` };
      return { ok: false, reason: error.limit === 'memory' ? 'too large to read' : 'nests too deeply to be read' };
    }
  }
}
