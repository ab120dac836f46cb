// The SDK in a web page on another origin, against the real server (issue 29 item 10): real Chromium
// loads a page from a server of its own, the page loads the SDK bundled as an application would
// (esbuild, from packages/sdk-runtimes), and calls the API cross-origin. The server lists one page
// origin in CORS_ORIGINS (http/cors.ts): from it, named calls, writes (their Idempotency-Key passes the
// preflight), `withResponse()`'s request id and a typed error's request id all work; from a second,
// unlisted origin, the browser keeps every answer from the page, which the SDK reports as a
// ConnectionError.
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type * as Sdk from '@content-workspace/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { createUser } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type EsbuildModule = { build(options: Record<string, unknown>): Promise<{ outputFiles: { text: string }[] }> };
const runtimes = createRequire(fileURLToPath(new URL('../../../sdk-runtimes/package.json', import.meta.url)));
const sdkEntry = fileURLToPath(new URL('../../../sdk/src/index.ts', import.meta.url));

let server: TestServer;
let browser: Browser;
const pageServers: Server[] = [];
let listedOrigin: string;
let otherOrigin: string;

/** A server of one page that loads the SDK bundle as a script of its own origin. */
async function pageServer(sdkBundle: string): Promise<string> {
  const pages = createServer((req, res) => {
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdkBundle);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><script src="/sdk.js"></script>');
  });
  pageServers.push(pages);
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const { build } = (await import(runtimes.resolve('esbuild'))) as EsbuildModule;
  const bundle = await build({ entryPoints: [sdkEntry], bundle: true, write: false, format: 'iife', globalName: 'ContentWorkspaceSdk', platform: 'browser' });
  const sdkBundle = bundle.outputFiles[0]!.text;
  listedOrigin = await pageServer(sdkBundle);
  otherOrigin = await pageServer(sdkBundle);
  server = await startTestServer({ env: { CORS_ORIGINS: listedOrigin } });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await server?.close();
  await browser?.close();
  await Promise.all(pageServers.map((pages) => new Promise((resolve) => pages.close(resolve))));
});

type PageAnswer = {
  name?: string;
  requestId?: string;
  spaceTitle?: string;
  spaceRead?: string;
  missing?: { name: string; status: number; requestId: string | undefined };
  failure?: { name: string; message: string };
};

/** Runs the SDK in a page of `origin` against the server, as a web application would. */
async function runInPage(origin: string, token: string): Promise<PageAnswer> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    return await page.evaluate(
      async ({ baseUrl, token }) => {
        const { createContentWorkspace } = (globalThis as unknown as { ContentWorkspaceSdk: typeof Sdk }).ContentWorkspaceSdk;
        const cw = createContentWorkspace({ baseUrl, token, throwOnError: true, maxRetries: 0 });
        try {
          const { data: user, requestId } = await cw.users.getCurrent().withResponse();
          const { data: organization } = await cw.organizations.create({ body: { title: 'From a page' } });
          const { data: space } = await cw.spaces.create({ organizationId: organization.id, body: { title: 'Browser notes' } });
          const { data: read } = await cw.spaces.get({ spaceId: space.id });
          const missing = (await cw.spaces.get({ spaceId: 'no-such-space' }).catch((error: unknown) => error)) as {
            name: string;
            status: number;
            requestId: string | undefined;
          };
          return {
            name: user.displayName,
            requestId,
            spaceTitle: space.title,
            spaceRead: read.title,
            missing: { name: missing.name, status: missing.status, requestId: missing.requestId },
          };
        } catch (error) {
          return { failure: { name: (error as Error).name, message: (error as Error).message } };
        }
      },
      { baseUrl: server.url, token },
    );
  } finally {
    await context.close();
  }
}

it('runs in a page of an origin CORS_ORIGINS lists: reads, writes, request ids, typed errors', { timeout: 120_000 }, async () => {
  const ada = await createUser(server, { name: 'Ada' });
  const answer = await runInPage(listedOrigin, ada.token);
  expect(answer.failure).toBeUndefined();
  expect(answer).toMatchObject({ name: 'Ada', spaceTitle: 'Browser notes', spaceRead: 'Browser notes' });
  // Readable only because the server exposes X-Request-Id to the page.
  expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.missing).toEqual({ name: 'NotFoundError', status: 404, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
});

it('cannot call the API from a page of an origin it does not list', { timeout: 120_000 }, async () => {
  const ada = await createUser(server, { name: 'Ada' });
  const answer = await runInPage(otherOrigin, ada.token);
  expect(answer.failure?.name).toBe('ConnectionError');
  // Refused before anything was written: the preflight of the first call failed.
  const organizations = await server.client(ada.token).GET('/v1/orgs');
  expect(organizations.data?.items).toEqual([]);
});
