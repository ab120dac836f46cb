// Named operations: `cw.spaces.get({ spaceId })` on top of the path-based client. The
// list of operations is generated from the spec (./generated/operations.ts); this module only
// binds them. Nothing here is reachable from `createClient`, so bundlers leave it out of
// applications that only use the path-based client.
import type { paths } from '@content-workspace/contract';
import type { HeadersOptions, ParseAs, RequestBodyOption } from 'openapi-fetch';
import { createClient, type ClientOptions } from './client.js';
import { operationRoutes, type Operations } from './generated/operations.js';
import type { CallOptions, CallPromise, ContentWorkspaceClient, HttpMethod, ResultOf, ThrowingClient } from './types.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

type ParametersOf<Op> = Op extends { parameters: infer Params } ? Params : {};
// `{ path?: never }` (no such parameters) matches neither form; `{ query?: Q }` is optional.
type ParameterArgs<Op, In extends 'query' | 'header'> =
  ParametersOf<Op> extends { [K in In]: infer Values }
    ? { [K in In]: Values }
    : ParametersOf<Op> extends { [K in In]?: infer Values }
      ? [NonNullable<Values>] extends [never]
        ? {}
        : { [K in In]?: NonNullable<Values> }
      : {};
type PathArgs<Op> = ParametersOf<Op> extends { path: infer Values extends object } ? Values : {};
type BodyArgs<Op> = RequestBodyOption<Op> extends { body?: never } ? {} : RequestBodyOption<Op>;

/**
 * The first argument of a named operation: its path parameters by name, then `query`, `body`
 * (and `header`) as the operation declares them, e.g. `{ spaceId, body: { title } }`. Exact: a
 * key the operation does not have, at any depth, is a type error.
 */
export type OperationArgs<Path extends keyof paths, Method extends HttpMethod> = Simplify<
  PathArgs<paths[Path][Method]> &
    ParameterArgs<paths[Path][Method], 'query'> &
    ParameterArgs<paths[Path][Method], 'header'> &
    BodyArgs<paths[Path][Method]>
>;

/** The second argument of a named operation: the {@link CallOptions}, extra headers and how to read the body. */
export type OperationOptions<As extends ParseAs = 'json'> = CallOptions & {
  /** Headers sent with this call only. */
  headers?: HeadersOptions;
  /** How to read the answer's body (default `'json'`); `data` is typed accordingly. */
  parseAs?: As;
};

/** An operation without arguments still takes an (empty) object first, so misplaced options are caught. */
type NoArguments = { [key: string]: never };

/** The parameters of a named operation: the arguments (optional when none is required), then the options. */
export type OperationParameters<Path extends keyof paths, Method extends HttpMethod, As extends ParseAs = 'json'> =
  keyof OperationArgs<Path, Method> extends never
    ? [args?: NoArguments, options?: OperationOptions<As>]
    : RequiredKeysOf<OperationArgs<Path, Method>> extends never
      ? [args?: OperationArgs<Path, Method>, options?: OperationOptions<As>]
      : [args: OperationArgs<Path, Method>, options?: OperationOptions<As>];

/**
 * One named operation, e.g. `cw.spaces.get`: called with `(args, options?)`, it sends
 * `METHOD path` through the path-based client and resolves to the same result.
 */
export interface Operation<Path extends keyof paths, Method extends HttpMethod, Throwing extends boolean> {
  <As extends ParseAs = 'json'>(...parameters: OperationParameters<Path, Method, As>): CallPromise<ResultOf<Path, Method, As, Throwing>>;
  /** The operation's HTTP method, e.g. `'GET'`. */
  readonly method: Uppercase<Method>;
  /** The operation's path in the contract, e.g. `'/v1/spaces/{spaceId}'`. */
  readonly path: Path;
}

/**
 * The client of {@link createContentWorkspace}: every operation of the API as a method of its group
 * (`cw.spaces.get({ spaceId })`), and the path-based client as `cw.client`.
 */
export type ContentWorkspace<Throwing extends boolean = false> = Operations<Throwing> & {
  /** The path-based client the operations are sent through: `cw.client.GET('/v1/user')`. */
  readonly client: Throwing extends true ? ThrowingClient : ContentWorkspaceClient;
};

/**
 * Creates a client with every operation of the API as a method named in the contract
 * (`x-sdk-name`): `cw.spaces.get({ spaceId })`, `cw.changeRequests.merge({ spaceId, changeRequestId })`,
 * `cw.changeRequests.comments.list({ spaceId, changeRequestId })`. Options, results, errors and
 * retries are those of {@link createClient}, whose client is `cw.client`.
 */
export function createContentWorkspace(options: ClientOptions & { throwOnError: true }): ContentWorkspace<true>;
export function createContentWorkspace(options?: ClientOptions & { throwOnError?: false }): ContentWorkspace<false>;
export function createContentWorkspace(options: ClientOptions): ContentWorkspace<true> | ContentWorkspace<false>;
export function createContentWorkspace(options: ClientOptions = {}): ContentWorkspace<true> | ContentWorkspace<false> {
  const client = createClient(options);
  const workspace = { client, ...bindGroup(client, operationRoutes) };
  return workspace as unknown as ContentWorkspace<true> | ContentWorkspace<false>;
}

type Routes = { readonly [name: string]: string | Routes };

/** Binds a group of routes (`{ list: 'GET …', comments: { list: 'GET …' } }`) to methods, nested groups included. */
function bindGroup(client: ContentWorkspaceClient | ThrowingClient, routes: Routes): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [name, typeof route === 'string' ? bindOperation(client, route) : bindGroup(client, route)]),
  );
}

type RawArgs = Record<string, unknown> & { query?: unknown; header?: unknown; body?: unknown };
type RawMethod = (path: string, init: Record<string, unknown>) => Promise<unknown>;

/** Makes the method for `route` (`'GET /v1/spaces/{spaceId}'`): every key of `args` but `query`, `header` and `body` is a path parameter. */
function bindOperation(client: ContentWorkspaceClient | ThrowingClient, route: string) {
  const [method, path] = route.split(' ') as [Uppercase<HttpMethod>, string];
  const send = client[method] as unknown as RawMethod;
  const operation = ({ query, header, body, ...pathParams }: RawArgs = {}, options?: Record<string, unknown>) =>
    send(path, {
      ...options,
      params: { path: pathParams, query, header },
      ...(body === undefined ? {} : { body }),
    });
  return Object.assign(operation, { method, path });
}
