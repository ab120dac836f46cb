// The database's own description of its tables, read from pg_catalog: columns (which ones PostgreSQL
// writes itself), primary keys and foreign keys. Code that copies rows reads the columns from here, so
// a column added by a migration is copied without anyone listing it; the lifecycle (areas/lifecycle.ts)
// follows the foreign keys to know which rows belong to a space or a collection.
import { sql } from 'kysely';
import type { Executor } from './database.js';
import { rawQuery, value } from './raw-query.js';

export type CatalogueColumn = {
  name: string;
  /** `GENERATED ALWAYS AS (…) STORED`: PostgreSQL computes it, an INSERT may not name it. */
  generated: boolean;
  /** An identity column: `always` refuses a value unless the INSERT says OVERRIDING SYSTEM VALUE. */
  identity: 'always' | 'by-default' | null;
};

export type ForeignKey = {
  name: string;
  table: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  onDelete: 'cascade' | 'set-null' | 'set-default' | 'restrict' | 'no-action';
};

export type CatalogueTable = { name: string; columns: CatalogueColumn[]; primaryKey: string[] };

export type Catalogue = {
  tables: ReadonlyMap<string, CatalogueTable>;
  foreignKeys: readonly ForeignKey[];
};

const ON_DELETE: Record<string, ForeignKey['onDelete']> = { c: 'cascade', n: 'set-null', d: 'set-default', r: 'restrict', a: 'no-action' };

let cached: Promise<Catalogue> | undefined;

/**
 * The catalogue, read once per process: every database a process serves is migrated to the schema of
 * its code (a migration that changes a table's columns ships with a new process).
 */
export function catalogue(db: Executor): Promise<Catalogue> {
  if (!cached) {
    cached = readCatalogue(db);
    cached.catch(() => (cached = undefined));
  }
  return cached;
}

/** The named table (snake_case) of the catalogue. */
export async function catalogueTable(db: Executor, name: string): Promise<CatalogueTable> {
  const table = (await catalogue(db)).tables.get(name);
  if (!table) throw new Error(`The database has no table ${name}`);
  return table;
}

// The catalogue's own rows (pg_catalog: no generated types; the raw-SQL test checks the declared ones).
const columnsQuery = rawQuery({
  name: 'catalogueColumns',
  columns: { table: value('name'), column: value('name'), generated: value('"char"'), identity: value('"char"') },
  statement: () => sql`
    SELECT c.relname AS table, a.attname AS column, a.attgenerated AS generated, a.attidentity AS identity
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      AND c.relname NOT LIKE 'kysely\\_%'
    ORDER BY c.relname, a.attnum`,
  shapes: [[]],
});

const constraintsQuery = rawQuery({
  name: 'catalogueConstraints',
  columns: {
    name: value('name'),
    type: value('"char"'),
    table: value('name'),
    columns: value('text[]'),
    references: value('name').orNull(),
    referencedColumns: value('text[]'),
    onDelete: value('"char"'),
  },
  statement: () => sql`
    SELECT con.conname AS name, con.contype AS type, c.relname AS table,
      ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, i)
            JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.i) AS columns,
      r.relname AS references,
      ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, i)
            JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.i) AS referenced_columns,
      con.confdeltype AS on_delete
    FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid LEFT JOIN pg_class r ON r.oid = con.confrelid
    WHERE con.connamespace = 'public'::regnamespace AND con.contype IN ('p', 'f')
    ORDER BY c.relname, con.conname`,
  shapes: [[]],
});

/** The public schema's tables (Kysely's migration bookkeeping left out), read now, in two catalogue queries. */
export async function readCatalogue(db: Executor): Promise<Catalogue> {
  const columns = await columnsQuery.rows(db);
  const constraints = await constraintsQuery.rows(db);

  const tables = new Map<string, CatalogueTable>();
  for (const row of columns) {
    let table = tables.get(row.table);
    if (!table) tables.set(row.table, (table = { name: row.table, columns: [], primaryKey: [] }));
    table.columns.push({ name: row.column, generated: row.generated === 's', identity: row.identity === 'a' ? 'always' : row.identity === 'd' ? 'by-default' : null });
  }
  const foreignKeys: ForeignKey[] = [];
  for (const row of constraints) {
    if (!tables.has(row.table)) continue;
    if (row.type === 'p') tables.get(row.table)!.primaryKey = row.columns;
    else foreignKeys.push({ name: row.name, table: row.table, columns: row.columns, references: row.references!, referencedColumns: row.referencedColumns!, onDelete: ON_DELETE[row.onDelete] ?? 'no-action' });
  }
  return { tables, foreignKeys };
}
