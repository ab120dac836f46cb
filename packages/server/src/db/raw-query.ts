// Raw SQL statements that Kysely's builder would make less clear (UPDATE … FROM a locked subquery,
// recursive walks, statements over a table or column chosen at run time, one statement answering a
// whole search), with row types that come from their declared columns rather than being written by
// hand: a column read from a table takes its type from the generated table types (a renamed or retyped
// column fails `tsc`), a value the statement computes names its PostgreSQL type. Each statement is
// registered under its name with the argument lists giving each SQL text it can take; the raw-SQL test
// (test/structure/raw-sql-types.test.ts) describes every one against the database and compares the
// result columns with the declaration: names, the computed values' types, the table and column each
// table column is read from, and `.orNull()` where a NOT NULL column comes through an outer join.
// Whether a computed value can be null PostgreSQL does not say: that stays this declaration's claim.
import { sql, type AliasedRawBuilder, type RawBuilder, type Selectable } from 'kysely';
import type { Executor } from './database.js';
import type { DB } from './schema.js';

/**
 * The value pg gives for each PostgreSQL type a computed value may have (`int8` as a number:
 * database.ts), by the type's name as `to_regtype` reads it.
 */
export type ValueTypes = {
  bool: boolean;
  int2: number;
  int4: number;
  int8: number;
  numeric: string;
  text: string;
  name: string;
  '"char"': string;
  bytea: Buffer;
  timestamptz: Date;
  json: unknown;
  jsonb: unknown;
  tsquery: string;
  'text[]': string[];
  'int4[]': number[];
  'bytea[]': Buffer[];
};

type TableName = keyof DB & string;
type ColumnOf<T extends TableName> = keyof Selectable<DB[T]> & string;

/** A result column holding a table's column as it is (through an outer join: `.orNull()`). */
export class TableColumn<T> {
  declare readonly valueType: T;
  constructor(
    readonly table: TableName,
    readonly column: string,
    readonly nullable: boolean,
    /** Why the column is never null here though it may be (a nullable column: the statement's WHERE, a CHECK constraint; through an outer join: a row always there). */
    readonly neverNullBecause?: string,
  ) {}

  /** The column read from the nullable side of an outer join. */
  orNull(): TableColumn<T | null> {
    return new TableColumn(this.table, this.column, true);
  }

  /** A nullable column the statement only reads where it holds a value (say why). */
  neverNull(because: string): TableColumn<Exclude<T, null>> {
    return new TableColumn(this.table, this.column, false, because);
  }
}

/** A result column the statement computes, of a named PostgreSQL type. */
export class ComputedValue<T> {
  declare readonly valueType: T;
  constructor(
    readonly type: keyof ValueTypes,
    readonly nullable: boolean,
    /** Why the value is never null, where that is not plain from the expression (documentation: the raw-SQL test cannot check it). */
    readonly neverNullBecause?: string,
  ) {}

  orNull(): ComputedValue<T | null> {
    return new ComputedValue(this.type, true);
  }

  /** Never null for a reason worth saying (the statement's WHERE, a count, …). */
  neverNull(because: string): ComputedValue<T> {
    return new ComputedValue(this.type, false, because);
  }

  /** A narrower TypeScript type: the text values a statement writes, the shape of its JSON. */
  as<U extends T>(): ComputedValue<U> {
    return this as unknown as ComputedValue<U>;
  }
}

export type ColumnDeclaration = TableColumn<unknown> | ComputedValue<unknown>;

/** `table`'s column as the generated table types have it. */
export function column<T extends TableName, C extends ColumnOf<T>>(table: T, name: C): TableColumn<Selectable<DB[T]>[C]> {
  return new TableColumn(table, name, false);
}

/** A value the statement computes, never null unless `.orNull()`. */
export function value<K extends keyof ValueTypes>(type: K): ComputedValue<ValueTypes[K]> {
  return new ComputedValue(type, false);
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Declared<C> = { [K in keyof C]: C[K] extends TableColumn<infer T> | ComputedValue<infer T> ? T : never };

/** The row of a statement selecting every column of `All` (`t.*`, none when undefined) and `C`. */
export type RowOf<All extends TableName | undefined, C> = Simplify<(All extends TableName ? Selectable<DB[All]> : unknown) & Declared<C>>;

export type RawQuery<Row, Args extends unknown[]> = {
  readonly name: string;
  /** The table whose every column the statement selects first (`t.*`), if any. */
  readonly allColumnsOf: TableName | undefined;
  readonly columns: Readonly<Record<string, ColumnDeclaration>>;
  /** Argument lists giving each SQL text the statement can take (values do not matter, only the text). */
  readonly shapes: readonly Args[];
  /** A statement the raw-SQL test runs first, in the same transaction (a temporary table this one reads). */
  readonly setup: RawBuilder<unknown> | undefined;
  statement(...args: Args): RawBuilder<Row>;
  /** Runs the statement; its rows (keys camel-cased by the database's CamelCasePlugin). */
  rows(db: Executor, ...args: Args): Promise<Row[]>;
  /** The statement as a subquery aliased `alias`, for a query builder to select from. */
  subquery<A extends string>(alias: A, ...args: Args): AliasedRawBuilder<Row, A>;
};

/** The row of a declared statement (to name it where it is returned). */
export type RawRow<Q> = Q extends RawQuery<infer Row, infer _Args> ? Row : never;

// Declarations, not state: filled once as modules load, like the areas' list.
const registry = new Map<string, RawQuery<unknown, never>>();

/**
 * Declares a raw statement under a unique `name`. `columns` name every result column besides those of
 * `allColumnsOf` (in camelCase, as rows arrive); `shapes` give, as arguments, each SQL text the
 * statement can take.
 */
export function rawQuery<const C extends Record<string, ColumnDeclaration>, Args extends unknown[], All extends TableName | undefined = undefined>(definition: {
  name: string;
  allColumnsOf?: All;
  columns: C;
  statement: (...args: Args) => RawBuilder<unknown>;
  shapes: ReadonlyArray<NoInfer<Args>>;
  setup?: RawBuilder<unknown>;
}): RawQuery<RowOf<All, C>, Args> {
  type Row = RowOf<All, C>;
  if (registry.has(definition.name)) throw new Error(`Two raw statements are named ${definition.name}`);
  if (definition.shapes.length === 0) throw new Error(`The raw statement ${definition.name} needs a shape`);
  const statement = (...args: Args) => definition.statement(...args) as RawBuilder<Row>;
  const query: RawQuery<Row, Args> = {
    name: definition.name,
    allColumnsOf: definition.allColumnsOf,
    columns: definition.columns,
    shapes: definition.shapes,
    setup: definition.setup,
    statement,
    async rows(db, ...args) {
      return (await statement(...args).execute(db)).rows;
    },
    subquery(alias, ...args) {
      return sql<Row>`(${statement(...args)})`.as(alias);
    },
  };
  registry.set(definition.name, query as unknown as RawQuery<unknown, never>);
  return query;
}

/** Every raw statement declared so far (those of the modules imported). */
export function registeredRawQueries(): ReadonlyArray<RawQuery<unknown, unknown[]>> {
  return [...registry.values()] as unknown as ReadonlyArray<RawQuery<unknown, unknown[]>>;
}
