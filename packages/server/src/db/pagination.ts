// The one keyset-pagination helper: every list (except search, which pages by offset) goes through it.
// Lists answer `{items, count, next?}`; `count` is the total matching the filters, not the page size.
import { sql, type Compilable, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { CursorCodec, CursorValue } from './cursor.js';
import { badRequest } from '../errors.js';
import type { CountCache } from './count-cache.js';
import type { Executor } from './database.js';
import { executeShaped, type Bind, type Shaped } from './query-shapes.js';

export type SortKey<Row> = {
  /** Column reference as Kysely accepts it, e.g. `spaces.createdAt`. */
  column: string;
  direction: 'asc' | 'desc';
  /** The row's value of this key, for the next cursor. */
  value: (row: Row) => Date | string | number | boolean | null;
};

/**
 * Newest first, ties by id: the order of the lists of things made over time (invites, webhooks, sites,
 * change requests, …), on `createdAt` and `id` of the table aliased `alias` (empty when the query has
 * one table and names its columns bare).
 */
export function newestFirst<Row extends { createdAt: Date; id: string }>(alias: string): SortKey<Row>[] {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return [
    { column: column('createdAt'), direction: 'desc', value: (row) => row.createdAt },
    { column: column('id'), direction: 'desc', value: (row) => row.id },
  ];
}

export type PageRequest = {
  /** The caller's `page` parameter. */
  page?: string | undefined;
  /** The caller's `limit` parameter (the spec defaults it to 50). */
  limit?: number | undefined;
};

export type Page<Row> = { items: Row[]; count: number; next?: { page: string } };

export const DEFAULT_LIMIT = 50;

/**
 * What a list's cursor is bound to: the operation, the resource it lists within (an organization, a
 * space, the caller for their own tokens) and its filters — never who asks or what they may see, so
 * a cursor stays valid when something unrelated changes between two pages (a new collection, a grant).
 */
export type ListKey = { operation: string; within?: string; filters?: readonly unknown[] };

const bindingOf = (list: ListKey) => JSON.stringify([list.operation, list.within ?? null, list.filters ?? []]);

/**
 * A cached count: `audience` names what makes two callers see the same rows (see
 * visibilityProfile), `version` when the cache must be recomputed.
 */
export type CountCacheOption = { cache: CountCache; version: number; audience: string };

function toCursorValue(value: Date | string | number | boolean | null): CursorValue {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * `(k1, k2, …) > (v1, v2, …)` in the order the keys sort: one row comparison when every key sorts the
 * same way (the index serves it directly), else the expanded OR chain.
 */
function afterCursor(keys: SortKey<unknown>[], values: CursorValue[]): RawBuilder<boolean> {
  const refs = keys.map((key) => sql.ref(key.column));
  const direction = keys[0]!.direction;
  if (keys.every((key) => key.direction === direction)) {
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    return sql<boolean>`(${sql.join(refs)}) ${op} (${sql.join(values.map((v) => sql.val(v)))})`;
  }
  const alternatives = keys.map((key, i) => {
    const equalities = keys.slice(0, i).map((_, j) => sql`${refs[j]} = ${values[j]}`);
    const op = sql.raw(key.direction === 'asc' ? '>' : '<');
    return sql.join([...equalities, sql`${refs[i]} ${op} ${values[i]}`], sql` AND `);
  });
  return sql<boolean>`((${sql.join(alternatives, sql`) OR (`)}))`;
}

/**
 * One page of `query` (filters applied, no order or limit) sorted by `keys` (the last key must be
 * unique, usually the id). A cursor only works for the same `list` (operation, parent and filters).
 * `query` may be shaped (db/query-shapes.ts): the page and its count are then compiled once per shape.
 */
export async function keysetPage<DB, TB extends keyof DB, Row>(
  db: Executor,
  query: SelectQueryBuilder<DB, TB, Row> | Shaped<SelectQueryBuilder<DB, TB, Row>>,
  options: {
    keys: SortKey<Row>[];
    request: PageRequest;
    list: ListKey;
    cursors: CursorCodec;
    /** Serve `count` from this cache while `version` holds (for lists whose count is costly). */
    countCache?: CountCacheOption;
  },
): Promise<Page<Row>> {
  const { keys, request, cursors, countCache } = options;
  const queryKey = bindingOf(options.list);
  const limit = request.limit ?? DEFAULT_LIMIT;
  const shaped: Shaped<SelectQueryBuilder<DB, TB, Row>> = 'build' in query ? query : { shape: '', build: () => query, values: {} };
  const cursor = request.page ? cursors.decode(queryKey, request.page).keys : undefined;
  if (cursor && cursor.length !== keys.length) throw badRequest('Invalid page cursor');
  const cursorValues = Object.fromEntries((cursor ?? []).map((value, i) => [`cursor${i}`, value]));
  const buildPage = (bind: Bind) => {
    let pageQuery = shaped.build(bind);
    if (cursor) pageQuery = pageQuery.where(afterCursor(keys as SortKey<unknown>[], keys.map((_, i) => bind<CursorValue>(`cursor${i}`))) as never);
    for (const key of keys) pageQuery = pageQuery.orderBy(sql.ref(key.column), key.direction) as typeof pageQuery;
    // A literal limit: a parameter would give prepared statements a generic plan that sorts everything.
    return pageQuery.limit(sql.lit(limit + 1));
  };
  const buildCount = (bind: Bind) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the list's own table types (DB) are not the executor's
    (db as any).selectFrom(shaped.build(bind).as('matching')).select(sql<number>`count(*)::int`.as('count')) as Compilable<{ count: number }>;
  const order = keys.map((key) => `${key.column} ${key.direction}`).join(',');
  const run = <R>(part: string, build: (bind: Bind) => Compilable<R>, values: Record<string, unknown>) =>
    shaped.shape
      ? executeShaped(db, `${shaped.shape}|${part}`, build, values)
      : db.executeQuery(build(<T>(name: string) => values[name] as T).compile()).then((result) => result.rows);
  const countMatching = async () => (await run('count', buildCount, shaped.values))[0]!.count;
  const [rows, count] = await Promise.all([
    run(`page|${cursor ? 'after' : 'first'}|${order}|${limit}`, buildPage, { ...shaped.values, ...cursorValues }) as Promise<Row[]>,
    countCache ? countCache.cache.get(`${queryKey}|${countCache.audience}`, countCache.version, countMatching) : countMatching(),
  ]);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next =
    rows.length > limit && last
      ? { page: cursors.encode(queryKey, keys.map((key) => toCursorValue(key.value(last)))) }
      : undefined;
  return { items, count, ...(next ? { next } : {}) };
}

/**
 * A page of an organization's own objects (its webhooks, invites, SAML providers, …): newest first on
 * the table aliased `alias` (newestFirst), the cursor bound to the operation and the organization.
 */
export function organizationObjectsPage<DB, TB extends keyof DB, Row extends { createdAt: Date; id: string }>(
  db: Executor,
  cursors: CursorCodec,
  query: SelectQueryBuilder<DB, TB, Row>,
  options: { alias: string; operation: string; organizationId: string; request: PageRequest },
): Promise<Page<Row>> {
  return keysetPage(db, query, {
    keys: newestFirst(options.alias),
    request: options.request,
    list: { operation: options.operation, within: options.organizationId },
    cursors,
  });
}

/**
 * The in-memory twin of keysetPage, for lists that come from a tree rather than from rows (a change
 * request's files): `rows` sorted by `keys`, the same cursors and envelope.
 */
export function memoryPage<Row>(
  rows: readonly Row[],
  options: { keys: SortKey<Row>[]; request: PageRequest; list: ListKey; cursors: CursorCodec },
): Page<Row> {
  const { keys, request, cursors } = options;
  const queryKey = bindingOf(options.list);
  const limit = request.limit ?? DEFAULT_LIMIT;
  let start = 0;
  if (request.page) {
    const { keys: values } = cursors.decode(queryKey, request.page);
    if (values.length !== keys.length) throw badRequest('Invalid page cursor');
    // The first row sorting after the cursor's values.
    const after = (row: Row) => {
      for (const [i, key] of keys.entries()) {
        const value = toCursorValue(key.value(row));
        const cursor = values[i]!;
        if (value === cursor) continue;
        return (value! < cursor!) === (key.direction === 'desc');
      }
      return false;
    };
    start = rows.findIndex(after);
    if (start < 0) start = rows.length;
  }
  const items = rows.slice(start, start + limit);
  const last = items.at(-1);
  const next = start + limit < rows.length && last ? { page: cursors.encode(queryKey, keys.map((key) => toCursorValue(key.value(last)))) } : undefined;
  return { items, count: rows.length, ...(next ? { next } : {}) };
}
