// A small stand-in for the Content Workspace API, enough for the README examples to run end to end
// over real HTTP: the user, organizations (paged) and tokens, with the API's error shape.
import { apiError, json, organization, startServer, type TestServer } from './server.js';

const TOKEN = 'cw_example';

/** Starts the fake API; its token is `cw_example`. */
export async function startFakeApi(): Promise<TestServer & { token: string }> {
  const organizations = [organization('o1', 'Handbook'), organization('o2', 'API docs'), organization('o3', 'Blog')];
  const tokens = [
    { object: 'api-token', id: 't2', label: 'ci', createdAt: '2026-01-02T00:00:00.000Z' },
    { object: 'api-token', id: 't1', label: 'laptop', createdAt: '2026-01-01T00:00:00.000Z' },
  ];
  let created = 0;

  const server = await startServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return apiError(response, 401, 'Missing or invalid token', { 'www-authenticate': 'Bearer' });
    }
    const url = new URL(request.url, 'http://x');
    const route = `${request.method} ${url.pathname}`;
    const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};

    if (route === 'GET /v1/user') {
      return json(response, 200, { object: 'user', id: 'u1', displayName: 'Ada', email: 'ada@example.com', urls: { location: 'http://api.test/v1/users/u1' } });
    }
    if (route === 'GET /v1/orgs') {
      // Pages of `limit` (capped at 2 here, so the examples really cross pages).
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), 2);
      const start = Number(url.searchParams.get('page') ?? 0);
      const items = organizations.slice(start, start + limit);
      const next = start + limit < organizations.length ? { next: { page: String(start + limit) } } : {};
      return json(response, 200, { items, count: organizations.length, ...next });
    }
    if (route === 'POST /v1/orgs') {
      const org = organization(`n${++created}`, String(body.title));
      organizations.unshift(org);
      return json(response, 201, org);
    }
    const orgMatch = /^GET \/v1\/orgs\/([^/]+)$/.exec(route);
    if (orgMatch) {
      const found = organizations.find((org) => org.id === orgMatch[1]);
      return found ? json(response, 200, found) : apiError(response, 404, 'Organization not found');
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
    const tokenMatch = /^DELETE \/v1\/user\/tokens\/([^/]+)$/.exec(route);
    if (tokenMatch) {
      const index = tokens.findIndex((token) => token.id === tokenMatch[1]);
      if (index < 0) return apiError(response, 404, 'Token not found');
      tokens.splice(index, 1);
      response.writeHead(205, { 'content-length': '0' });
      return response.end();
    }
    return apiError(response, 404, `No route ${route}`);
  });
  return Object.assign(server, { token: TOKEN });
}
