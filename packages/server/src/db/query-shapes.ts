// Hot queries compiled once per shape instead of on every request (issue 30): Kysely builds a query's
// operation tree, runs it through the plugins (camel case) and compiles it to SQL each time it runs,
// which cost as much as a third of a single read's access check. A shaped query is built once with
// named placeholders in place of its values (`bind('spaceId')`), compiled, and then run with each
// request's values put in the placeholders' parameter slots; the SQL text is the same every time, so
// a PREPARED query keeps its one prepared statement.
//
// `shape` must name everything that changes the SQL text besides the bound values (an optional clause,
// a literal limit, a subquery left out): two different texts under one shape would run the wrong query.
// Databases made with `verifyShapes` (tests and CI: with response validation) also build and compile
// every shaped query the ordinary way and throw when the text or the parameters differ.
import type { Compilable, CompiledQuery, RawBuilder } from 'kysely';
import type { Executor } from './database.js';

/** A placeholder for the value named `name`, typed as whatever the builder expects there. */
export type Bind = <T = unknown>(name: string) => T;

/** A query to compile once per `shape`: how to build it, and the values of this run. */
export type Shaped<Q> = { shape: string; build: (bind: Bind) => Q; values: Record<string, unknown> };

const PLACEHOLDER = Symbol('placeholder');
type Placeholder = { readonly [PLACEHOLDER]: string };

type Slot = { name: string } | { value: unknown };
type Shape = { query: CompiledQuery; slots: Slot[]; names: Set<string> };

/** Shapes kept at most (distinct literal limits make distinct shapes). */
const CAPACITY = 2000;

/** What a database's shaped queries need from it: set by createDatabase on the plugin it installs. */
export type ShapeSettings = { readonly shapes: Map<string, Shape>; readonly verify: boolean };

/** The settings of the database `db` was made from, if it was made by createDatabase. */
function settingsOf(db: Executor): ShapeSettings | undefined {
  for (const plugin of db.getExecutor().plugins) {
    const settings = (plugin as { shapeSettings?: ShapeSettings }).shapeSettings;
    if (settings) return settings;
  }
  return undefined;
}

export function newShapeSettings(verify: boolean): ShapeSettings {
  return { shapes: new Map(), verify };
}

/** What a shaped query builds: a query builder, or raw SQL (compiled by the database it runs on). */
export type Buildable<Row> = Compilable<Row> | RawBuilder<Row>;

function compile(db: Executor, query: Buildable<unknown>): CompiledQuery {
  return 'isRawBuilder' in query ? query.compile(db) : query.compile();
}

function compileShape(db: Executor, build: (bind: Bind) => Buildable<unknown>): Shape {
  const bind: Bind = <T>(name: string) => ({ [PLACEHOLDER]: name }) as unknown as T;
  const query = compile(db, build(bind));
  const names = new Set<string>();
  const slots = query.parameters.map((parameter): Slot => {
    if (typeof parameter === 'object' && parameter !== null && PLACEHOLDER in parameter) {
      const name = (parameter as Placeholder)[PLACEHOLDER];
      names.add(name);
      return { name };
    }
    return { value: parameter };
  });
  return { query, slots, names };
}

/**
 * Runs the query `build` makes, compiled once per `shape` (see above), with `values` in its
 * placeholders; its rows, mapped by the database's plugins as any query's.
 */
export async function executeShaped<Row>(db: Executor, shape: string, build: (bind: Bind) => Buildable<Row>, values: Record<string, unknown>): Promise<Row[]> {
  const settings = settingsOf(db);
  if (!settings) return (await db.executeQuery(compile(db, build(<T>(name: string) => values[name] as T)))).rows as Row[];
  let compiled = settings.shapes.get(shape);
  if (!compiled) {
    compiled = compileShape(db, build as (bind: Bind) => Buildable<unknown>);
    const unknown = [...compiled.names].filter((name) => !(name in values));
    if (unknown.length) throw new Error(`Shaped query ${shape}: no value for ${unknown.join(', ')}`);
    settings.shapes.set(shape, compiled);
    if (settings.shapes.size > CAPACITY) settings.shapes.delete(settings.shapes.keys().next().value!);
  }
  const parameters = compiled.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
  if (settings.verify) {
    const plain = compile(db, build(<T>(name: string) => values[name] as T));
    if (plain.sql !== compiled.query.sql || JSON.stringify(plain.parameters) !== JSON.stringify(parameters)) {
      throw new Error(`Shaped query ${shape} does not compile to what its values make:\n${compiled.query.sql}\n---\n${plain.sql}`);
    }
  }
  const result = await db.executeQuery<Row>({ ...compiled.query, parameters } as CompiledQuery<Row>);
  return result.rows;
}
