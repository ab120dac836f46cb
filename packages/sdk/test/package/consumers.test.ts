// The packed SDK as two applications use it: an ESM project (`"type": "module"`) and a CommonJS one,
// each in a folder of its own outside the repository with the tarball's contents and its one
// dependency in node_modules. Each project's TypeScript is type-checked against the published
// declarations (with skipLibCheck off, so the declarations themselves must compile), compiled, and
// run against a local server.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, organization, startServer, type TestServer } from '../support/server.js';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('../../', import.meta.url));
const packageDir = join(sdkDir, '.pack/package');
const tsc = join(sdkDir, 'node_modules/typescript/bin/tsc');
const version = (createRequire(import.meta.url)(join(packageDir, 'package.json')) as { version: string }).version;

// One source for both projects: TypeScript compiles it to ESM or CommonJS by the project's "type".
const consumerSource = `
import { collect, createContentWorkspace, NotFoundError, paginate, type ContentWorkspace } from '@content-workspace/sdk';

declare const process: { argv: string[] };

async function main(): Promise<void> {
  const cw = createContentWorkspace({ baseUrl: process.argv[2]!, token: 'cw_consumer', throwOnError: true, userAgent: 'consumer' });
  const organizations = await collect(paginate(cw.organizations.list, { query: { limit: 1 } }));
  const { data: space } = await cw.spaces.get({ spaceId: 's1' });
  const missing = await cw.client
    .GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: 'gone' } } })
    .catch((error: unknown) => error);
  const titles: string[] = organizations.map((org) => org.title);
  console.log(JSON.stringify({ titles, space: space.title, notFound: missing instanceof NotFoundError }));
}

// Never called: the published types must reject these.
export function mistakes(cw: ContentWorkspace<true>): void {
  // @ts-expect-error: misspelt body key
  void cw.spaces.update({ spaceId: 's1', body: { titel: 'x' } });
  // @ts-expect-error: wrong path
  void cw.client.GET('/v1/organizations');
  // @ts-expect-error: a path parameter is a string
  void cw.spaces.get({ spaceId: 1 });
}

void main();
`;

const tsconfig = {
  compilerOptions: {
    module: 'node16',
    moduleResolution: 'node16',
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
  },
  include: ['index.ts'],
};

let server: TestServer;
let root: string;
beforeAll(async () => {
  server = await startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/v1/orgs') {
      const second = url.searchParams.get('page') === '2';
      const items = [organization(second ? 'o2' : 'o1', second ? 'Blog' : 'Handbook')];
      return json(response, 200, { items, count: 2, ...(second ? {} : { next: { page: '2' } }) });
    }
    if (url.pathname === '/v1/spaces/s1') return json(response, 200, { object: 'space', id: 's1', title: 'Guides' });
    return apiError(response, 404, 'Not found');
  });
  // Outside the repository, so nothing resolves from the workspace by accident.
  root = mkdtempSync(join(tmpdir(), 'cw-sdk-consumers-'));
  cpSync(packageDir, join(root, 'node_modules/@content-workspace/sdk'), { recursive: true });
  const openapiFetch = realpathSync(dirname(createRequire(join(sdkDir, 'package.json')).resolve('openapi-fetch/package.json')));
  symlinkSync(openapiFetch, join(root, 'node_modules/openapi-fetch'), 'dir');
});
afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.each([
  ['ESM', 'module'],
  ['CommonJS', 'commonjs'],
])('an %s project', (_kind, type) => {
  it('type-checks against the published declarations, compiles and calls the API', async () => {
    const project = join(root, type);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `consumer-${type}`, private: true, type }));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    writeFileSync(join(project, 'index.ts'), consumerSource);

    await run(process.execPath, [tsc, '-p', project]).catch((error: { stdout?: string }) => {
      throw new Error(`tsc failed in the ${type} project:\n${error.stdout ?? String(error)}`);
    });
    const compiled = readFileSync(join(project, 'out/index.js'), 'utf8');
    expect(compiled).toMatch(type === 'module' ? /^import .* from '@content-workspace\/sdk';$/m : /require\("@content-workspace\/sdk"\)/);

    const before = server.requests.length;
    const { stdout } = await run(process.execPath, [join(project, 'out/index.js'), server.url], { cwd: project });

    expect(JSON.parse(stdout)).toEqual({ titles: ['Handbook', 'Blog'], space: 'Guides', notFound: true });
    const seen = server.requests.slice(before);
    expect(seen.map((request) => request.url)).toEqual(['/v1/orgs?limit=1', '/v1/orgs?limit=1&page=2', '/v1/spaces/s1', '/v1/orgs/gone']);
    expect(seen[0]?.headers['user-agent']).toBe(`content-workspace-sdk/${version} consumer`);
    expect(seen[0]?.headers.authorization).toBe('Bearer cw_consumer');
  });
});
