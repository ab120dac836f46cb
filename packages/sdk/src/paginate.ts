import type { paths } from '@content-workspace/contract';
import { createApiError } from './errors.js';
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

/** Options of {@link paginate}: those of each page's call. */
export type PaginateOptions = CallOptions;

type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

// `params` may be left out only when the operation has no required parameter.
type PaginateArgs<Path extends ListPath> = RequiredKeysOf<ListParams<Path>> extends never
  ? [params?: ListParams<Path>, options?: PaginateOptions]
  : [params: ListParams<Path>, options?: PaginateOptions];

type Page = { items: unknown[]; next?: { page: string } };
type RawGet = (
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: Page; error?: unknown; response: Response }>;
type RawParams = { query?: Record<string, unknown> };

/**
 * Iterates over every item of a list operation, fetching page after page by following
 * `next.page` until the last one. Pages are fetched lazily: stop iterating and no further page
 * is requested.
 *
 * Rejects with an {@link ApiError} when a page cannot be fetched, whichever kind of client is used.
 *
 * @example
 * ```ts
 * for await (const organization of paginate(client, '/v1/orgs', { query: { limit: 100 } })) {
 *   console.log(organization.title);
 * }
 * ```
 */
export async function* paginate<Path extends ListPath>(
  client: ContentWorkspaceClient | ThrowingClient,
  path: Path,
  ...[params, options]: PaginateArgs<Path>
): AsyncGenerator<ListItem<Path>, void, undefined> {
  const get = client.GET as unknown as RawGet;
  const { query, ...rest } = (params ?? {}) as RawParams;
  let page = query?.page;
  do {
    const { data, error, response } = await get(path, {
      ...options,
      params: { ...rest, query: { ...query, page } },
    });
    if (!data || !response.ok) throw createApiError(response, error);
    yield* data.items as ListItem<Path>[];
    page = data.next?.page;
  } while (page);
}

/**
 * Collects the items of an async iterable, such as {@link paginate}'s, into an array: all of them,
 * or the first `max`. Iteration stops as soon as `max` items are in, so no further page is fetched.
 *
 * @example
 * ```ts
 * const newest = await collect(paginate(client, '/v1/user/tokens'), 10);
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
