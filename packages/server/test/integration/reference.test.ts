// The API reference at /docs/ and from `pnpm docs:build`, loaded in headless Chromium confined to its
// own origin: it must render every operation with its access line, apply its own stylesheet and script
// under its content security policy, and never reach another origin.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../src/http/operations.js';
import { REFERENCE_CSP } from '../../src/http/reference.js';
import { confinedPage, launchBrowser, type ConfinedPage } from '../support/browser.js';
import { useTestServer } from '../support/harness.js';

const server = useTestServer();
const repoRoot = join(import.meta.dirname, '../../../..');
const operations = listOperations();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Seen = { operations: Array<{ id: string; access: string | null }>; sidebarPosition: string };

/**
 * What a reader sees: the operations rendered, their access lines, and whether the stylesheet applied
 * (a computed style only it sets) under `default-src 'self'`. A string, run in the page: the server's
 * TypeScript has no DOM types.
 */
const INSPECT = `({
  operations: Array.from(document.querySelectorAll('article.operation')).map((article) => ({
    id: article.dataset.operationId,
    access: article.querySelector('.access')?.textContent ?? null,
  })),
  sidebarPosition: getComputedStyle(document.querySelector('.sidebar')).position,
})`;

const inspect = ({ page }: ConfinedPage) => page.evaluate<Seen>(INSPECT);

describe('GET /docs/', () => {
  it('redirects /docs, answers without a token, under a policy that allows only its own origin', async () => {
    const t = server();
    const redirect = await fetch(`${t.url}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const page = await fetch(`${t.url}/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(REFERENCE_CSP);
    expect(REFERENCE_CSP).toMatch(/^default-src 'self';/);
    expect(await page.text()).not.toMatch(/https?:\/\/(?!localhost:8080)[^"'\s<]*\.(js|css|woff2?)/);
    for (const asset of ['reference.css', 'reference.js', 'openapi.json']) {
      const response = await fetch(`${t.url}/docs/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-security-policy'), asset).toBe(REFERENCE_CSP);
    }
    expect(await (await fetch(`${t.url}/docs/openapi.json`)).json()).toMatchObject({ openapi: '3.1.0', paths: expect.any(Object) });
  });

  it('loads in Chromium with every operation and its access, and no request off the origin', async () => {
    const t = server();
    const origin = new URL(t.url).origin;
    const confined = await confinedPage(browser, origin);
    try {
      const response = await confined.page.goto(`${t.url}/docs`);
      expect(response?.status()).toBe(200);
      const seen = await inspect(confined);
      expect(seen.operations).toHaveLength(operations.length);
      expect(seen.operations.map((operation) => operation.id).sort()).toEqual(operations.map((operation) => operation.operationId).sort());
      // Every operation declares its access (x-access): none falls back on its description.
      for (const operation of seen.operations) expect(operation.access, operation.id).toMatch(/^Access: \S/);
      expect(seen.operations.find((operation) => operation.id === 'updateSpaceById')!.access).toBe('Access: admin on the space');
      expect(seen.sidebarPosition).toBe('sticky');

      // The filter (the page's one script) runs under the policy.
      await confined.page.fill('#filter', 'mergeChangeRequest');
      expect(await confined.page.locator('article.operation:visible').count()).toBe(1);
      // The search box finds an operation by its SDK name, and shows its request in the SDK and in curl.
      await confined.page.fill('#filter', 'changeRequests.merge');
      const merge = confined.page.locator('article.operation:visible');
      expect(await merge.count()).toBe(1);
      expect(await merge.locator('.example-sdk').innerText()).toMatch(/^const \{ data \} = await cw\.changeRequests\.merge\(\{ (?=[\s\S]*spaceId: )(?=[\s\S]*changeRequestId: )/);
      expect(await merge.locator('.example-curl').innerText()).toContain('curl -X POST "$CONTENT_WORKSPACE_URL/v1/spaces/');
      await confined.page.fill('#filter', '');

      // A deep link opens the page at its operation.
      await confined.page.goto(`${t.url}/docs/#op-createSpace`);
      await confined.page.waitForFunction(() => window.scrollY > 0);
      const top = await confined.page.locator('#op-createSpace').evaluate((element) => element.getBoundingClientRect().top);
      expect(Math.abs(top)).toBeLessThan(5);
      expect(await confined.page.locator('#op-createSpace h3 a.anchor').getAttribute('href')).toBe('#op-createSpace');

      expect(confined.requests).toEqual(expect.arrayContaining([`${origin}/docs/reference.css`, `${origin}/docs/reference.js`]));
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });
});

describe('pnpm docs:build', () => {
  it('writes a static reference that loads from disk with every operation and no request off it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cw-reference-'));
    try {
      execFileSync(join(repoRoot, 'node_modules/.bin/tsx'), [join(repoRoot, 'tools/openapi/docs-build.ts'), '--out', out], { cwd: repoRoot, stdio: 'pipe' });
      const confined = await confinedPage(browser, 'file://');
      try {
        await confined.page.goto(pathToFileURL(join(out, 'index.html')).href);
        const seen = await inspect(confined);
        expect(seen.operations).toHaveLength(operations.length);
        expect(seen.sidebarPosition).toBe('sticky');
        expect(confined.offOrigin).toEqual([]);
        expect(confined.errors).toEqual([]);
      } finally {
        await confined.context.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
