// What the SDK gives beyond typed calls, against the real server: `withResponse()` (the raw answer
// and its request id), error messages naming the call, and configuration from the environment.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContentWorkspaceError, NotFoundError, createClient, createContentWorkspace } from '@content-workspace/sdk';
import { useTestServer } from '../support/harness.js';
import { createUser } from '../support/factories.js';

const server = useTestServer();
afterEach(() => vi.unstubAllEnvs());

describe('the SDK against the server', () => {
  it('withResponse() gives the data, the raw answer and its request id, on named and path-based calls', async () => {
    const t = server();
    const ada = await createUser(t, { name: 'Ada' });
    const cw = createContentWorkspace({ baseUrl: t.url, token: ada.token, throwOnError: true });

    const { data, response, requestId } = await cw.users.getCurrent().withResponse();

    expect(data.displayName).toBe('Ada');
    expect(response.status).toBe(200);
    expect(requestId).toBeTruthy();
    expect(requestId).toBe(response.headers.get('x-request-id'));
    const direct = await createClient({ baseUrl: t.url, token: ada.token }).GET('/v1/user').withResponse();
    expect(direct.data?.displayName).toBe('Ada');
    expect(direct.requestId).toBe(direct.response.headers.get('x-request-id'));
    expect(direct.requestId).not.toBe(requestId);
  });

  it('names the method, path, status and request id in an error’s message', async () => {
    const t = server();
    const ada = await createUser(t);
    const cw = createContentWorkspace({ baseUrl: t.url, token: ada.token, throwOnError: true, maxRetries: 0 });

    const failure = await cw.spaces.get({ spaceId: 'no-such-space' }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(NotFoundError);
    const error = failure as NotFoundError;
    expect(error.requestId).toBeTruthy();
    expect(error.message).toMatch(/^GET \/v1\/spaces\/no-such-space: 404 Not Found: .+ \(request [^)]+\)$/);
    expect(error.message).toContain(`(request ${error.requestId})`);
    expect(error.message).toContain((error.body as { error: { message: string } }).error.message);
  });

  it('reads CONTENT_WORKSPACE_URL and CONTENT_WORKSPACE_TOKEN when they are not passed; passed options win', async () => {
    const t = server();
    const ada = await createUser(t, { name: 'Ada' });
    const grace = await createUser(t, { name: 'Grace' });
    vi.stubEnv('CONTENT_WORKSPACE_URL', t.url);
    vi.stubEnv('CONTENT_WORKSPACE_TOKEN', ada.token);

    const { data: fromEnvironment } = await createContentWorkspace({ throwOnError: true }).users.getCurrent();
    const { data: passed } = await createContentWorkspace({ token: grace.token, throwOnError: true }).users.getCurrent();
    const { data: anonymous, response } = await createClient({ token: undefined }).GET('/v1/user');

    expect(fromEnvironment.displayName).toBe('Ada');
    expect(passed.displayName).toBe('Grace');
    expect(anonymous).toBeUndefined();
    expect(response.status).toBe(401);
  });

  it('says what to set when there is no address at all', () => {
    vi.stubEnv('CONTENT_WORKSPACE_URL', '');
    expect(() => createContentWorkspace()).toThrow(ContentWorkspaceError);
    expect(() => createClient()).toThrow('No server address: pass `baseUrl` or set CONTENT_WORKSPACE_URL');
  });
});
