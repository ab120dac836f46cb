// The input rules every operation shares (src/http/input-rules.ts): JSON nesting depth, no U+0000
// anywhere, finite numbers only; and content-batch items that are objects. Each answer is a 400 in the
// error shape, and nothing is written.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/input-rules.js';
import { useTestServer } from '../support/harness.js';
import { addMember, createOrganizationWithAdmin, createSpace, createUser, type TestUser } from '../support/factories.js';

const server = useTestServer();
let admin: TestUser;
let organizationId: string;
let spaceId: string;
let changeRequestId: string;

beforeAll(async () => {
  const t = server();
  const world = await createOrganizationWithAdmin(t);
  admin = world.admin;
  organizationId = world.organization.id;
  spaceId = (await createSpace(t, admin, world.organization)).id;
  const { data } = await admin.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId } }, body: {} });
  changeRequestId = data!.id;
});

type Answer = { status: number; body: any };

/** A raw request (node:http: fetch cannot send a GET body), as the admin. */
function send(method: string, path: string, body?: string | Buffer, contentType = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server().url);
    const headers: Record<string, string | number> = { authorization: `Bearer ${admin.token}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    const request = http.request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

function expectIssue(answer: Answer, path: string, message: RegExp) {
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({
    error: { code: 400, message: expect.any(String), issues: expect.arrayContaining([{ path, message: expect.stringMatching(message) }]) },
  });
}

describe('content batches', () => {
  it.each([
    ['space', () => `/v1/spaces/${spaceId}/content`],
    ['change request', () => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`],
  ])('refuse changes that are not objects (%s), writing nothing', async (_name, path) => {
    const { data: before } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } } });
    for (const body of ['{"changes":[1,"x",[]]}', '{"changes":[null]}', '{"changes":[true,{"type":"insert_page","title":"Fine"}]}']) {
      const answer = await send('POST', path(), body);
      expectIssue(answer, '/body/changes/0', /must be object/);
    }
    const { data: after } = await admin.client.GET('/v1/spaces/{spaceId}/content', { params: { path: { spaceId } } });
    expect(after!.id).toBe(before!.id);
    const { data: request } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path: { spaceId, changeRequestId } } });
    expect(request!.revision).toBe(request!.revisionInitial);
  });
});

describe('JSON nesting depth', () => {
  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels before parsing it, on every route`, async () => {
    for (const [path, body] of [
      ['/v1/orgs', `{"title":${nested(5000)}}`],
      [`/v1/spaces/${spaceId}/content`, `{"changes":${nested(5000)}}`],
      [`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`, `{"changes":[{"type":"insert_page","title":${nested(100_000)}}]}`],
      ['/v1/orgs', `{"title":${nested(MAX_JSON_DEPTH)}}`],
    ] as const) {
      expectIssue(await send('POST', path, body), '/body', new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
    }
  });

  it('lets a body at the limit through to the schema, and ignores brackets inside strings', async () => {
    // The body object is the first level: the title's arrays add MAX_JSON_DEPTH - 1.
    expectIssue(await send('POST', '/v1/orgs', `{"title":${nested(MAX_JSON_DEPTH - 1)}}`), '/body/title', /must be string/);
    const title = `${'[{'.repeat(100)} \\"[ \\\\`;
    const created = await send('POST', '/v1/orgs', JSON.stringify({ title: JSON.parse(`"${title}"`) }));
    expect(created.status).toBe(201);
  });

  it('counts the depth of a UTF-16 body too', async () => {
    const body = Buffer.from(`{"title":${nested(MAX_JSON_DEPTH + 1)}}`, 'utf16le');
    expectIssue(await send('POST', '/v1/orgs', body, 'application/json; charset=utf-16le'), '/body', /deeper than/);
  });
});

describe('U+0000', () => {
  it('is refused in every string of a body, keys included, with the path of each', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/orgs', { title: 'Acme\u0000' }, '/body/title'],
      ['PATCH', `/v1/orgs/${organizationId}`, { title: '\u0000' }, '/body/title'],
      ['PATCH', `/v1/spaces/${spaceId}`, { title: 'a\u0000b' }, '/body/title'],
      ['PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Team\u0000' }, '/body/title'],
      ['POST', '/v1/user/tokens', { label: 'ci\u0000' }, '/body/label'],
      ['POST', `/v1/orgs/${organizationId}/collections`, { title: 'Docs', description: '\u0000' }, '/body/description'],
      ['POST', `/v1/spaces/${spaceId}/change-requests`, { agentTaskId: 'task\u0000' }, '/body/agentTaskId'],
      ['POST', `/v1/spaces/${spaceId}/content`, { changes: [{ type: 'insert_page', title: 'Fine', markdown: 'x\u0000' }] }, '/body/changes/0/markdown'],
      ['PATCH', `/v1/spaces/${spaceId}`, { 'ti\u0000tle': 'x' }, '/body/ti\\u0000tle'],
    ];
    for (const [method, path, body, issuePath] of cases) {
      const answer = await send(method, path, JSON.stringify(body));
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body.error.issues.map((issue: { path: string }) => issue.path)).toContain(issuePath);
    }
    const { data: tokens } = await admin.client.GET('/v1/user/tokens');
    expect(tokens!.items.map((token) => token.label)).not.toContain('ci\u0000');
    const { data: requests } = await admin.client.GET('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId } } });
    expect(requests!.count).toBe(1);
  });

  it('is refused in query and path parameters and in forms', async () => {
    expectIssue(await send('GET', `/v1/orgs/${organizationId}/teams?title=a%00b`), '/query/title', /U\+0000/);
    expectIssue(await send('GET', '/v1/email-domains/%00/orgs'), '/path/emailDomain', /U\+0000/);
    expectIssue(await send('GET', '/v1/email-domains/example.com%00/orgs'), '/path/emailDomain', /U\+0000/);
    const acs = await send('POST', `/sso/orgs/${organizationId}/saml/${'a'.repeat(20)}/acs`, 'SAMLResponse=%00', 'application/x-www-form-urlencoded');
    expectIssue(acs, '/body/SAMLResponse', /U\+0000/);
  });
});

describe('numbers', () => {
  it('are finite: a limit of Infinity, -Infinity or 1e1000 is a 400 on every list', async () => {
    for (const limit of ['Infinity', '-Infinity', '1e1000']) {
      for (const path of [`/v1/orgs/${organizationId}/spaces`, '/v1/orgs', `/v1/spaces/${spaceId}/change-requests`]) {
        expectIssue(await send('GET', `${path}?limit=${limit}`), '/query/limit', /finite|must be/);
      }
    }
  });

  // `1e1000` parses as Infinity: the schema's type refuses it in every typed field, the input rules
  // wherever a schema would not say.
  it('are finite in bodies', async () => {
    const body = `{"changes":[{"type":"insert_page","title":"Fine","index":1e1000}]}`;
    expectIssue(await send('POST', `/v1/spaces/${spaceId}/content`, body), '/body/changes/0/index', /finite|must be/);
  });
});

describe('bodies of GET and DELETE', () => {
  it('are not read: neither parsed nor limited', async () => {
    expect((await send('GET', '/v1/user', '{"unterminated": ')).status).toBe(200);
    expect((await send('GET', '/v1/user', `{"a":"${'x'.repeat(2_000_000)}"}`)).status).toBe(200);
  });
});

describe('query values', () => {
  it('may carry ! ( ) * raw, as encodeURIComponent (and so the SDK) leaves them', async () => {
    const t = server();
    const member = await createUser(t, { name: "Zoë O'Neil (QA)! *" });
    await addMember(t, { id: organizationId }, member, 'read');
    for (const search of ['(QA)!', 'Neil (QA', '! *']) {
      const { data, response } = await admin.client.GET('/v1/orgs/{organizationId}/members', { params: { path: { organizationId }, query: { search } } });
      expect(new URL(response.url).search).toMatch(/[!'()*]/);
      expect(response.status).toBe(200);
      expect(data!.items.map((item) => item.user.id)).toEqual([member.user.id]);
    }
  });
});
