// A real HTTP server on an ephemeral loopback port, so the SDK is tested through real sockets and
// Node's own fetch: nothing about the transport is mocked.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** A request as the server received it. */
export type SeenRequest = {
  method: string;
  /** Path and query, e.g. `/v1/orgs?limit=2`. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** `performance.now()` when the request's body was complete. */
  at: number;
};

/** Answers one request; `index` counts the requests received so far (0 for the first). */
export type Handler = (request: SeenRequest, response: ServerResponse, index: number) => unknown;

export type TestServer = {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
};

/** Starts a server answering with `handler`; close it in `afterEach`/`finally`. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const seen: SeenRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      const index = requests.push(seen) - 1;
      Promise.resolve(handler(seen, response, index)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `body` as JSON with `status` and extra headers. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Sends the API's error shape, with a request id like the real server's. */
export function apiError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  issues?: { path: string; message: string }[],
): void {
  json(response, status, { error: { code: status, message, ...(issues ? { issues } : {}) } }, {
    'x-request-id': `req-${status}`,
    ...headers,
  });
}

/** A port that nothing listens on (bound, then released), for connection-refused tests. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** An organization as the API answers it (only ids and titles vary in these tests). */
export function organization(id: string, title = `Org ${id}`) {
  return {
    object: 'organization',
    id,
    title,
    createdAt: '2026-01-01T00:00:00.000Z',
    emailDomains: [],
    type: 'business',
    defaultRole: 'read',
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: 'enterprise',
    internal_isOnNewTrial: true,
    billing: { interval: 'yearly', endDate: null, hasPaymentFailed: false, isScheduledToCancel: false },
    trial: { status: 'notapplicable' },
    urls: { location: `http://api.test/v1/orgs/${id}`, app: `http://app.test/o/${id}` },
    permissions: {
      view: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
    },
  };
}

/** A space as the API answers it (ids, titles and the organization vary in these tests). */
export function space(id: string, title: string, organizationId: string) {
  return {
    object: 'space',
    id,
    title,
    emoji: '',
    visibility: 'private',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    editMode: 'live',
    organization: organizationId,
    revision: 'r1',
    defaultLevel: 'inherit',
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    urls: { location: `http://api.test/v1/spaces/${id}`, app: `http://app.test/s/${id}` },
    permissions: {
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
    },
  };
}
