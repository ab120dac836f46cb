// Raw SQL against its declared row type (src/db/raw-query.ts): every registered statement, in each of
// its shapes, is described by this file's database (parsed, not run) and its result columns compared
// with the declaration — the same names (camel-cased as rows arrive), a computed value of the declared
// PostgreSQL type, a table column read from that very column (its TypeScript type, nullability
// included, then follows the generated table types), and a NOT NULL column read through an outer join
// declared `.orNull()` (or `.neverNull('why')`). PostgreSQL does not say whether a computed value may
// be null: that stays the declaration's claim. Below, planted declarations show each check failing.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CamelCasePlugin, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snakeCase } from '../../src/areas/lifecycle.js';
import { column, rawQuery, registeredRawQueries, value, type ColumnDeclaration, type RawQuery, TableColumn } from '../../src/db/raw-query.js';
import { useTestServer } from '../support/harness.js';
import { describeStatement, explainStatement, outerJoinedTables } from '../support/statement-types.js';

const server = useTestServer();
const SOURCE = fileURLToPath(new URL('../../src', import.meta.url));

/** Every module declaring a raw statement, with the names it declares. */
function modulesWithRawStatements(folder = SOURCE): Array<{ path: string; names: string[] }> {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : modulesWithRawStatements(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    const names = [...readFileSync(path, 'utf8').matchAll(/\brawQuery\(\{\s*name: '([^']+)'/g)].map((match) => match[1]!);
    return names.length ? [{ path, names }] : [];
  });
}

// Loaded here, so that every statement is registered before the tests are listed.
const modules = modulesWithRawStatements();
for (const { path } of modules) await import(path);
const statements = registeredRawQueries();

class RowKeys extends CamelCasePlugin {
  key(name: string): string {
    return this.camelCase(name);
  }
}
const rowKeys = new RowKeys();

type CatalogueColumn = { name: string; notNull: boolean };
type Catalogue = {
  /** table oid → public table name; (oid, attnum) → column. */
  tables: Map<number, string>;
  columns: Map<string, CatalogueColumn>;
  /** Public tables' columns in order, by table. */
  tableColumns: Map<string, CatalogueColumn[]>;
  typeOid(name: string): Promise<number>;
  typeName(oid: number): Promise<string>;
};

let client: pg.Client;
let catalogue: Catalogue;

beforeAll(async () => {
  client = new pg.Client({ connectionString: server().databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ oid: number; table: string; attnum: number; name: string; notnull: boolean }>(`
    SELECT c.oid, c.relname AS table, a.attnum, a.attname AS name, a.attnotnull AS notnull
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v') AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`);
  const tables = new Map<number, string>();
  const columns = new Map<string, CatalogueColumn>();
  const tableColumns = new Map<string, CatalogueColumn[]>();
  for (const row of rows) {
    const entry = { name: row.name, notNull: row.notnull };
    tables.set(row.oid, row.table);
    columns.set(`${row.oid}:${row.attnum}`, entry);
    if (!tableColumns.has(row.table)) tableColumns.set(row.table, []);
    tableColumns.get(row.table)!.push(entry);
  }
  const typeOids = new Map<string, number>();
  catalogue = {
    tables,
    columns,
    tableColumns,
    async typeOid(name) {
      if (!typeOids.has(name)) {
        const { rows: found } = await client.query<{ oid: number | null }>('SELECT to_regtype($1)::oid AS oid', [name]);
        if (found[0]?.oid == null) throw new Error(`PostgreSQL has no type ${name}`);
        typeOids.set(name, found[0].oid);
      }
      return typeOids.get(name)!;
    },
    async typeName(oid) {
      const { rows: found } = await client.query<{ name: string }>('SELECT $1::regtype::text AS name', [oid]);
      return found[0]!.name;
    },
  };
});

afterAll(async () => {
  await client?.end();
});

/** What is wrong with the statement's result against its declaration, one line each (none: it matches). */
async function problemsOf(query: RawQuery<unknown, unknown[]>, shape: unknown[]): Promise<string[]> {
  const { sql: text } = query.statement(...shape).compile(server().db);
  await client.query('BEGIN');
  try {
    if (query.setup) await client.query(query.setup.compile(server().db).sql);
    let fields;
    try {
      fields = await describeStatement(client, text);
    } catch (error) {
      return [`does not parse: ${(error as Error).message}`];
    }
    const outerJoined = outerJoinedTables(await explainStatement(client, text));
    const problems: string[] = [];
    // The declaration, column by column: every column of `allColumnsOf`, then the declared ones.
    type Expected = { table?: string; column?: string; type?: string; orNull: boolean; because?: string | undefined };
    const declared = new Map<string, Expected>();
    if (query.allColumnsOf) {
      const table = snakeCase(query.allColumnsOf);
      for (const { name } of catalogue.tableColumns.get(table) ?? []) declared.set(rowKeys.key(name), { table, column: name, orNull: false });
    }
    for (const [key, declaration] of Object.entries(query.columns)) {
      if (declared.has(key)) problems.push(`${key}: declared twice`);
      declared.set(
        key,
        declaration instanceof TableColumn
          ? { table: snakeCase(declaration.table), column: snakeCase(declaration.column), orNull: declaration.nullable, because: declaration.neverNullBecause }
          : { type: declaration.type, orNull: declaration.nullable, because: declaration.neverNullBecause },
      );
    }
    const seen = new Set<string>();
    for (const field of fields) {
      const key = rowKeys.key(field.name);
      const expected = declared.get(key);
      if (seen.has(key)) problems.push(`${key}: the statement answers it twice`);
      seen.add(key);
      if (!expected) {
        problems.push(`${key}: answered by the statement, not declared`);
        continue;
      }
      const originTable = field.tableID ? catalogue.tables.get(field.tableID) : undefined;
      const origin = originTable ? catalogue.columns.get(`${field.tableID}:${field.columnID}`) : undefined;
      if (!expected.table) {
        if (origin) problems.push(`${key}: reads ${originTable}.${origin.name} as it is: declare column('…', '…') (its type then follows the table)`);
        const type = await catalogue.typeOid(expected.type!);
        if (type !== field.dataTypeID) problems.push(`${key}: declared ${expected.type}, but the statement answers ${await catalogue.typeName(field.dataTypeID)}`);
        continue;
      }
      if (!origin) {
        problems.push(`${key}: declared ${expected.table}.${expected.column}, but the statement computes it: declare value('…')`);
        continue;
      }
      if (originTable !== expected.table || origin.name !== expected.column) {
        problems.push(`${key}: declared ${expected.table}.${expected.column}, but the statement reads ${originTable}.${origin.name}`);
        continue;
      }
      // The generated type is nullable when the column is; a NOT NULL column may still be null when
      // read from the nullable side of an outer join.
      const throughOuterJoin = outerJoined.has(originTable);
      if (origin.notNull && throughOuterJoin && !expected.orNull && expected.because === undefined) {
        problems.push(`${key}: read through an outer join, so it may be null: declare it .orNull(), or .neverNull('why')`);
      }
      if (expected.orNull && origin.notNull && !throughOuterJoin) problems.push(`${key}: declared .orNull(), but the column is NOT NULL and read through no outer join`);
      if (expected.because !== undefined && origin.notNull && !throughOuterJoin) problems.push(`${key}: declared .neverNull(…), but the column is NOT NULL and read through no outer join`);
    }
    for (const key of declared.keys()) if (!seen.has(key)) problems.push(`${key}: declared, but the statement does not answer it`);
    return problems;
  } finally {
    await client.query('ROLLBACK');
  }
}

it('finds the raw statements: every one a module declares is registered, under a name of its own', () => {
  expect(modules.length).toBeGreaterThan(10);
  const declared = modules.flatMap((module) => module.names.map((name) => `${relative(SOURCE, module.path)} ${name}`)).sort();
  const registered = new Set(statements.map((query) => query.name));
  expect(declared.filter((entry) => !registered.has(entry.split(' ')[1]!))).toEqual([]);
  expect(new Set(declared.map((entry) => entry.split(' ')[1])).size).toBe(declared.length);
});

describe('every raw statement answers the columns it declares, in each of its shapes', () => {
  it.each(statements.map((query) => [query.name, query] as const))('%s', async (_name, query) => {
    const report: string[] = [];
    for (const [i, shape] of query.shapes.entries()) {
      for (const problem of await problemsOf(query, shape)) report.push(`shape ${i + 1}: ${problem}`);
    }
    expect(report.join('\n')).toBe('');
  });
});

describe('a planted declaration', () => {
  let planted = 0;
  const plant = (definition: { columns: Record<string, ColumnDeclaration>; statement: () => RawBuilder<unknown> }) =>
    rawQuery({ ...definition, name: `planted${++planted}`, shapes: [[]] }) as unknown as RawQuery<unknown, unknown[]>;
  const check = (query: RawQuery<unknown, unknown[]>) => problemsOf(query, []);

  it('naming a column the statement does not answer, or missing one it does', async () => {
    const query = plant({ columns: { id: column('spaces', 'id'), title: column('spaces', 'title') }, statement: () => sql`SELECT id, emoji FROM spaces` });
    expect(await check(query)).toEqual(['emoji: answered by the statement, not declared', 'title: declared, but the statement does not answer it']);
  });

  it('reading another column than the declared one, or a column under a declared value', async () => {
    const query = plant({
      columns: { id: column('spaces', 'title'), title: value('text') },
      statement: () => sql`SELECT id, title FROM spaces`,
    });
    expect(await check(query)).toEqual([
      'id: declared spaces.title, but the statement reads spaces.id',
      "title: reads spaces.title as it is: declare column('…', '…') (its type then follows the table)",
    ]);
  });

  it('a computed value of another type than declared', async () => {
    const query = plant({ columns: { n: value('text') }, statement: () => sql`SELECT count(*)::int AS n FROM spaces` });
    expect(await check(query)).toEqual(['n: declared text, but the statement answers integer']);
  });

  it('a NOT NULL column read through an outer join without .orNull(); .orNull() or .neverNull() on a column that cannot be null', async () => {
    const outer = plant({
      columns: { title: column('spaces', 'title'), joinedAt: column('organizationMembers', 'joinedAt'), role: column('organizationMembers', 'role'), because: column('organizationMembers', 'userId').neverNull('planted') },
      statement: () => sql`
        SELECT sp.title, m.joined_at, m.role, m.user_id AS because
        FROM spaces sp LEFT JOIN organization_members m ON m.organization_id = sp.organization_id`,
    });
    // role is nullable in the table, so its generated type already is.
    expect(await check(outer)).toEqual(["joinedAt: read through an outer join, so it may be null: declare it .orNull(), or .neverNull('why')"]);
    const stale = plant({
      columns: { title: column('spaces', 'title').orNull(), emoji: column('spaces', 'emoji'), id: column('spaces', 'id').neverNull('planted') },
      statement: () => sql`SELECT title, emoji, id FROM spaces`,
    });
    expect(await check(stale)).toEqual([
      'title: declared .orNull(), but the column is NOT NULL and read through no outer join',
      'id: declared .neverNull(…), but the column is NOT NULL and read through no outer join',
    ]);
  });

  it('a statement that no longer parses (a renamed column)', async () => {
    const renamed = plant({ columns: { title: column('spaces', 'title') }, statement: () => sql`SELECT name AS title FROM spaces` });
    expect(await check(renamed)).toEqual(['does not parse: column "name" does not exist']);
  });

  it('passes a matching declaration: table columns, counts, COALESCE, EXISTS, literals, an inner join, all of a table', async () => {
    const query = plant({
      columns: {
        n: value('int4'),
        position: value('text'),
        any: value('bool'),
        title: column('spaces', 'title'),
        kind: value('text'),
        organizationTitle: column('organizations', 'title'),
      },
      statement: () => sql`
        SELECT (SELECT count(*)::int FROM spaces) AS n, (coalesce(max(sp.position), 0) + 1)::text AS position,
          EXISTS (SELECT 1 FROM revisions r WHERE r.space_id = sp.id) AS any, sp.title, 'space' AS kind, o.title AS organization_title
        FROM spaces sp JOIN organizations o ON o.id = sp.organization_id GROUP BY sp.id, sp.title, o.title`,
    });
    expect(await check(query)).toEqual([]);
  });
});
