// The chrome of a published site's pages in Debian's Chromium (issue 28, "Reading"): the typefaces and
// icons the server serves itself, within the transfer budget of a first and a second visit; the header
// on one row at phone width, its logo, icon buttons and links from the customization; the page tree's
// folding kept across visits, the outline following the reading, variants keeping the page, section
// groups as keyboard menus; the phone's navigation drawer; the interface in the site's language; the
// search dialog's count when it is a lower bound; axe on every sample page at both widths and both
// themes. Screenshots go to $SITE_SCREENSHOTS when set.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confinedPage, launchBrowser, type ConfinedPage } from '../support/browser.js';
import { useTestServer } from '../support/harness.js';
import { solidPng } from '../support/images.js';
import { DIALOG_BOUND } from '../../src/areas/sites/published/endpoints/search-json.js';
import { addPagesSaying, addSection, addSiteSpace, publishedSite, sitePath, spaceWithPages, type PublishedWorld } from '../support/published.js';
import { createGroup } from '../support/sites.js';

const server = useTestServer();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = process.env.SITE_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** Each test builds a site of four spaces and drives Chromium: slow on a shared machine. */
const SLOW = { timeout: 240_000 };

let browser: Browser;
let images: { base: string; close: () => Promise<void> };
beforeAll(async () => {
  browser = await launchBrowser();
  // The logo's other server: the site's server fetches from it, the visitor's browser never does.
  const logo = solidPng(120, 32);
  const host: Server = createServer((req, res) => (req.url?.startsWith('/logo') ? res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo) : res.writeHead(404).end()));
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  images = { base: `http://127.0.0.1:${(host.address() as AddressInfo).port}`, close: () => new Promise((resolve) => host.close(() => resolve())) };
});
afterAll(async () => {
  await browser?.close();
  await images?.close();
});

const LONG_PAGE = [
  'A page long enough to scroll, with every kind of hint and a wide table.',
  ...['info', 'success', 'warning', 'danger'].map((style) => `\n{% hint style="${style}" %}\nA ${style} hint.\n{% endhint %}\n`),
  ...Array.from({ length: 10 }, (_, i) => `## Part ${i + 1}\n\n${'Words to read in this part of the page. '.repeat(12)}\n`),
  '| ' + Array.from({ length: 14 }, (_, i) => `Column number ${i + 1}`).join(' | ') + ' |',
  '| ' + Array.from({ length: 14 }, () => '---').join(' | ') + ' |',
  '| ' + Array.from({ length: 14 }, (_, i) => `value-${i + 1}-that-is-rather-long`).join(' | ') + ' |',
  '',
  '```ts',
  'export const aVeryLongLineOfCodeThatDoesNotFitOnAPhoneScreenAtAll = { port: 8080, verbose: false, name: "tool" };',
  '```',
].join('\n');

type Site = PublishedWorld & { root: string; api: string };

/** A guide (nested pages, a long page), an API section with two versions in a group, customization as given. */
async function site(customization: Record<string, unknown> = {}): Promise<Site> {
  const t = server();
  const world = await publishedSite(
    t,
    [
      { type: 'insert_page', ref: 'intro', title: 'Introduction', slug: 'introduction', markdown: 'Start here.\n\n## First steps\n\nRead on.' },
      { type: 'insert_page', ref: 'guides', title: 'Guides', slug: 'guides', markdown: 'All the guides.' },
      { type: 'insert_page', ref: 'long', parent: { ref: 'guides' }, title: 'Long read', slug: 'long-read', markdown: LONG_PAGE },
      { type: 'insert_page', ref: 'other', parent: { ref: 'guides' }, title: 'Another guide', slug: 'another', markdown: 'Short.' },
      { type: 'insert_page', ref: 'ref', title: 'Reference', slug: 'reference', markdown: 'Things.' },
      { type: 'insert_page', parent: { ref: 'ref' }, title: 'Options', slug: 'options', markdown: 'Options.' },
    ] as never,
    { title: 'Toolbox' },
  );
  const { admin, organizationId, siteId } = world;
  const v1 = await spaceWithPages(t, admin, organizationId, 'v1', [
    { type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: 'Lists things (v1).' },
    { type: 'insert_page', title: 'Only in v1', slug: 'legacy', markdown: 'Old.' },
  ] as never);
  const v2 = await spaceWithPages(t, admin, organizationId, 'v2', [
    { type: 'insert_page', title: 'Overview', slug: 'overview', markdown: 'New.' },
    { type: 'insert_page', title: 'Endpoints', slug: 'endpoints', markdown: 'Lists things (v2).' },
  ] as never);
  const cli = await spaceWithPages(t, admin, organizationId, 'CLI', [{ type: 'insert_page', title: 'Commands', slug: 'commands', markdown: 'Run it.' } as never]);
  const api = await addSection(admin.client, organizationId, siteId, v1.id, 'API');
  await addSiteSpace(admin.client, organizationId, siteId, v2.id, api.id);
  const cliSection = await addSection(admin.client, organizationId, siteId, cli.id, 'CLI');
  await admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { organizationId, siteId, siteSectionId: api.id } }, body: { description: 'Every endpoint', icon: 'code' } as never });
  await createGroup(admin.client, organizationId, siteId, 'Reference', [api.id, cliSection.id]);
  const put = await admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(organizationId, siteId), body: customization as never });
  expect(put.response.status).toBe(200);
  return { ...world, root: `${t.url}/s/${siteId}`, api: api.path };
}

const origin = () => new URL(server().url).origin;

async function axe(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  await page.evaluate(AXE);
  return page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.slice(0, 200)) })))`,
  );
}

async function withPage<T>(options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number }; notFoundPages?: boolean }, run: (confined: ConfinedPage) => Promise<T>): Promise<T> {
  const confined = await confinedPage(browser, origin(), { javaScriptEnabled: options.javaScriptEnabled ?? true });
  await confined.page.setViewportSize(options.viewport ?? DESKTOP);
  try {
    const result = await run(confined);
    expect(confined.offOrigin).toEqual([]);
    // A 404 page (visited on purpose) is the only error the console may report.
    expect(confined.errors.filter((error) => !(options.notFoundPages && error.includes('status of 404')))).toEqual([]);
    return result;
  } finally {
    await confined.context.close();
  }
}

/** Bytes that crossed the network for each navigation (CDP's encoded lengths: headers and compressed bodies; 0 for cache hits). */
async function transferred(page: Page, visit: () => Promise<unknown>): Promise<{ total: number; urls: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let total = 0;
  const urls = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
  cdp.on('Network.loadingFinished', (event) => {
    total += event.encodedDataLength;
  });
  await visit();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return { total, urls: [...urls.values()] };
}

describe('type and icons', () => {
  it('serves its own text and code faces and icons: a first visit under 150 KB transferred, a second under 30 KB, nothing from elsewhere', SLOW, async () => {
    const world = await site();
    // A plain context: request interception would turn the browser's cache off, and the cache is what is measured.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    try {
      await page.setViewportSize(DESKTOP);
      const first = await transferred(page, () => page.goto(`${world.root}/guides/long-read`));
      expect(first.urls.filter((url) => !url.startsWith(`${origin()}/`) && !url.startsWith('data:'))).toEqual([]);
      // Both faces were fetched from the site (the code face because the page shows code) and are in use.
      expect(first.urls.filter((url) => url.endsWith('.woff2')).map((url) => url.replace(/.*\/_assets\/(.*)-[0-9a-f]{12}\.woff2$/, '$1')).sort()).toEqual(['inter', 'jetbrains-mono']);
      expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"') && document.fonts.check('16px "JetBrains Mono Variable"'))).toBe(true);
      expect(await page.evaluate(() => [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family).sort())).toEqual(['Inter Variable', 'JetBrains Mono Variable']);
      expect(await page.locator('body').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"Inter Variable"/);
      expect(await page.locator('.content pre code').first().evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"JetBrains Mono Variable"/);
      // The text face is preloaded by the page itself.
      expect(await page.locator('link[rel=preload][as=font]').getAttribute('href')).toMatch(/\/_assets\/inter-[0-9a-f]{12}\.woff2$/);
      expect(first.total).toBeGreaterThan(50_000);
      expect(first.total).toBeLessThan(150_000);

      // A second page: only its HTML crosses the network, every shared file is cached for good.
      const second = await transferred(page, () => page.goto(`${world.root}/guides/another`));
      expect(second.total).toBeLessThan(30_000);
      if (process.env.SITE_BUDGET_REPORT) process.stdout.write(`site budget: first visit ${first.total} B (${first.urls.length} requests), second ${second.total} B\n`);

      // The hints' marks are icons.ts's drawings as masks; the icons of the header are inline SVG.
      for (const style of ['info', 'success', 'warning', 'danger']) {
        const mask = await page.goto(`${world.root}/guides/long-read`).then(() => page.locator(`.hint-${style} .hint-label`).first().evaluate((el) => getComputedStyle(el, '::before').maskImage || getComputedStyle(el, '::before').webkitMaskImage));
        expect(mask, style).toMatch(/^url\("data:image\/svg\+xml,/);
      }
      expect(await page.locator('.site-header button.theme-toggle svg').count()).toBe(3);
      expect(await page.locator('.site-header .search-button svg').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe('header', () => {
  it('one row at 390 px: title, search, theme and menu buttons with names; the logo and the links of the customization, escaped', SLOW, async () => {
    const world = await site({
      logo: { light: `${images.base}/logo-light.png`, dark: `${images.base}/logo-dark.png` },
      header: { links: [{ title: 'Status <b>page</b>', url: 'https://status.example.com/' }] },
      footer: { links: [{ title: 'Privacy', url: 'https://example.com/privacy' }, { title: 'Terms & use', url: 'https://example.com/terms' }] },
    });
    await withPage({ viewport: PHONE }, async ({ page }) => {
      await page.goto(`${world.root}/introduction`);
      const boxes = await Promise.all(['.site-title', '.search-button', '.theme-toggle', '.menu-button'].map((selector) => page.locator(`.site-header ${selector}`).boundingBox()));
      for (const box of boxes) expect(box).not.toBeNull();
      const header = (await page.locator('.site-header').boundingBox())!;
      expect(header.height).toBeLessThan(64);
      // One row: every control's middle at the header's middle, left to right in this order, nothing off screen.
      for (const box of boxes) expect(Math.abs(box!.y + box!.height / 2 - (header.y + header.height / 2))).toBeLessThan(6);
      const lefts = boxes.map((box) => box!.x);
      expect([...lefts].sort((a, b) => a - b)).toEqual(lefts);
      expect(boxes[3]!.x + boxes[3]!.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.locator('.search-button').getAttribute('aria-haspopup')).toBe('dialog');
      expect(await page.getByRole('button', { name: 'Search this site' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Menu' }).count()).toBe(1);
      // The theme switch says what it is and what it does next, and cycles automatic → light → dark.
      const theme = page.locator('.theme-toggle');
      expect(await theme.getAttribute('aria-label')).toBe('Theme: automatic (switch to light)');
      await theme.click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      expect(await theme.getAttribute('aria-label')).toBe('Theme: light (switch to dark)');
      expect(await page.locator('.logo-light').isVisible()).toBe(true);
      await theme.click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await page.locator('.logo-dark').isVisible()).toBe(true);
      expect(await page.locator('.logo-light').isVisible()).toBe(false);
      // The logo is served by the site (it fetched the other server's image), loaded and drawn.
      const logoSrc = (await page.locator('.logo-dark').getAttribute('src'))!;
      expect(logoSrc).toMatch(new RegExp(`^/s/${world.siteId}/_favicon/[0-9a-f]{16}$`));
      expect(await page.locator('.logo-dark').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
      // Footer links replace the fixed text's place; the titles are text, not markup.
      expect(await page.locator('.footer-links a').allTextContents()).toEqual(['Privacy (another site)', 'Terms & use (another site)']);
      expect(await page.locator('.footer-links a').first().getAttribute('href')).toBe('https://example.com/privacy');
    });
    await withPage({ viewport: DESKTOP }, async ({ page }) => {
      await page.goto(`${world.root}/introduction`);
      const link = page.locator('.header-links a');
      expect(await link.isVisible()).toBe(true);
      expect(await link.evaluate((el) => el.childNodes[0]!.textContent)).toBe('Status <b>page</b>');
      expect(await page.locator('.header-links b').count()).toBe(0);
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await page.locator('.site-header .menu-button').isVisible()).toBe(false);
    });
  });

  it('refuses links and logos that are not http(s), too long, or too many, changing nothing', SLOW, async () => {
    const world = await site({ footer: { links: [{ title: 'Kept', url: 'https://example.com/' }] } });
    const path = sitePath(world.organizationId, world.siteId);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ header: { links: [{ title: 'x', url: 'javascript:alert(1)' }] } }, '/body/header/links/0/url'],
      [{ footer: { links: [{ title: 'x', url: 'data:text/html,hi' }] } }, '/body/footer/links/0/url'],
      [{ footer: { links: [{ title: 'x'.repeat(65), url: 'https://example.com/' }] } }, '/body/footer/links/0/title'],
      [{ header: { links: Array.from({ length: 9 }, () => ({ title: 'x', url: 'https://example.com/' })) } }, '/body/header/links'],
      [{ footer: { links: [{ title: '', url: 'https://example.com/' }] } }, '/body/footer/links/0/title'],
      [{ logo: { light: 'ftp://example.com/a.png', dark: 'https://example.com/b.png' } }, '/body/logo/light'],
      [{ logo: { light: `https://example.com/${'a'.repeat(2048)}`, dark: 'https://example.com/b.png' } }, '/body/logo/light'],
      [{ header: { links: [{ title: 'x', url: 'https://example.com/', extra: 1 }] } }, '/body/header/links/0'],
    ];
    for (const [body, where] of bad) {
      const { response, error } = await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...path, body: body as never });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify((error as { error: { issues?: unknown } }).error.issues)).toContain(where);
    }
    const { data } = await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/customization', path);
    expect(data!.footer).toEqual({ links: [{ title: 'Kept', url: 'https://example.com/' }] });
    expect(data!.header).toBeUndefined();
  });
});

describe('navigation', () => {
  it('folds the page tree with chevrons and keeps the choice; without script every branch is open', SLOW, async () => {
    const world = await site();
    await withPage({}, async ({ page }) => {
      await page.goto(`${world.root}/introduction`);
      const guides = page.locator('.page-tree li.tree-parent', { has: page.locator(':scope > a', { hasText: 'Guides' }) });
      const toggle = guides.locator(':scope > .tree-toggle');
      // Folded by default off the current branch; the chevron names what it opens.
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.getAttribute('aria-label')).toBe('Show pages under Guides');
      expect(await guides.locator('a', { hasText: 'Long read' }).isVisible()).toBe(false);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await guides.locator('a', { hasText: 'Long read' }).isVisible()).toBe(true);
      // Kept on the next page and after a reload.
      await page.goto(`${world.root}/reference`);
      expect(await page.locator('.page-tree a', { hasText: 'Long read' }).isVisible()).toBe(true);
      // The current page's branch starts open; closing it by keyboard works too.
      const reference = page.locator('.page-tree li.tree-parent', { has: page.locator(':scope > a', { hasText: 'Reference' }) }).locator(':scope > .tree-toggle');
      expect(await reference.getAttribute('aria-expanded')).toBe('true');
      await reference.focus();
      await page.keyboard.press('Enter');
      expect(await page.locator('.page-tree a', { hasText: 'Options' }).isVisible()).toBe(false);
      await page.reload();
      expect(await page.locator('.page-tree a', { hasText: 'Options' }).isVisible()).toBe(false);
      expect(await page.locator('.page-tree a', { hasText: 'Long read' }).isVisible()).toBe(true);
    });
    await withPage({ javaScriptEnabled: false }, async ({ page }) => {
      await page.goto(`${world.root}/introduction`);
      for (const title of ['Long read', 'Another guide', 'Options']) expect(await page.locator('.page-tree a', { hasText: title }).isVisible(), title).toBe(true);
      expect(await page.locator('.tree-toggle').count()).toBe(0);
    });
  });

  it('the outline marks the section being read while scrolling, and keeps it in view', SLOW, async () => {
    const world = await site();
    await withPage({ viewport: { width: 1280, height: 600 } }, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      const active = () => page.locator('.outline a.active').textContent();
      await expect.poll(active).toBe('Part 1');
      await page.locator('h2#part-7').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('part-7')!.scrollIntoView({ block: 'start' }));
      await expect.poll(active).toBe('Part 7');
      expect(await page.locator('.outline a.active').getAttribute('aria-current')).toBe('location');
      await page.evaluate(() => document.getElementById('part-10')!.scrollIntoView({ block: 'start' }));
      await expect.poll(active).toBe('Part 10');
      // The outline box scrolled itself so the mark is visible in it.
      expect(await page.locator('.outline a.active').evaluate((link) => {
        const box = link.closest('.outline-inner')!.getBoundingClientRect();
        const own = link.getBoundingClientRect();
        return own.top >= box.top && own.bottom <= box.bottom;
      })).toBe(true);
    });
  });

  it('switching variant keeps the page when the other variant has it; section groups are menus opened and closed by keyboard', SLOW, async () => {
    const world = await site();
    await withPage({}, async ({ page }) => {
      await page.goto(`${world.root}/${world.api}/endpoints`);
      expect(await page.locator('.content p').textContent()).toBe('Lists things (v1).');
      expect(await page.locator('.switcher a[aria-current=page]').textContent()).toBe('v1');
      await page.locator('.switcher a', { hasText: 'v2' }).click();
      await page.waitForURL(/\/v2\/endpoints$/);
      expect(await page.locator('.content p').textContent()).toBe('Lists things (v2).');
      // A page the other variant lacks leads to that variant's first page.
      await page.goto(`${world.root}/${world.api}/legacy`);
      expect(await page.locator('.switcher a', { hasText: 'v2' }).getAttribute('href')).toMatch(/\/v2\/$/);

      const group = page.locator('details.tab-group');
      const summary = group.locator('summary');
      expect(await summary.textContent()).toBe('Reference');
      expect(await group.evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
      expect(await group.evaluate((el) => el.classList.contains('current'))).toBe(true);
      await summary.focus();
      await page.keyboard.press('Enter');
      expect(await group.locator('.tab-menu').isVisible()).toBe(true);
      expect(await group.locator('.tab-menu a').allTextContents()).toEqual(['APIEvery endpoint', 'CLI']);
      // The section's icon (a lucide name) is drawn; a section without one has none.
      expect(await group.locator('.tab-menu a', { hasText: 'API' }).locator('svg.section-icon path').count()).toBeGreaterThan(0);
      expect(await group.locator('.tab-menu a', { hasText: 'CLI' }).locator('svg').count()).toBe(0);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('APIEvery endpoint');
      await page.keyboard.press('Escape');
      expect(await group.evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/cli\/?$/);
      expect(await page.locator('h1.page-title').textContent()).toBe('Commands');
    });
  });
});

describe('phone', () => {
  it('the navigation opens in a drawer that keeps focus and closes with Escape; no page scrolls sideways at 390 px; wide tables scroll in their wrapper', SLOW, async () => {
    const world = await site({ header: { links: [{ title: 'Status', url: 'https://status.example.com/' }] } });
    await withPage({ viewport: PHONE, notFoundPages: true }, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      expect(await page.locator('.sidebar').isVisible()).toBe(false);
      const menu = page.locator('.site-header .menu-button');
      await menu.click();
      const drawer = page.locator('dialog.nav-drawer');
      expect(await drawer.isVisible()).toBe(true);
      expect(await drawer.locator('.page-tree a[aria-current=page]').textContent()).toBe('Long read');
      expect(await drawer.locator('.header-links a').isVisible()).toBe(true);
      expect(await drawer.locator('.section-tabs').isVisible()).toBe(true);
      // Focus stays in the drawer however far the visitor tabs.
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog.nav-drawer')) || document.activeElement === document.body)).toBe(true);
      }
      await page.keyboard.press('Escape');
      expect(await drawer.isVisible()).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-button'))).toBe(true);
      // Everything went back where it was.
      expect(await page.locator('.sidebar .page-tree').count()).toBe(1);
      expect(await page.locator('.site-header .header-links').count()).toBe(1);
      // Following a link of the drawer.
      await menu.click();
      await drawer.locator('.page-tree a', { hasText: 'Another guide' }).click();
      await page.waitForURL(/\/guides\/another$/);

      // The wide table and the long code line scroll inside their own boxes.
      await page.goto(`${world.root}/guides/long-read`);
      const wrap = page.locator('.content .table-wrap');
      expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
      for (const path of ['introduction', 'guides', 'guides/long-read', 'guides/another', 'reference', 'reference/options', `${world.api}/endpoints`, `${world.api}/v2/overview`, 'search?q=things', 'no-such-page']) {
        await page.goto(`${world.root}/${path}`);
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), path).toBe(true);
      }
    });
  });
});

describe('phone without JavaScript', () => {
  it('at 390 px the header is one row; its menu link leads to the navigation and the header links; the search submits to the results page; nothing scrolls sideways', SLOW, async () => {
    const world = await site({
      logo: { light: `${images.base}/logo-light.png`, dark: `${images.base}/logo-light.png` },
      header: { links: [{ title: 'Status', url: 'https://status.example.com/' }] },
    });
    await withPage({ viewport: PHONE, javaScriptEnabled: false, notFoundPages: true }, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      const header = (await page.locator('.site-header').boundingBox())!;
      expect(header.height).toBeLessThan(64);
      // One row: the title, the search field and its button, the menu link, middles aligned, left to right, on screen.
      const controls = ['.site-title', '#site-search', '.search button', '.menu-link'];
      const boxes = await Promise.all(controls.map((selector) => page.locator(`.site-header ${selector}`).boundingBox()));
      for (const [i, box] of boxes.entries()) {
        expect(box, controls[i]).not.toBeNull();
        expect(Math.abs(box!.y + box!.height / 2 - (header.y + header.height / 2)), controls[i]).toBeLessThan(6);
      }
      const lefts = boxes.map((box) => box!.x);
      expect([...lefts].sort((a, b) => a - b)).toEqual(lefts);
      expect(boxes[3]!.x + boxes[3]!.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.locator('#site-search').evaluate((input: HTMLInputElement) => input.clientWidth)).toBeGreaterThan(100);
      // The buttons that need the script stay hidden: one menu, a link.
      expect(await page.locator('.site-header .menu-button').isVisible()).toBe(false);
      expect(await page.locator('.site-header .theme-toggle').isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: 'Menu' }).count()).toBe(1);

      // Far down the page, the menu (the header stays on screen) leads to the navigation, below the header.
      await page.locator('.site-footer').scrollIntoViewIfNeeded();
      await page.locator('.site-header .menu-link').click();
      await page.waitForURL(/#site-nav$/);
      const current = page.locator('#site-nav .page-tree a[aria-current=page]');
      expect(await current.textContent()).toBe('Long read');
      const link = (await current.boundingBox())!;
      expect(link.y).toBeGreaterThanOrEqual(header.height - 1);
      expect(link.y + link.height).toBeLessThanOrEqual(PHONE.height);
      // The header's links, which the phone's header has no room for, are there too; the section tabs are reachable.
      expect(await page.locator('.site-header .header-links').isVisible()).toBe(false);
      const status = page.locator('#site-nav .sidebar-links a');
      expect(await status.isVisible()).toBe(true);
      expect(await status.getAttribute('href')).toBe('https://status.example.com/');
      expect(await page.locator('body > .section-tabs').isVisible()).toBe(true);
      await page.locator('#site-nav .page-tree a', { hasText: 'Another guide' }).click();
      await page.waitForURL(/\/guides\/another$/);

      // The field submits to the results page.
      await page.locator('#site-search').fill('options');
      await page.locator('#site-search').press('Enter');
      await page.waitForURL(/\/search\?q=options$/);
      expect(await page.locator('.search-results a').first().textContent()).toBe('Options');
      expect((await page.locator('.site-header').boundingBox())!.height).toBeLessThan(64);

      for (const path of ['introduction', 'guides/long-read', 'reference/options', `${world.api}/endpoints`, 'search?q=things', 'no-such-page']) {
        await page.goto(`${world.root}/${path}`);
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), path).toBe(true);
        expect((await page.locator('.site-header').boundingBox())!.height, path).toBeLessThan(64);
      }
    });
    // With the script the link gives way to the drawer's button, and the sidebar's copy of the links is not shown.
    await withPage({ viewport: PHONE }, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      expect(await page.locator('.site-header .menu-link').isVisible()).toBe(false);
      expect(await page.locator('.site-header .menu-button').isVisible()).toBe(true);
      await page.locator('.site-header .menu-button').click();
      expect(await page.locator('dialog.nav-drawer .sidebar-links').isVisible()).toBe(false);
      expect(await page.locator('dialog.nav-drawer .header-links a').isVisible()).toBe(true);
    });
  });
});

describe('words', () => {
  it('the interface follows the site language, with relative dates and the exact date in the title', SLOW, async () => {
    const world = await site({ internationalization: { locale: 'fr' } });
    await withPage({}, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      expect(await page.locator('.outline p').textContent()).toBe('Sur cette page');
      expect(await page.locator('.skip-link').textContent()).toBe('Aller au contenu');
      expect(await page.locator('.theme-toggle').getAttribute('aria-label')).toBe('Thème : automatique (passer au clair)');
      expect(await page.locator('.page-meta p').first().textContent()).toMatch(/^Mis à jour (maintenant|il y a \d+ (secondes?|minutes?))$/);
      expect(await page.locator('time.relative').getAttribute('title')).toMatch(/^\d{1,2} \S+ \d{4} (à )?\d{2}:\d{2}$/);
      expect(await page.locator('.site-footer p').textContent()).toBe('Toolbox · publié avec Content Workspace');
    });
    await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(world.organizationId, world.siteId), body: { internationalization: { locale: 'ja' } } as never });
    await withPage({ javaScriptEnabled: false }, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      expect(await page.locator('.outline p').textContent()).toBe('このページの内容');
      expect(await page.locator('.sidebar summary').textContent()).toBe('メニュー');
      expect(await page.locator('.page-meta p').first().textContent()).toMatch(/^最終更新 (今|\d+ 秒前|\d+ 分前)$/);
    });
    // The search dialog, drawn by the script, speaks the site's language too.
    await withPage({}, async ({ page }) => {
      await page.goto(`${world.root}/guides/long-read`);
      await page.locator('.search-button').click();
      const dialog = page.locator('dialog.search-dialog');
      expect(await dialog.locator('.search-status').textContent()).toBe('↑ ↓ で選択、Enter で開く、Esc で閉じる');
      expect(await dialog.locator('.close').getAttribute('aria-label')).toBe('閉じる');
      await dialog.locator('input').fill('zzzqqq');
      await expect.poll(() => dialog.locator('.search-status').textContent()).toBe('「zzzqqq」に一致する公開ページはありません。');
      await dialog.locator('input').fill('things');
      await expect.poll(() => dialog.locator('.search-status').textContent()).toMatch(/^\d+ 件 （Guide） · すべての結果$/);
      await page.keyboard.press('Escape');
      // The feedback form and the Markdown link, in Japanese.
      expect(await page.locator('.page-feedback legend').textContent()).toBe('このページは役に立ちましたか？');
      expect(await page.locator('a.copy-markdown').textContent()).toBe('ページを Markdown でコピー');
    });
  });
});

describe('search dialog', () => {
  it('says a count is a lower bound when more pages match than it reads, in the site\'s language; the results page counts them all', SLOW, async () => {
    const world = await publishedSite(server(), [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Start here.' }] as never, { title: 'Lamps' });
    const pages = Math.max(DIALOG_BOUND.titles, DIALOG_BOUND.sections) + 10;
    await addPagesSaying(world.admin, world.spaces.guide!.id, 'lantern', pages);
    const root = `${server().url}/s/${world.siteId}`;
    const status = async (locale: string, query: string) => {
      await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...sitePath(world.organizationId, world.siteId), body: { internationalization: { locale } } as never });
      return withPage({}, async ({ page }) => {
        await page.goto(`${root}/welcome`);
        await page.locator('.search-button').click();
        const dialog = page.locator('dialog.search-dialog');
        await dialog.locator('input').fill(query);
        await expect.poll(() => dialog.locator('[role=option]').count()).toBeGreaterThan(0);
        const text = await dialog.locator('.search-status').textContent();
        // The status's link goes to the results page, which counts every match.
        await dialog.locator('.search-status a').click();
        await page.waitForURL(/\/search\?q=/);
        return { text, results: await page.locator('main').textContent() };
      });
    };
    const english = await status('en', 'lantern');
    expect(english.text).toMatch(/^(\d+)\+ results · All results$/);
    expect(Number(/^(\d+)/.exec(english.text!)![1])).toBeLessThan(pages);
    expect(english.results).toContain(`${pages} pages match your search.`);
    const french = await status('fr', 'lantern');
    expect(french.text).toMatch(/^au moins \d+ résultats · Tous les résultats$/);
    expect(french.results).toContain(`${pages} pages correspondent à votre recherche.`);
    // Within the bound, the count is exact.
    expect((await status('fr', 'welcome')).text).toBe('1 résultat · Tous les résultats');
  });
});

describe('accessibility', () => {
  it('axe finds no serious or critical violation on every sample page, at both widths, in both themes', SLOW, async () => {
    const world = await site({
      header: { links: [{ title: 'Status', url: 'https://status.example.com/' }] },
      footer: { links: [{ title: 'Privacy', url: 'https://example.com/privacy' }] },
      logo: { light: `${images.base}/logo-light.png`, dark: `${images.base}/logo-dark.png` },
    });
    await withPage({ notFoundPages: true }, async (confined) => {
      const { page } = confined;
      for (const path of ['introduction', 'guides/long-read', `${world.api}/v2/endpoints`, 'search?q=things', 'no-such-page']) {
        for (const viewport of [DESKTOP, PHONE]) {
          for (const scheme of ['light', 'dark'] as const) {
            await page.setViewportSize(viewport);
            await page.emulateMedia({ colorScheme: scheme });
            await page.goto(`${world.root}/${path}`);
            expect(await axe(page), `${path} ${viewport.width} ${scheme}`).toEqual([]);
          }
        }
      }
      // The drawer open, and a section menu open.
      await page.setViewportSize(PHONE);
      await page.goto(`${world.root}/guides/long-read`);
      await page.locator('.menu-button').click();
      expect(await axe(page), 'drawer').toEqual([]);
      await page.keyboard.press('Escape');
      await page.setViewportSize(DESKTOP);
      await page.locator('details.tab-group summary').click();
      expect(await axe(page), 'section menu').toEqual([]);
      if (SCREENSHOTS) {
        await page.goto(`${world.root}/guides/long-read`);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
            await page.setViewportSize(viewport);
            await page.screenshot({ path: join(SCREENSHOTS, `page-${label}-${scheme}.png`) });
          }
        }
        await page.setViewportSize(PHONE);
        await page.locator('.menu-button').click();
        await page.screenshot({ path: join(SCREENSHOTS, 'drawer-phone-dark.png') });
      }
    });
  });
});
