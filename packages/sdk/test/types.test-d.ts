// Type-level tests, checked by `tsc` (`pnpm typecheck` at the root, or the package's typecheck
// script): when the contract changes shape, these fail to compile. vitest does not run them
// (packages/sdk/vitest.config.ts).
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ApiError,
  type NotFoundError,
  collect,
  createClient,
  createContentWorkspace,
  paginate,
  type ContentWorkspace,
  type ContentWorkspaceClient,
  type OperationArgs,
  type ListItem,
  type ListPath,
  type Schema,
  type ThrowingClient,
} from '../src/index.js';

const client = createClient({ baseUrl: 'http://localhost:8080', token: 'cw_x' });
const throwing = createClient({ baseUrl: 'http://localhost:8080', token: 'cw_x', throwOnError: true });
const cw = createContentWorkspace({ baseUrl: 'http://localhost:8080', token: 'cw_x' });
const cwThrowing = createContentWorkspace({ baseUrl: 'http://localhost:8080', token: 'cw_x', throwOnError: true });

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

  it('rejects a misspelt key, at the top of the init or in the body', () => {
    const path = { spaceId: 's1' };
    // @ts-expect-error: titel is not a field of the space (every field of this body is optional)
    void client.PATCH('/v1/spaces/{spaceId}', { params: { path }, body: { titel: 'Guides' } });
    // @ts-expect-error: titel, in a throwing client
    void throwing.PATCH('/v1/spaces/{spaceId}', { params: { path }, body: { title: 'Guides', titel: 'Guides' } });
    // @ts-expect-error: the init key is params
    void client.GET('/v1/spaces/{spaceId}', { parms: { path } });
    // @ts-expect-error: the query parameter is limit
    void client.GET('/v1/orgs', { params: { query: { limt: 10 } } });
    // @ts-expect-error: a misspelt key inside an element of a batch
    void client.POST('/v1/spaces/{spaceId}/content', { params: { path }, body: { changes: [{ type: 'insert_page', titel: 'New' }] } });
  });

  it('types the answer by parseAs', async () => {
    const path = { signature: 'sig' };
    expectTypeOf((await throwing.GET('/files/{signature}', { params: { path }, parseAs: 'arrayBuffer' })).data).toEqualTypeOf<ArrayBuffer>();
    expectTypeOf((await throwing.GET('/v1/user', { parseAs: 'text' })).data).toEqualTypeOf<string>();
    // @ts-expect-error: not a way to read a body
    void client.GET('/v1/user', { parseAs: 'xml' });
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

describe('named operations', () => {
  it('groups the operations by tag, with the path-based client as cw.client', () => {
    expectTypeOf(cw).toEqualTypeOf<ContentWorkspace<false>>();
    expectTypeOf(cwThrowing).toEqualTypeOf<ContentWorkspace<true>>();
    expectTypeOf(cw.client).toEqualTypeOf<ContentWorkspaceClient>();
    expectTypeOf(cwThrowing.client).toEqualTypeOf<ThrowingClient>();
    expectTypeOf(cw.spaces.get.path).toEqualTypeOf<'/v1/spaces/{spaceId}'>();
    expectTypeOf(cw.changeRequests.merge.method).toEqualTypeOf<'POST'>();
  });

  it('takes the path parameters, query and body in one object, typed from the contract', () => {
    expectTypeOf<OperationArgs<'/v1/spaces/{spaceId}', 'get'>>().toEqualTypeOf<{ spaceId: string; query?: { shareKey?: string } }>();
    // The body is openapi-fetch's (writable fields only), equivalent to the schema.
    type CreateArgs = { spaceId: string; body?: Schema<'CreateChangeRequestRequest'> };
    expectTypeOf<OperationArgs<'/v1/spaces/{spaceId}/change-requests', 'post'>>().toExtend<CreateArgs>();
    expectTypeOf<CreateArgs>().toExtend<OperationArgs<'/v1/spaces/{spaceId}/change-requests', 'post'>>();
    expectTypeOf<OperationArgs<'/v1/user', 'get'>>().toEqualTypeOf<{}>();
  });

  it('types data like the path-based client, throwing or not', async () => {
    const { data, error } = await cw.spaces.get({ spaceId: 's1' });
    expectTypeOf(data).toEqualTypeOf<Schema<'Space'> | undefined>();
    expectTypeOf(error).toEqualTypeOf<Schema<'Error'> | undefined>();
    expectTypeOf((await cwThrowing.spaces.get({ spaceId: 's1' })).data).toEqualTypeOf<Schema<'Space'>>();
    expectTypeOf((await cwThrowing.changeRequests.merge({ spaceId: 's1', changeRequestId: '1' })).data.result).toEqualTypeOf<
      'merge' | 'update' | 'conflicts'
    >();
    expectTypeOf((await cwThrowing.users.tokens.delete({ tokenId: 't1' })).data).toEqualTypeOf<undefined>();
    expectTypeOf((await cwThrowing.files.download({ signature: 's' }, { parseAs: 'blob' })).data).toEqualTypeOf<Blob>();
  });

  it('rejects misspelt keys', () => {
    // @ts-expect-error: titel is not a field of the space
    void cw.spaces.update({ spaceId: 's1', body: { titel: 'Guides' } });
    // @ts-expect-error: the path parameter is spaceId
    void cw.spaces.get({ spaceID: 's1' });
    // @ts-expect-error: the query parameter is limit
    void cw.organizations.list({ query: { limt: 10 } });
    // @ts-expect-error: a misspelt key inside an element of a batch
    void cw.spaces.content.apply({ spaceId: 's1', body: { changes: [{ type: 'insert_page', titel: 'New' }] } });
    // @ts-expect-error: the option is timeoutMs
    void cw.users.getCurrent({}, { timeout: 1_000 });
    // @ts-expect-error: call options come second, after the (here empty) arguments
    void cw.users.getCurrent({ signal: AbortSignal.timeout(1_000) });
  });

  it('rejects wrong and missing parameters and bodies', () => {
    // @ts-expect-error: spaceId is a string
    void cw.spaces.get({ spaceId: 1 });
    // @ts-expect-error: spaceId is required
    void cw.spaces.get({});
    // @ts-expect-error: the arguments are required
    void cw.spaces.get();
    // @ts-expect-error: limit is a number
    void cw.organizations.list({ query: { limit: '10' } });
    // @ts-expect-error: status is one of draft, open, archived
    void cw.changeRequests.update({ spaceId: 's1', changeRequestId: '1', body: { status: 'closed' } });
    // @ts-expect-error: the body is required
    void cw.users.tokens.create({});
    // @ts-expect-error: label is required
    void cw.users.tokens.create({ body: {} });
    // @ts-expect-error: a GET takes no body
    void cw.spaces.get({ spaceId: 's1', body: { title: 'x' } });
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

  it('accepts the named list operations and only them', () => {
    // @ts-expect-error: a single space is not a list
    void paginate(cw.spaces.get, { spaceId: 's1' });
    // @ts-expect-error: creating is not listing
    void paginate(cw.spaces.create, { organizationId: 'o1' });
    // @ts-expect-error: the organization is required
    void paginate(cw.spaces.list);
    // @ts-expect-error: the query parameter is limit
    void paginate(cw.spaces.list, { organizationId: 'o1', query: { limt: 10 } });
    expectTypeOf(paginate(cwThrowing.spaces.list, { organizationId: 'o1' })).toEqualTypeOf<
      AsyncGenerator<Schema<'Space'>, void, undefined>
    >();
    expectTypeOf(paginate(cw.organizations.list)).toEqualTypeOf<AsyncGenerator<Schema<'Organization'>, void, undefined>>();
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
