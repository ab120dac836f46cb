// Counts the SQL statements this process sends, for tests that promise a path costs no query (or one):
// every pool's clients are pg.Client (db/database.ts subclasses it and calls through), so wrapping its
// prototype's `query` sees them all — the app's statements, the rate-limit store's, any pool's.
import pg from 'pg';

export type QueryCounter = { readonly texts: string[]; restore(): void };

/** Records the text of every statement sent from now until `restore()`. */
export function countQueries(): QueryCounter {
  const texts: string[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    texts.push(typeof first === 'string' ? first : String((first as { text?: unknown } | undefined)?.text ?? first));
    return original.apply(this, args);
  };
  return {
    texts,
    restore() {
      prototype.query = original;
    },
  };
}
