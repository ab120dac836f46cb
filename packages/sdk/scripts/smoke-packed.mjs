// Loads the packed package the way an application would, through its package.json `exports`, once
// with `import` and once with `require`, and makes real calls with each against a local server:
// a bundle can pass attw and publint and still break at run time (e.g. CommonJS interop).
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const packDir = resolve(import.meta.dirname, '../.pack');
const scopeDir = resolve(packDir, 'node_modules/@content-workspace');
mkdirSync(scopeDir, { recursive: true });
symlinkSync(resolve(packDir, 'package'), resolve(scopeDir, 'sdk'), 'dir');

const userAgents = [];
const server = createServer((request, response) => {
  userAgents.push(request.headers['user-agent']);
  const page = new URL(request.url, 'http://x').searchParams.get('page');
  const [status, body] =
    request.url.startsWith('/v1/orgs?') || request.url === '/v1/orgs'
      ? [200, page ? { items: [{ id: 'b' }], count: 2 } : { items: [{ id: 'a' }], count: 2, next: { page: 'p2' } }]
      : [404, { error: { code: 404, message: 'Organization not found' } }];
  response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-1' });
  response.end(JSON.stringify(body));
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const baseUrl = `http://127.0.0.1:${server.address().port}`;

// Two consumer modules in a package of their own inside .pack/, so '@content-workspace/sdk' resolves
// to the packed package (from inside packages/sdk it would resolve to the package itself).
writeFileSync(resolve(packDir, 'package.json'), '{ "name": "sdk-smoke-consumer", "private": true }\n');
writeFileSync(resolve(packDir, 'consumer.mjs'), "export * from '@content-workspace/sdk';\n");
writeFileSync(resolve(packDir, 'consumer.cjs'), "module.exports = require('@content-workspace/sdk');\n");
const loaded = {
  import: await import(pathToFileURL(resolve(packDir, 'consumer.mjs')).href),
  require: createRequire(import.meta.url)(resolve(packDir, 'consumer.cjs')),
};

try {
  for (const [how, sdk] of Object.entries(loaded)) {
    const client = sdk.createClient({ baseUrl, throwOnError: true, userAgent: `smoke-${how}` });
    const ids = (await sdk.collect(sdk.paginate(client, '/v1/orgs'))).map((org) => org.id);
    assert.deepEqual(ids, ['a', 'b'], how);
    const error = await client.GET('/v1/orgs/{organizationId}', { params: { path: { organizationId: 'x' } } }).catch((e) => e);
    assert.ok(error instanceof sdk.NotFoundError, `${how}: ${error}`);
    assert.equal(error.requestId, 'req-1');
    assert.equal(userAgents.at(-1), `content-workspace-sdk/${sdk.VERSION} smoke-${how}`);
    console.log(`${how}: ok`);
  }
} finally {
  server.close();
}
