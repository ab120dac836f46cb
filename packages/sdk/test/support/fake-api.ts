// A small stand-in for the Content Workspace API, enough for the README examples to run end to end
// over real HTTP: the user, organizations and spaces (paged), tokens, a content batch, one change
// request's life, comments and search results, with the API's error shape. Each request must match a route exactly.
import { apiError, json, organization, space, startServer, type TestServer } from './server.js';

const TOKEN = 'cw_example';

type Body = Record<string, unknown>;

/** Starts the fake API; its token is `cw_example`. */
export async function startFakeApi(): Promise<TestServer & { token: string }> {
  const organizations = [organization('o1', 'Handbook'), organization('o2', 'API docs'), organization('o3', 'Blog')];
  const spaces = [space('s1', 'Guides', 'o1')];
  const tokens = [
    { object: 'api-token', id: 't2', label: 'ci', createdAt: '2026-01-02T00:00:00.000Z' },
    { object: 'api-token', id: 't1', label: 'laptop', createdAt: '2026-01-01T00:00:00.000Z' },
  ];
  const gettingStarted = {
    id: 'p1',
    title: 'Getting started',
    type: 'document',
    slug: 'getting-started',
    path: 'getting-started',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    urls: { app: 'http://app.test/s/s1/getting-started' },
    pages: [],
    layout: { cover: true, coverSize: 'hero', title: true, description: true, tableOfContents: true, outline: true, pagination: true },
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
  };
  // The change request's state: the space moved on after it was opened, so it is outdated.
  const changeRequest = { ...changeRequestBody('cr1', 1), outdated: true };
  let created = 0;
  const createdByKey = new Map<string, unknown>();
  // One comment's life (posted, replied to, reacted to, resolved) beside an open comment on an edited block.
  const ada = { object: 'user', id: 'u1', displayName: 'Ada', email: 'ada@example.com', urls: { location: 'http://api.test/v1/users/u1' } };
  const now = '2026-01-02T00:00:00.000Z';
  const permissions = { view: true, edit: true, reply: true, delete: true };
  const commentUrl = 'http://api.test/v1/spaces/s1/comments/c1';
  const pageTarget = { id: 'p1', title: 'Getting started', path: 'getting-started', outdated: false };
  const comment: Record<string, any> = {
    object: 'comment', id: 'c1', postedBy: ada, postedAt: now, reactions: [], replies: 0, body: {},
    target: { space: 's1', revision: 'r1', page: pageTarget }, urls: { location: commentUrl }, permissions, status: 'open',
  };
  const otherComment: Record<string, any> = {
    ...comment,
    id: 'c2',
    postedBy: { ...ada, id: 'u2', displayName: 'Grace' },
    body: { markdown: 'Which options?' },
    target: { space: 's1', revision: 'r1', page: pageTarget, node: { id: '3f1c9a7b2e4d6f80', preview: 'Run the installer with the default options.' } },
    urls: { location: 'http://api.test/v1/spaces/s1/comments/c2' },
  };

  /** Pages of `limit` items (capped at 2 here, so the examples really cross pages); `page` is an offset. */
  const paged = <Item>(items: Item[], url: URL) => {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), 2);
    const start = Number(url.searchParams.get('page') ?? 0);
    const next = start + limit < items.length ? { next: { page: String(start + limit) } } : {};
    return { items: items.slice(start, start + limit), count: items.length, ...next };
  };

  const server = await startServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return apiError(response, 401, 'Missing or invalid token', { 'www-authenticate': 'Bearer' });
    }
    const url = new URL(request.url, 'http://x');
    const route = `${request.method} ${url.pathname}`;
    const body = (request.body ? JSON.parse(request.body) : {}) as Body;
    const match = (pattern: RegExp) => pattern.exec(route)?.slice(1);
    let found: string[] | undefined;

    if (route === 'GET /v1/user') {
      return json(response, 200, { object: 'user', id: 'u1', displayName: 'Ada', email: 'ada@example.com', urls: { location: 'http://api.test/v1/users/u1' } });
    }
    if (route === 'GET /v1/orgs') return json(response, 200, paged(organizations, url));
    if (route === 'POST /v1/orgs') {
      const org = organization(`n${++created}`, String(body.title));
      organizations.unshift(org);
      return json(response, 201, org);
    }
    if ((found = match(/^GET \/v1\/orgs\/([^/]+)$/))) {
      const org = organizations.find((candidate) => candidate.id === found![0]);
      return org ? json(response, 200, org) : apiError(response, 404, 'Organization not found');
    }
    if ((found = match(/^GET \/v1\/orgs\/([^/]+)\/spaces$/))) {
      return json(response, 200, paged(spaces.filter((candidate) => candidate.organization === found![0]), url));
    }
    if ((found = match(/^POST \/v1\/orgs\/([^/]+)\/spaces$/))) {
      // The server's Idempotency-Key rule, for this route: a key seen before gets its first answer.
      const key = String(request.headers['idempotency-key']);
      const first = createdByKey.get(key);
      if (first) return json(response, 201, first, { 'idempotent-replayed': 'true' });
      const added = space(`s${spaces.length + 1}`, String(body.title), found[0]!);
      createdByKey.set(key, added);
      spaces.push(added);
      return json(response, 201, added);
    }
    if ((found = match(/^GET \/v1\/spaces\/([^/]+)$/))) {
      const read = spaces.find((candidate) => candidate.id === found![0]);
      return read ? json(response, 200, read) : apiError(response, 404, 'Space not found');
    }
    if (route === 'POST /v1/spaces/s1/content') {
      // Objects get ids in order; the answer maps each `ref` to its id.
      const changes = body.changes as { type: string; ref?: string }[];
      const ids = { insert_file: 'f1', insert_page: 'p2' } as Record<string, string>;
      const refs = Object.fromEntries(changes.filter((change) => change.ref).map((change) => [change.ref, ids[change.type]]));
      return json(response, 200, { space: spaces[0], revision: 'r2', refs });
    }
    if (route === 'GET /v1/spaces/s1/content/path/getting-started') return json(response, 200, gettingStarted);
    if (route === 'POST /v1/spaces/s1/change-requests') {
      changeRequest.subject = String(body.subject ?? '');
      return json(response, 201, changeRequest);
    }
    if (route === 'GET /v1/spaces/s1/change-requests/cr1') return json(response, 200, changeRequest);
    if (route === 'PATCH /v1/spaces/s1/change-requests/cr1') {
      Object.assign(changeRequest, body);
      return json(response, 200, changeRequest);
    }
    if (route === 'POST /v1/spaces/s1/change-requests/cr1/content') {
      return json(response, 200, { changeRequest, revision: 'r3', refs: {} });
    }
    if (route === 'POST /v1/spaces/s1/change-requests/cr1/update') {
      changeRequest.outdated = false;
      return json(response, 200, { revision: 'r4', result: 'update', conflicts: [] });
    }
    if (route === 'POST /v1/spaces/s1/change-requests/cr1/merge') {
      return json(response, 200, { revision: 'r5', result: 'merge', conflicts: [] });
    }
    if (route === 'POST /v1/spaces/s1/comments') {
      Object.assign(comment, { body: (body as { body: unknown }).body, target: { ...comment.target, page: { ...comment.target.page, id: String(body.page) } } });
      return json(response, 200, comment);
    }
    if (route === 'POST /v1/spaces/s1/comments/c1/replies') {
      comment.replies += 1;
      return json(response, 200, { object: 'comment-reply', id: 'c1r1', postedBy: ada, postedAt: now, reactions: [], body: body.body, urls: { location: `${commentUrl}/replies/c1r1` }, permissions });
    }
    if (route === 'PUT /v1/spaces/s1/comments/c1') {
      if (body.resolved === true) Object.assign(comment, { status: 'resolved', resolvedAt: now, resolvedBy: ada });
      for (const emoji of (body.addedReactions as string[] | undefined) ?? []) comment.reactions.push({ emoji, count: 1, users: [{ user: ada, reactedAt: now }] });
      return json(response, 200, comment);
    }
    if (route === 'GET /v1/spaces/s1/comments') {
      const open = [comment, otherComment].filter((item) => url.searchParams.get('status') !== 'open' || item.status === 'open');
      return json(response, 200, paged(open, url));
    }
    if (route === 'GET /v1/spaces/s1/search') {
      const section = { id: 'install', title: 'Install', path: 'getting-started#install', body: 'Run the installer with the default options.', urls: { app: `${gettingStarted.urls.app}#install` } };
      const upgrade = { id: 'p3', title: 'Upgrade', path: 'upgrade', urls: { app: 'http://app.test/s/s1/upgrade' } };
      return json(response, 200, {
        items: [
          { id: 'p1', title: 'Getting started', path: 'getting-started', urls: gettingStarted.urls, sections: [section] },
          { ...upgrade, sections: [{ ...upgrade, id: 'p3', title: 'Upgrade', body: 'Stop the server, install the new version.' }] },
        ],
        count: 2,
      });
    }
    if (route === 'GET /v1/orgs/o1/search') {
      const page = (id: string, title: string, spaceId: string) => {
        const urls = { app: `http://app.test/s/${spaceId}/${id}` };
        return { id, title, path: id, urls, sections: [{ id, title, path: id, body: `How to ${title.toLowerCase()}.`, urls }] };
      };
      const results = [
        { id: 's1', title: 'Guides', pages: [page('install', 'Install the server', 's1'), page('upgrade', 'Upgrade an installation', 's1')] },
        { id: 's2', title: 'Operations', pages: [page('backups', 'Back up an installation', 's2')] },
        { id: 's3', title: 'Release notes', pages: [page('v2', 'Installer 2.0', 's3')] },
        { id: 's4', title: 'Archive', pages: [page('old', 'Install the old server', 's4')] },
      ];
      return json(response, 200, paged(results, url));
    }
    if (route === 'GET /v1/user/tokens') return json(response, 200, { items: tokens, count: tokens.length });
    if (route === 'POST /v1/user/tokens') {
      if (typeof body.label !== 'string' || body.label === '') {
        return apiError(response, 400, 'Invalid request', {}, [{ path: '/body/label', message: 'must not be empty' }]);
      }
      const token = { object: 'api-token', id: `t${tokens.length + 1}`, label: body.label, createdAt: '2026-01-03T00:00:00.000Z' };
      tokens.unshift(token);
      return json(response, 201, { ...token, token: 'cw_new' });
    }
    if ((found = match(/^DELETE \/v1\/user\/tokens\/([^/]+)$/))) {
      const index = tokens.findIndex((token) => token.id === found![0]);
      if (index < 0) return apiError(response, 404, 'Token not found');
      tokens.splice(index, 1);
      response.writeHead(205, { 'content-length': '0' });
      return response.end();
    }
    return apiError(response, 404, `No route ${route}`);
  });
  return Object.assign(server, { token: TOKEN });
}

function changeRequestBody(id: string, number: number) {
  return {
    object: 'change-request',
    id,
    number,
    status: 'open',
    subject: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    revision: 'r1',
    revisionInitial: 'r1',
    comments: 0,
    outdated: false,
    urls: { location: `http://api.test/v1/spaces/s1/change-requests/${id}`, app: `http://app.test/s/s1/~/changes/${number}` },
  };
}
