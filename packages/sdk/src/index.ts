// @content-workspace/sdk: a typed client for the Content Workspace API.
import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from '@content-workspace/contract';

export type { paths, components, operations } from '@content-workspace/contract';

export type ClientOptions = {
  /** The server's base URL, e.g. `https://content.example.com`. */
  baseUrl: string;
  /** A personal API token (`cw_…`). */
  token?: string;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
};

/** A client whose every call is typed by the API's paths, parameters, bodies and responses. */
export type ContentWorkspaceClient = Client<paths>;

/** Creates a client. Each call answers `{ data, error, response }`. */
export function createClient(options: ClientOptions): ContentWorkspaceClient {
  return createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
