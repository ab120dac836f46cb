// `pnpm build`'s output under plain node, as docs/deploy.md runs it (here on the embedded PostgreSQL,
// EMBEDDED_DATABASE=true): it starts and answers, with everything it loads at run time (every
// migration, the contract, the /docs reference, worker threads) and every area working from the build,
// published sites included; asked (BOOTSTRAP_DEMO=true), it prints the demo token as a banner apart from the JSON log,
// logs one access line per request, stops on SIGTERM, and — with the CLI, built or not — names a
// database it cannot reach instead of printing a stack.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listOperations } from '../../src/http/operations.js';
import { freePort, startChildServer, type ChildServer } from '../fault/child-server.js';
import { startFixtureSite, type FixtureSite } from '../support/fixture-site.js';
import { zip } from '../support/zip.js';
import { buildServer, duplicateKeys, run, runCli, serverDir, type Build } from './build.js';

let build: Build;
beforeAll(async () => {
  build = await buildServer();
}, 60_000);
afterAll(() => build?.remove());

describe('the built server under plain node', { timeout: 120_000 }, () => {
  let server: ChildServer;
  let site: FixtureSite;
  beforeAll(async () => {
    // A page for the import to fetch, on this machine (hence OUTBOUND_ALLOW_PRIVATE).
    site = await startFixtureSite({
      '/guide/': { type: 'text/html; charset=utf-8', body: '<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Read <a href="/guide/next">the next page</a> first.</p></main></body></html>' },
    });
    server = await startChildServer({ command: 'built', dist: build.dir, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  }, 120_000);
  afterAll(async () => {
    await server?.cleanUp();
    await site?.close();
  });

  it('runs without tsx: its files import only node_modules and one another, and every file it loads by address is there', async () => {
    const { stdout } = await promisify(execFile)('grep', ['-rhoE', `from "[^"]+"`, build.dir, '--include=*.js']);
    const imports = new Set(stdout.trim().split('\n').map((line) => line.slice(6, -1)));
    expect([...imports].filter((name) => /tsx|\.ts$|@content-workspace/.test(name))).toEqual([]);
    expect(server.process.spawnargs.slice(1)).toEqual(['--enable-source-maps', join(build.dir, 'main.js')]);
    // `new URL('./x', import.meta.url)` (the parse pool's worker) resolves beside the bundle: it is an
    // entry of tsdown.config.ts. Chunks loaded on first use (`import('./x.js')`: the /docs renderer, the
    // parse tasks) are there too.
    const sources = readdirSync(build.dir).filter((file) => file.endsWith('.js')).map((file) => readFileSync(join(build.dir, file), 'utf8'));
    const byAddress = sources.flatMap((source) => [...source.matchAll(/new URL\("(\.\/[^"]+)", import\.meta\.url\)/g)].map((match) => match[1]!));
    const onFirstUse = sources.flatMap((source) => [...source.matchAll(/\bimport\("(\.\/[^"]+)"\)/g)].map((match) => match[1]!));
    // Worker threads are TypeScript (src/parsing/parse.worker.ts); the build loads its own entry, the
    // sources' address serves tsx and vitest only.
    expect(readdirSync(join(serverDir, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.worker.mjs'))).toEqual([]);
    expect([...new Set(byAddress)].sort()).toEqual(['./parse.worker.js', './parse.worker.ts']);
    expect(onFirstUse.length).toBeGreaterThan(0);
    expect([...byAddress.filter((file) => !file.endsWith('.ts')), ...onFirstUse].filter((file) => !existsSync(join(build.dir, file)))).toEqual([]);
  });

  it('applied every migration in src/db/migrations (the build lists them statically)', async () => {
    const files = readdirSync(join(serverDir, 'src/db/migrations'))
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts' && !file.endsWith('.test.ts'))
      .map((file) => file.slice(0, -3));
    const applied = await server.sql(async (sql) => (await sql.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((row) => row.name));
    expect(files.length).toBeGreaterThan(10);
    expect(applied).toEqual(files.sort());
  });

  it('serves the API reference at /docs/ with every operation and its local assets', async () => {
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const rendered = [...html.matchAll(/data-operation-id="([^"]+)"/g)].map((match) => match[1]);
    expect(rendered.sort()).toEqual(listOperations().map((operation) => operation.operationId).sort());
    for (const asset of ['reference.css', 'reference.js', 'openapi.json']) {
      expect(html, asset).toContain(asset);
      expect((await fetch(`${server.url}/docs/${asset}`)).status, asset).toBe(200);
    }
  });

  it('answers for every area: sites (conditions, adaptive schema, published as HTML), comments (the markdown check), imports (html, zip)', async () => {
    const client = server.client(server.token);
    const organizationId = server.organizationId;
    const { data: space } = await client.POST('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Areas' } });
    const spaceId = space!.id;

    // Imports: an HTML page fetched over HTTP (readability, turndown), then a zip archive (yauzl, markdown).
    const fromHtml = await client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId } }, body: { source: 'html', url: `${site.url}/guide/` } });
    expect(fromHtml.response.status, JSON.stringify(fromHtml.error)).toBe(201);
    const archive = zip([{ name: 'README.md', data: '# Handbook\n\nSee [the guide](guide.md).\n' }, { name: 'guide.md', data: '# Guide two\n\nText.\n' }]);
    const fromZip = await client.POST('/v1/spaces/{spaceId}/content/import', { params: { path: { spaceId } }, body: { source: 'zip', base64: archive.toString('base64') } });
    expect(fromZip.response.status, JSON.stringify(fromZip.error)).toBe(201);
    expect(fromZip.data).toMatchObject({ importedResources: 2, truncated: false, skipped: [] });
    const { data: pages } = await client.GET('/v1/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } });
    expect(pages!.pages.map((page) => page.title)).toEqual(['Guide', 'Handbook', 'Guide two']);

    // Comments; a body nesting too deeply is refused by the markdown check's worker thread.
    const comment = await client.POST('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId } }, body: { body: { markdown: 'Looks *good*' } } });
    expect(comment.response.status, JSON.stringify(comment.error)).toBe(200);
    const tooDeep = await client.POST('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId } }, body: { body: { markdown: `${'> '.repeat(100)}deep` } } });
    expect(tooDeep.response.status).toBe(400);
    expect(tooDeep.error?.error.issues?.[0]?.path).toBe('/body/body/markdown');
    const { data: comments } = await client.GET('/v1/spaces/{spaceId}/comments', { params: { path: { spaceId } } });
    expect(comments!.items.map((item) => item.id)).toEqual([comment.data!.id]);

    // Sites: a section shown on a condition (parsed with acorn), an adaptive schema (checked by Ajv), published.
    const sitePath = (siteId: string) => ({ params: { path: { organizationId, siteId } } });
    const { data: newSite } = await client.POST('/v1/orgs/{organizationId}/sites', { params: { path: { organizationId } }, body: { title: 'Docs', visibility: 'public' } });
    const siteId = newSite!.id;
    const section = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(siteId), body: { spaceId, title: 'Guides' } });
    expect(section.response.status, JSON.stringify(section.error)).toBe(201);
    const conditioned = await client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', {
      params: { path: { organizationId, siteId, siteSectionId: section.data!.id } },
      body: { condition: 'visitor.claims.plan === "pro"' },
    });
    expect(conditioned.response.status, JSON.stringify(conditioned.error)).toBe(200);
    const badCondition = await client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', {
      params: { path: { organizationId, siteId, siteSectionId: section.data!.id } },
      body: { condition: 'visitor.claims.plan ===' },
    });
    expect(badCondition.response.status).toBe(400);
    const jsonSchema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { plan: { type: 'string', enum: ['free', 'pro'] } }, additionalProperties: false };
    const schema = await client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', { ...sitePath(siteId), body: { jsonSchema: jsonSchema as never } });
    expect(schema.response.status, JSON.stringify(schema.error)).toBe(200);
    expect((await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(siteId))).data?.published).toBe(true);
    const published = await client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', sitePath(siteId));
    expect(published.response.status, JSON.stringify(published.error)).toBe(200);

    // A published site as HTML (remark, rehype, highlighting), with its stylesheet.
    const { data: sample } = await client.POST('/v1/orgs/{organizationId}/sites', { params: { path: { organizationId } }, body: { title: 'Sample', spaces: 'sample', visibility: 'public' } });
    expect((await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(sample!.id))).data?.published).toBe(true);
    const page = await fetch(`${server.url}/s/${sample!.id}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('Welcome');
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    expect((await fetch(new URL(stylesheet!, `${server.url}/s/${sample!.id}/`))).status).toBe(200);
  });

  it('renders a PDF in its worker thread', async () => {
    const client = server.client(server.token);
    const space = await client.POST('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: server.organizationId } }, body: { title: 'Printed' } });
    const spaceId = space.data!.id;
    const changeRequest = await client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId } }, body: { subject: 'Print me' } });
    const { data, response } = await client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', {
      params: { path: { spaceId, changeRequestId: changeRequest.data!.id } },
    });
    expect(response.status, JSON.stringify(data)).toBe(200);
    const pdf = await fetch(data!.url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers, with the demo token it printed as a banner on stderr after listening; stdout stays JSON lines', async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const { data } = await server.client(server.token).GET('/v1/orgs');
    expect(data?.items.map((organization) => organization.title)).toEqual(['Demo organization']);
    expect(server.stderr()).toContain(`Content Workspace is running at http://localhost:${server.port}`);
    expect(server.stderr()).toMatch(new RegExp(`API token .*\\n\\n    ${server.token}\\n`));
    expect(server.stderr()).toContain(`API reference: http://localhost:${server.port}/docs/`);
    expect(server.stdout.length).toBeGreaterThan(5);
    expect(server.stdout.filter((line) => !isJson(line))).toEqual([]);
    expect(server.stdout.join('\n')).not.toContain(server.token);
  });

  it('logs one access line per request at info: method, path, operation, status, duration, request id', async () => {
    const client = server.client(server.token);
    const requestId = 'access-log-check-1';
    await fetch(`${server.url}/v1/orgs/${server.organizationId}?unknownParameter=secret`, { headers: { Authorization: `Bearer ${server.token}`, 'X-Request-Id': requestId } });
    const line = await server.waitForLog(/^request$/, 5000).then(() => waitForRequestLine(server, requestId));
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      reqId: requestId,
      method: 'GET',
      path: `/v1/orgs/${server.organizationId}`, // never the query string
      operation: 'getOrganizationById',
      status: 400,
      ms: expect.any(Number),
      msg: 'request',
    });

    // A secret in the path (an invite's id is the invite) is masked; a 404 is logged like the rest.
    await client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', {
      params: { path: { organizationId: server.organizationId, inviteId: 'AAAAAAAAAAAAAAAAAAAA' } },
      headers: { 'X-Request-Id': 'access-log-check-2' },
    });
    expect(await waitForRequestLine(server, 'access-log-check-2')).toMatchObject({
      level: 30,
      method: 'POST',
      path: `/v1/orgs/${server.organizationId}/link-invites/[redacted]/join`,
      operation: 'joinWithLinkInvite',
      status: 404,
    });

    // A success, and a path no operation matches.
    await client.GET('/v1/user', { headers: { 'X-Request-Id': 'access-log-check-3' } });
    expect(await waitForRequestLine(server, 'access-log-check-3')).toMatchObject({ method: 'GET', path: '/v1/user', operation: 'getAuthenticatedUser', status: 200 });
    await fetch(`${server.url}/nowhere`, { headers: { 'X-Request-Id': 'access-log-check-4' } });
    expect(await waitForRequestLine(server, 'access-log-check-4')).toMatchObject({ path: '/nowhere', status: 404 });
    expect((await waitForRequestLine(server, 'access-log-check-4')).operation).toBeUndefined();
    // One access line (a loaded machine may add the lag alarm's warning, which names the request too).
    expect(server.logs.filter((logged) => logged.reqId === 'access-log-check-3' && logged.msg !== 'event loop blocked')).toHaveLength(1);
  });

  it('stops on SIGTERM: drains, says so, exits 0', async () => {
    server.process.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.logs.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  });

  it('logged JSON lines with no key twice in an object, and said where it listens', () => {
    expect(server.stdout.length).toBeGreaterThan(10);
    expect(server.stdout.filter((line) => duplicateKeys(line).length > 0)).toEqual([]);
    expect(server.logs.find((line) => line.msg === 'listening')).toMatchObject({ address: `127.0.0.1:${server.port}`, url: `http://127.0.0.1:${server.port}` });
  });
});

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

async function waitForRequestLine(server: ChildServer, requestId: string) {
  for (let waited = 0; waited < 5000; waited += 25) {
    const line = server.logs.find((logged) => logged.msg === 'request' && logged.reqId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no access log line for request ${requestId}`);
}

describe('a database that cannot be reached', { timeout: 120_000 }, () => {
  const PASSWORD = 'hunter2-never-printed';
  let closedPort: number;
  beforeAll(async () => {
    closedPort = await freePort(); // nothing listens there once the probe closed
  });

  const expectNamed = (exit: { code: number | null; stdout: string; stderr: string }, address: string, reason: RegExp) => {
    expect(exit.code, exit.stderr + exit.stdout).toBe(1);
    const message = exit.stderr.trim().split('\n').at(-1)!;
    expect(message).toMatch(new RegExp(`^Cannot connect to the database at ${address.replace(/[.]/g, '\\.')}: `));
    expect(message).toMatch(reason);
    const all = exit.stdout + exit.stderr;
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toMatch(/^\s+at /m); // no stack
    expect(all).not.toMatch(/Migration unknown/);
  };

  it('the built server exits 1 and says so, with the address', async () => {
    const exit = await run(process.execPath, [join(build.dir, 'main.js')], { DATABASE_URL: `postgres://cw:${PASSWORD}@127.0.0.1:${closedPort}/cw_production`, PORT: '0' });
    expectNamed(exit, `127.0.0.1:${closedPort}/cw_production`, /connection refused/);
    // The JSON log says it too, for the log collector.
    expect(exit.stdout).toContain(`"database":"127.0.0.1:${closedPort}/cw_production"`);
  });

  it('the built CLI exits 1 and says so: a refused port, a host that does not resolve', async () => {
    expectNamed(await runCli(build, ['migrate'], { DATABASE_URL: `postgres://cw:${PASSWORD}@127.0.0.1:${closedPort}/cw` }), `127.0.0.1:${closedPort}/cw`, /connection refused/);
    expectNamed(
      await runCli(build, ['admin', 'token', '--email', 'a@example.com'], { DATABASE_URL: `postgres://cw:${PASSWORD}@db.invalid:5432/cw` }),
      'db.invalid:5432/cw',
      /does not resolve/,
    );
  });

  it('the CLI under tsx (`pnpm cli`) says so for a database that does not exist', async () => {
    const url = new URL(inject('databaseAdminUrl'));
    url.pathname = '/no_such_database';
    const exit = await run(process.execPath, [join(serverDir, 'bin/content-workspace.js'), 'migrate'], { DATABASE_URL: url.toString() });
    expectNamed(exit, `${url.hostname}:${url.port}/no_such_database`, /database "no_such_database" does not exist/);
  });
});
