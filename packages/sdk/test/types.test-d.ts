// Type-level tests: they run under `tsc` (the package's typecheck script) and vitest's typecheck
// mode. When the contract changes shape, these fail to compile.
import { describe, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  NotFoundError,
  collect,
  createClient,
  paginate,
  type ContentWorkspaceClient,
  type ListItem,
  type ListPath,
  type Schema,
  type ThrowingClient,
} from '../src/index.js';

const client = createClient({ baseUrl: 'http://localhost:8080', token: 'cw_x' });
const throwing = createClient({ baseUrl: 'http://localhost:8080', token: 'cw_x', throwOnError: true });

describe('createClient', () => {
  it('picks the kind of client from throwOnError', () => {
    expectTypeOf(client).toEqualTypeOf<ContentWorkspaceClient>();
    expectTypeOf(throwing).toEqualTypeOf<ThrowingClient>();
    expectTypeOf(createClient({ baseUrl: 'x', throwOnError: false })).toEqualTypeOf<ContentWorkspaceClient>();
  });
});

describe('calls', () => {
  it('types data and error by path, and data is optional until narrowed', async () => {
    const { data, error } = await client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: 'o1' } } });
    expectTypeOf(data).toEqualTypeOf<Schema<'Organization'> | undefined>();
    expectTypeOf(error).toEqualTypeOf<Schema<'Error'> | undefined>();
    if (!error) expectTypeOf(data).toEqualTypeOf<Schema<'Organization'>>();
  });

  it('makes data non-optional in throwing mode', async () => {
    const { data } = await throwing.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: 'o1' } } });
    expectTypeOf(data).toEqualTypeOf<Schema<'Organization'>>();

    const created = await throwing.POST('/v1/user/tokens', { body: { label: 'ci' } });
    expectTypeOf(created.data).toEqualTypeOf<Schema<'CreatedApiToken'>>();

    const deleted = await throwing.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: 't1' } } });
    expectTypeOf(deleted.data).toEqualTypeOf<undefined>();
  });

  it('rejects a wrong path', () => {
    // @ts-expect-error: no such path
    void client.GET('/v1/organizations');
    // @ts-expect-error: /v1/user/tokens has no PATCH
    void throwing.PATCH('/v1/user/tokens', { body: { label: 'x' } });
  });

  it('rejects wrong and missing parameters', () => {
    // @ts-expect-error: the path parameter is organizationId
    void client.GET('/v1/orgs/{organizationId}', { params: { path: { orgId: 'o1' } } });
    // @ts-expect-error: the path parameter is required
    void client.GET('/v1/orgs/{organizationId}');
    // @ts-expect-error: limit is a number
    void client.GET('/v1/orgs', { params: { query: { limit: '10' } } });
  });

  it('rejects a wrong or missing body', () => {
    // @ts-expect-error: label is a string
    void client.POST('/v1/user/tokens', { body: { label: 42 } });
    // @ts-expect-error: label is required
    void throwing.POST('/v1/user/tokens', { body: {} });
    // @ts-expect-error: the body is required
    void client.POST('/v1/user/tokens');
  });

  it('types the call options', () => {
    void client.GET('/v1/user', { timeoutMs: 1_000, maxRetries: 0, signal: AbortSignal.timeout(1_000) });
    // @ts-expect-error: timeoutMs is a number
    void client.GET('/v1/user', { timeoutMs: '1s' });
  });
});

describe('paginate', () => {
  it('accepts the list operations and only them', () => {
    // List operations join as the spec grows: check membership, not the exact set.
    expectTypeOf<'/v1/user/tokens' | '/v1/orgs'>().toExtend<ListPath>();
    expectTypeOf<'/v1/orgs/{organizationId}'>().not.toExtend<ListPath>();
    // @ts-expect-error: a single organization is not a list
    void paginate(client, '/v1/orgs/{organizationId}', { path: { organizationId: 'o1' } });
    // @ts-expect-error: this answer is { organizations }, not a page of items
    void paginate(client, '/v1/email-domains/{emailDomain}/orgs', { path: { emailDomain: 'example.com' } });
    // @ts-expect-error: limit is a number
    void paginate(client, '/v1/orgs', { query: { limit: 'all' } });
  });

  it('infers the item type', async () => {
    expectTypeOf(paginate(client, '/v1/orgs')).toEqualTypeOf<AsyncGenerator<Schema<'Organization'>, void, undefined>>();
    expectTypeOf(await collect(paginate(throwing, '/v1/user/tokens'), 10)).toEqualTypeOf<Schema<'ApiToken'>[]>();
    expectTypeOf<ListItem<'/v1/orgs'>>().toEqualTypeOf<Schema<'Organization'>>();
  });
});

describe('change requests', () => {
  it('types the change-request operations from the contract', async () => {
    const path = { spaceId: 's1', changeRequestId: '12' };
    expectTypeOf<'/v1/spaces/{spaceId}/change-requests'>().toExtend<ListPath>();
    expectTypeOf<ListItem<'/v1/spaces/{spaceId}/change-requests'>>().toEqualTypeOf<Schema<'ChangeRequest'>>();
    const created = await throwing.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: 's1' } }, body: { subject: 'Fix' } });
    expectTypeOf(created.data).toEqualTypeOf<Schema<'ChangeRequest'>>();
    const merged = await throwing.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', { params: { path } });
    expectTypeOf(merged.data.result).toEqualTypeOf<'merge' | 'update' | 'conflicts'>();
    const edited = await throwing.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', { params: { path }, body: { changes: [{ type: 'insert_page', title: 'New' }] } });
    expectTypeOf(edited.data.changeRequest).toEqualTypeOf<Schema<'ChangeRequest'>>();
    // @ts-expect-error: status is one of draft, open, archived, merged
    void client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path }, body: { status: 'closed' } });
    // @ts-expect-error: the list filter is named contributor
    void client.GET('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId: 's1' }, query: { author: 'u1' } } });
  });
});

describe('errors', () => {
  it('narrows status in the subclasses', () => {
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<404>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ApiError['issues']>().toEqualTypeOf<readonly Schema<'ErrorIssue'>[]>();
  });
});
