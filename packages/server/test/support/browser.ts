// Headless Chromium for tests of what the server serves to browsers (the API reference, published
// sites): Debian's chromium driven by playwright-core, never a downloaded browser (`playwright install`
// does not work here). Pages are confined to one origin: every request is recorded, and any request
// that leaves the origin is refused and reported, so "works offline" is checked, not assumed.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** `CHROMIUM_PATH` overrides (CI on Ubuntu uses the runner's Chrome: Ubuntu's chromium is a snap). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** No GPU, no QUIC, and none of the browser's own background traffic (updates, sync, field trials). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install -y chromium fonts-dejavu-core) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** One Chromium for a test file: launched before its tests, closed after them; the getter gives it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('useBrowser(): the browser is launched in beforeAll, use it in a test');
    return browser;
  };
}

let axeSource: string | undefined;

/**
 * axe-core's violations on `page`, each with the selectors and the start of the reason of its nodes.
 * Evaluated through the debugging protocol: not an inline script, so the site's policy stays as it is.
 */
export async function axeViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.slice(0, 200)) })))`,
  );
}

export type ConfinedPage = {
  page: Page;
  context: BrowserContext;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Requests that left the allowed origin (each was aborted). */
  offOrigin: string[];
  /** Console errors and uncaught exceptions, including content-security-policy violations. */
  errors: string[];
};

/**
 * A fresh context whose page may only reach `origin` (`http://127.0.0.1:1234`, or `file://` for a page
 * on disk; `data:` and `blob:` URLs stay in the page), with JavaScript unless `javaScriptEnabled: false`
 * (what a visitor without script sees). Close it with `context.close()`.
 */
export async function confinedPage(browser: Browser, origin: string, options: { javaScriptEnabled?: boolean } = {}): Promise<ConfinedPage> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  const requests: string[] = [];
  const offOrigin: string[] = [];
  const errors: string[] = [];
  const allowed = (url: string) => url.startsWith(origin === 'file://' ? 'file://' : `${origin}/`) || url === origin || /^(data|blob|about):/.test(url);
  await context.route(
    () => true,
    (route) => {
      const url = route.request().url();
      if (allowed(url)) return route.continue();
      offOrigin.push(url);
      return route.abort('blockedbyclient');
    },
  );
  const page = await context.newPage();
  page.on('request', (request) => {
    const url = request.url();
    requests.push(url);
    // Not every scheme goes through routing (file://, websockets): record what leaves anyway.
    if (!allowed(url) && !offOrigin.includes(url)) offOrigin.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return { page, context, requests, offOrigin, errors };
}
