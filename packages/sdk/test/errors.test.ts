import { STATUS_CODES } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  BadRequestError,
  ConflictError,
  ContentWorkspaceError,
  ForbiddenError,
  NotFoundError,
  PreconditionFailedError,
  RateLimitError,
  UnauthorizedError,
  createApiError,
  createClient,
} from '../src/index.js';
import { apiError, json, organization, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = { params: { path: { organizationId: 'o1' } } } as const;

const cases = [
  { status: 400, ErrorClass: BadRequestError, name: 'BadRequestError' },
  { status: 401, ErrorClass: UnauthorizedError, name: 'UnauthorizedError' },
  { status: 403, ErrorClass: ForbiddenError, name: 'ForbiddenError' },
  { status: 404, ErrorClass: NotFoundError, name: 'NotFoundError' },
  { status: 409, ErrorClass: ConflictError, name: 'ConflictError' },
  { status: 412, ErrorClass: PreconditionFailedError, name: 'PreconditionFailedError' },
  { status: 429, ErrorClass: RateLimitError, name: 'RateLimitError' },
  { status: 500, ErrorClass: ApiError, name: 'ApiError' },
] as const;

describe('throwOnError', () => {
  it.each(cases)('maps $status to $name with the message, status and request id', async ({ status, ErrorClass, name }) => {
    server = await startServer((_request, response) => apiError(response, status, `Failed with ${status}`));
    const client = createClient({ baseUrl: server.url, token: 'cw_x', throwOnError: true, maxRetries: 0 });

    const failure = await client.GET('/v1/orgs/{organizationId}', get).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ErrorClass);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toBeInstanceOf(ContentWorkspaceError);
    const error = failure as ApiError;
    expect(error.name).toBe(name);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`GET /v1/orgs/o1: ${status} ${STATUS_CODES[status]}: Failed with ${status} (request req-${status})`);
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/v1/orgs/o1');
    expect(error.requestId).toBe(`req-${status}`);
    expect(error.response.status).toBe(status);
    expect(error.body).toEqual({ error: { code: status, message: `Failed with ${status}` } });
  });

  it('keeps the validation issues of a 400', async () => {
    const issues = [{ path: '/query/limit', message: 'must be <= 1000' }];
    server = await startServer((_request, response) => apiError(response, 400, 'Invalid request', {}, issues));
    const client = createClient({ baseUrl: server.url, throwOnError: true });

    const failure = await client.GET('/v1/orgs', { params: { query: { limit: 5000 } } }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(BadRequestError);
    expect((failure as BadRequestError).issues).toEqual(issues);
  });

  it('reads Retry-After into a RateLimitError', async () => {
    server = await startServer((_request, response) => apiError(response, 429, 'Slow down', { 'retry-after': '7' }));
    const client = createClient({ baseUrl: server.url, throwOnError: true, maxRetries: 0 });

    const failure = await client.POST('/v1/user/tokens', { body: { label: 'x' } }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RateLimitError);
    expect((failure as RateLimitError).retryAfterMs).toBe(7_000);
  });

  it('still explains an answer that is not in the API’s error shape', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<h1>Bad gateway</h1>');
    });
    const client = createClient({ baseUrl: server.url, throwOnError: true });

    const failure = await client.GET('/v1/user').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('GET /v1/user: 502 Bad Gateway');
    expect((failure as ApiError).body).toBe('<h1>Bad gateway</h1>');
    expect((failure as ApiError).requestId).toBeUndefined();
  });

  it('resolves to { data, response } on success', async () => {
    server = await startServer((_request, response) =>
      json(response, 200, organization('o1'), { 'x-request-id': 'req-ok' }),
    );
    const client = createClient({ baseUrl: server.url, throwOnError: true });

    const { data, response } = await client.GET('/v1/orgs/{organizationId}', get);

    expect(data.title).toBe('Org o1');
    expect(response.headers.get('x-request-id')).toBe('req-ok');
  });
});

describe('createApiError', () => {
  it('turns the { error, response } of a non-throwing client into the matching error', async () => {
    server = await startServer((_request, response) => apiError(response, 409, 'Hostname taken'));
    const client = createClient({ baseUrl: server.url, token: 'cw_x' });

    const { error, response } = await client.POST('/v1/orgs', { body: { title: 'Acme', hostname: 'acme' } });
    const thrown = createApiError(response, error, { method: 'POST' });

    expect(thrown).toBeInstanceOf(ConflictError);
    expect(thrown).toMatchObject({ status: 409, message: 'POST /v1/orgs: 409 Conflict: Hostname taken (request req-409)', requestId: 'req-409' });
    expect(createApiError(response, error).message).toBe('/v1/orgs: 409 Conflict: Hostname taken (request req-409)');
  });
});
