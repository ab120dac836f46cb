// Copying rows of a table into the same table (a transfer under another organization, a duplicate under
// another space) with the columns read from the database: every column is carried as it is unless the
// caller sets it, so a column a migration adds is copied without anyone listing it.
import { sql, type RawBuilder } from 'kysely';
import { catalogueTable, type CatalogueTable } from './catalogue.js';
import type { Executor } from './database.js';

export type RowCopy = {
  /** Columns (snake_case) given a new value: an SQL expression that may read the source row as `src`. */
  set: Readonly<Record<string, RawBuilder<unknown> | string | null>>;
  /** Which rows of the table to copy, reading the source row as `src`. */
  where: RawBuilder<boolean>;
  /** Keep rows the target already has (content objects shared by address). */
  skipExisting?: boolean;
  /** Insert in this order (columns of the source row), so concurrent writers lock rows in one order. */
  orderBy?: readonly string[];
};

/**
 * INSERT … SELECT from `table` into itself. Generated columns are recomputed; identity columns keep
 * their value (OVERRIDING SYSTEM VALUE), unless set.
 */
export async function copyRows(db: Executor, tableOrName: CatalogueTable | string, copy: RowCopy): Promise<number> {
  const table = typeof tableOrName === 'string' ? await catalogueTable(db, tableOrName) : tableOrName;
  const unknown = Object.keys(copy.set).filter((name) => !table.columns.some((column) => column.name === name && !column.generated));
  if (unknown.length > 0) throw new Error(`${table.name} has no writable column ${unknown.join(', ')}`);
  const columns = table.columns.filter((column) => !column.generated);
  const values = columns.map((column) => (column.name in copy.set ? valueOf(copy.set[column.name]!) : sql`src.${sql.ref(column.name)}`));
  const overriding = columns.some((column) => column.identity === 'always') ? sql` OVERRIDING SYSTEM VALUE` : sql``;
  const result = await sql`
    INSERT INTO ${sql.table(table.name)} (${sql.join(columns.map((column) => sql.ref(column.name)))})${overriding}
    SELECT ${sql.join(values)} FROM ${sql.table(table.name)} AS src WHERE ${copy.where}
    ${copy.orderBy ? sql`ORDER BY ${sql.join(copy.orderBy.map((column) => sql.ref(`src.${column}`)))}` : sql``}
    ${copy.skipExisting ? sql`ON CONFLICT DO NOTHING` : sql``}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

function valueOf(value: RawBuilder<unknown> | string | null): RawBuilder<unknown> {
  return typeof value === 'string' || value === null ? sql`${value}` : value;
}
