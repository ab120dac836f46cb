import type { paths } from '@content-workspace/contract';
import { createApiError } from './errors.js';
import type { Operation, OperationParameters } from './operations.js';
import type { CallOptions, ContentWorkspaceClient, PathsWithMethod, ThrowingClient } from './types.js';

/** The JSON body of a GET operation's 200 answer. */
type OkBody<Path extends keyof paths> = paths[Path] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;

/** The list operations: GET paths whose 200 body is a page `{ items, count, next? }`. */
export type ListPath = {
  [Path in PathsWithMethod<'get'>]: OkBody<Path> extends { items: readonly unknown[] } ? Path : never;
}[PathsWithMethod<'get'>];

/** The type of one item of the list at `Path`, e.g. `ListItem<'/v1/orgs'>` is an organization. */
export type ListItem<Path extends ListPath> = OkBody<Path> extends { items: readonly (infer Item)[] } ? Item : never;

/** The `params` of the list operation at `Path` (`path` and `query`; `query.page` is managed for you). */
export type ListParams<Path extends ListPath> = paths[Path] extends { get: { parameters: infer Params } } ? Params : never;

/** A named list operation, e.g. `cw.spaces.list`, of either kind of client. */
export type ListOperation<Path extends ListPath> = Operation<Path, 'get', boolean>;

/** Options of {@link paginate}: those of each page's call. */
export type PaginateOptions = CallOptions;

type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

// `params` may be left out only when the operation has no required parameter.
type PaginateArgs<Path extends ListPath> = RequiredKeysOf<ListParams<Path>> extends never
  ? [params?: ListParams<Path>, options?: PaginateOptions]
  : [params: ListParams<Path>, options?: PaginateOptions];

type Page = { items: unknown[]; next?: { page: string } };
type PageResult = { data?: Page; error?: unknown; response: Response };
type RawGet = (path: string, init: Record<string, unknown>) => Promise<PageResult>;
type RawOperation = (args: Record<string, unknown>, options?: PaginateOptions) => Promise<PageResult>;
type RawQuery = { query?: Record<string, unknown> };

/**
 * Iterates over every item of a list operation, fetching page after page by following
 * `next.page` until the last one. Pages are fetched lazily: stop iterating and no further page
 * is requested.
 *
 * Takes a named list operation and its arguments, or a path-based client, a list path and its
 * `params`. Rejects with an {@link ApiError} when a page cannot be fetched, whichever kind of
 * client is used.
 *
 * @example
 * ```ts
 * for await (const space of paginate(cw.spaces.list, { organizationId, query: { limit: 100 } })) {
 *   console.log(space.title);
 * }
 * for await (const organization of paginate(client, '/v1/orgs', { query: { limit: 100 } })) {
 *   console.log(organization.title);
 * }
 * ```
 */
export function paginate<Path extends ListPath>(
  operation: ListOperation<Path>,
  ...[args, options]: OperationParameters<Path, 'get'>
): AsyncGenerator<ListItem<Path>, void, undefined>;
export function paginate<Path extends ListPath>(
  client: ContentWorkspaceClient | ThrowingClient,
  path: Path,
  ...[params, options]: PaginateArgs<Path>
): AsyncGenerator<ListItem<Path>, void, undefined>;
export async function* paginate(source: object, ...rest: unknown[]): AsyncGenerator<unknown, void, undefined> {
  let fetchPage: (page: unknown) => Promise<PageResult>;
  let firstPage: unknown;
  if (typeof source === 'function') {
    const operation = source as RawOperation;
    const [args, options] = rest as [(Record<string, unknown> & RawQuery) | undefined, PaginateOptions | undefined];
    firstPage = args?.query?.page;
    fetchPage = (page) => operation({ ...args, query: { ...args?.query, page } }, options);
  } else {
    const [path, params, options] = rest as [string, RawQuery | undefined, PaginateOptions | undefined];
    const { query, ...others } = params ?? {};
    const get = (source as ContentWorkspaceClient).GET as unknown as RawGet;
    firstPage = query?.page;
    fetchPage = (page) => get(path, { ...options, params: { ...others, query: { ...query, page } } });
  }
  let page = firstPage;
  do {
    const { data, error, response } = await fetchPage(page);
    if (!data || !response.ok) throw createApiError(response, error, { method: 'GET' });
    yield* data.items;
    page = data.next?.page;
  } while (page);
}

/**
 * Collects the items of an async iterable, such as {@link paginate}'s, into an array: all of them,
 * or the first `max`. Iteration stops as soon as `max` items are in, so no further page is fetched.
 *
 * @example
 * ```ts
 * const newest = await collect(paginate(cw.users.tokens.list), 10);
 * ```
 */
export async function collect<Item>(items: AsyncIterable<Item>, max = Infinity): Promise<Item[]> {
  const collected: Item[] = [];
  if (max <= 0) return collected;
  for await (const item of items) {
    collected.push(item);
    if (collected.length >= max) break;
  }
  return collected;
}
