// A browser page on another origin writes with an Idempotency-Key (as the SDK does from a web app):
// the preflight admits the header, and the page can read the replay's headers. Real Chromium, real
// server; the page is served by a server of its own, so every call is cross-origin.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { createOrganizationWithAdmin } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/harness.js';

let server: TestServer;
let browser: Browser;
let pageServer: Server;
let pageOrigin: string;
beforeAll(async () => {
  browser = await launchBrowser();
  pageServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title>'));
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  // The page's origin is the one the operator lets call the API (http/cors.ts).
  server = await startTestServer({ env: { CORS_ORIGINS: pageOrigin } });
  // Chromium and the server start in one hook: on two loaded cores, more than the default minute.
}, 120_000);
afterAll(async () => {
  await server?.close();
  await browser?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

it('a page on another origin sends the key and reads Idempotent-Replayed and Idempotency-Key-Status', async () => {
  const t = server;
  const { admin, organization } = await createOrganizationWithAdmin(t);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${pageOrigin}/`);
    const answers = await page.evaluate(
      async ({ url, token }) => {
        const send = async (title: string) => {
          const response = await fetch(url, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'browser-key-1' },
            body: JSON.stringify({ title }),
          });
          return { status: response.status, replayed: response.headers.get('Idempotent-Replayed'), keyStatus: response.headers.get('Idempotency-Key-Status'), id: (await response.json()).id };
        };
        return [await send('From a browser'), await send('From a browser'), await send('Another title')];
      },
      { url: `${t.url}/v1/orgs/${organization.id}/spaces`, token: admin.token },
    );
    expect(answers[0]).toEqual({ status: 201, replayed: null, keyStatus: null, id: expect.any(String) });
    expect(answers[1]).toEqual({ status: 201, replayed: 'true', keyStatus: null, id: answers[0]!.id });
    expect(answers[2]).toEqual({ status: 422, replayed: null, keyStatus: 'mismatch', id: undefined });
  } finally {
    await context.close();
  }
});
