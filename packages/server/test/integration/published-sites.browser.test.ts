// Published sites in Debian's Chromium (playwright-core, confined to the server's origin): navigating
// sections, variants and the page tree; the share-link and visitor-auth flows; adaptive sections
// appearing with claims; the 404 page; the script (theme, copy, tabs) under the site's policy; no
// request leaving the origin; axe-core finding no serious violation on the main page types. Screenshots
// at phone and desktop widths are written to $SITE_SCREENSHOTS when it is set.
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { axeViolations, confinedPage, useBrowser, type ConfinedPage } from '../support/browser.js';
import { useTestServer } from '../support/harness.js';
import { sampleSite } from '../support/sample-site.js';
import { publishedSite, sitePath } from '../support/published.js';

const server = useTestServer();
const SCREENSHOTS = process.env.SITE_SCREENSHOTS;

const browser = useBrowser();

const realSite = (visibility?: 'public' | 'share-link' | 'visitor-auth') => sampleSite(server(), visibility);

const origin = () => new URL(server().url).origin;

async function shoot(confined: ConfinedPage, name: string) {
  if (!SCREENSHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    await confined.page.emulateMedia({ colorScheme: scheme });
    for (const [label, size] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await confined.page.setViewportSize(size);
      await confined.page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}-${scheme}.png`), fullPage: label === 'desktop' });
    }
  }
  await confined.page.emulateMedia({ colorScheme: null });
  await confined.page.setViewportSize({ width: 1280, height: 900 });
}

describe('a published site in Chromium', () => {
  it('navigates the page tree, sections and variants, with no request leaving the origin and nothing refused by the policy', async () => {
    const world = await realSite();
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      await page.goto(`${root}/`);
      expect(await page.locator('h1.page-title').textContent()).toBe('📘 Introduction');
      // The stylesheet applied, the script ran (theme toggle, copy buttons, tabs).
      expect(await page.locator('.site-header').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
      expect(await page.locator('.theme-toggle').count()).toBe(1);
      expect(await page.locator('.content pre .copy-button').count()).toBeGreaterThan(0);
      expect(await page.locator('.tabs.enhanced [role=tab]').allTextContents()).toEqual(['npm', 'pnpm']);
      await page.locator('.tabs.enhanced [role=tab]', { hasText: 'pnpm' }).click();
      expect(await page.locator('.tabs.enhanced .tab:not([hidden]) code').textContent()).toContain('pnpm add tool');
      await page.locator('.theme-toggle').click();
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('light');
      await shoot(confined, 'page');

      // The page tree: Install, then its subpage (its branch opens).
      await page.locator('.page-tree a', { hasText: 'Install' }).click();
      await page.waitForURL(`${root}/install`);
      await page.locator('.page-tree a', { hasText: 'From source' }).click();
      await page.waitForURL(`${root}/install/from-source`);
      expect(await page.locator('.breadcrumbs a').allTextContents()).toEqual(['Install']);
      expect(await page.locator('.page-tree a').allTextContents()).not.toContain('Internal notes');
      // Previous/next.
      await page.locator('a.next').click();
      await page.waitForURL(`${root}/faq`);
      // A section tab, then the other variant.
      await page.locator('.section-tabs a', { hasText: 'API' }).click();
      await page.waitForURL(`${root}/${world.sections.api}/`);
      expect(await page.locator('.content p').textContent()).toBe('Lists things (v1).');
      await page.locator('.switcher a', { hasText: 'v2' }).click();
      expect(await page.locator('.content p').textContent()).toBe('Lists things (v2).');
      await shoot(confined, 'variants');
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });

  it('search without script: type in the box, see the results in the site\'s layout, follow one to its section', async () => {
    const world = await realSite();
    const confined = await confinedPage(browser(), origin(), { javaScriptEnabled: false });
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      await page.goto(`${root}/faq`);
      await page.locator('#site-search').fill('Homebrew');
      await page.locator('#site-search').press('Enter');
      await page.waitForURL(`${root}/search?q=Homebrew`);
      expect(await page.locator('h1.page-title').textContent()).toBe('Results for “Homebrew”');
      expect(await page.locator('#site-search').inputValue()).toBe('Homebrew');
      expect(await page.locator('.search-results li > a').allTextContents()).toEqual(['macOS']);
      expect(await page.locator('.search-results .search-where').allTextContents()).toEqual(['Guide › Install']);
      await shoot(confined, 'search');
      await page.locator('.search-results a', { hasText: 'macOS' }).click();
      await page.waitForURL(`${root}/install#macos`);
      expect(await page.locator('h1.page-title').textContent()).toBe('Install');
      expect(await page.locator('h2#macos').isVisible()).toBe(true);
      // A hidden page is not found; the adaptive section is not searched without its claim.
      await page.goto(`${root}/search?q=${encodeURIComponent('Try them')}`);
      expect(await page.locator('.search-summary').textContent()).toBe('Nothing published matches “Try them”.');
      await page.goto(`${root}/?visitor.beta=true`);
      await page.locator('#site-search').fill('Try them');
      await page.locator('#site-search').press('Enter');
      await page.waitForURL(/\/search\?q=Try\+them$/);
      expect(await page.locator('.search-results li > a').allTextContents()).toEqual(['Beta features']);
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });

  it('search as you type: ⌘K / Ctrl K / `/` open the dialog, results come while typing with the words marked, arrows and Enter follow one, Escape closes', async () => {
    const world = await realSite();
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      await page.goto(`${root}/faq`);
      // The form gives way to a button; the dialog is closed.
      expect(await page.locator('form.search').isVisible()).toBe(false);
      expect(await page.locator('.search-button').isVisible()).toBe(true);
      expect(await page.locator('dialog.search-dialog').isVisible()).toBe(false);
      await page.keyboard.press('Control+k');
      const dialog = page.locator('dialog.search-dialog');
      const input = dialog.locator('input[role=combobox]');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
      // Typing: a request once the typing pauses, the results with the word marked.
      const asked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/_search?')) asked.push(request.url());
      });
      await input.pressSequentially('Homeb', { delay: 20 });
      // The last request is for the whole word (a loaded machine may pause mid-word, and the results of
      // `Hom` may show first: they are the same page), and fewer requests than keystrokes were made.
      await expect.poll(() => asked.length > 0 && new URL(asked.at(-1)!).searchParams.get('q')).toBe('Homeb');
      expect(asked.length).toBeLessThan(5);
      await expect.poll(() => dialog.locator('[role=option] mark').allTextContents()).toEqual(['Homebrew']);
      expect(await dialog.locator('[role=option]').count()).toBe(1);
      expect(await dialog.locator('[role=option] .hit-title').textContent()).toBe('macOS');
      expect(await dialog.locator('[role=option]').getAttribute('aria-selected')).toBe('true');
      expect(await input.getAttribute('aria-activedescendant')).toBe('search-hit-0');
      await shoot(confined, 'search-dialog');
      // Escape closes, and the button has the focus again.
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);
      expect(await page.locator('.search-button').evaluate((el) => el === document.activeElement)).toBe(true);
      // `/` opens it too (outside a text field); arrows move through the results; Enter follows one.
      await page.locator('h1.page-title').click();
      await page.keyboard.press('/');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await input.fill('install');
      await expect.poll(() => dialog.locator('[role=option]').count()).toBeGreaterThan(1);
      const titles = await dialog.locator('[role=option] .hit-title').allTextContents();
      await input.press('ArrowDown');
      expect(await input.getAttribute('aria-activedescendant')).toBe('search-hit-1');
      await input.press('ArrowUp');
      expect(await input.getAttribute('aria-activedescendant')).toBe('search-hit-0');
      await input.press('ArrowUp');
      expect(await input.getAttribute('aria-activedescendant')).toBe(`search-hit-${titles.length - 1}`);
      const target = await dialog.locator(`#search-hit-${titles.length - 1}`).getAttribute('href');
      await input.press('Enter');
      await page.waitForURL((url) => `${url.pathname}${url.hash}` === target);
      expect(await page.locator('h1, h2', { hasText: titles.at(-1)! }).count()).toBeGreaterThan(0);
      // In a section with two variants, the dialog keeps to the current one and can widen to the site.
      await page.goto(`${root}/${world.sections.api}/`);
      await page.keyboard.press(process.platform === 'darwin' ? 'Meta+k' : 'Control+k');
      await input.fill('things');
      await expect.poll(() => dialog.locator('[role=option]').count()).toBe(1);
      expect(await dialog.locator('[role=option] .hit-snippet').textContent()).toBe('Lists things (v1).');
      expect(await dialog.locator('.search-scope button[aria-pressed=true]').textContent()).toBe('API › v1');
      await dialog.locator('.search-scope button', { hasText: 'Whole site' }).click();
      await expect.poll(() => dialog.locator('[role=option]').count()).toBe(2);
      expect(await dialog.locator('.search-status a').getAttribute('href')).toBe(`/s/${world.siteId}/search?q=things`);
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });

  it('a site that is not there (unpublished, share-link without its key) shows a styled page naming nothing, in both themes, with no axe violation', async () => {
    const t = server();
    const hidden = await publishedSite(t, [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Hello.' }] as never, { publish: false, title: 'Secret Plans' });
    const shared = await publishedSite(t, [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Hello.' }] as never, { visibility: 'share-link', title: 'Partner Docs' });
    for (const scheme of ['light', 'dark'] as const) {
      const confined = await confinedPage(browser(), origin());
      const { page } = confined;
      try {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [name, site] of [['unpublished', hidden], ['share-link', shared]] as const) {
          const answer = await page.goto(`${server().url}/s/${site.siteId}/welcome`);
          expect(answer!.status()).toBe(404);
          expect(await page.locator('h1').textContent()).toBe('Not found');
          // Styled: the stylesheet applied (a card, the scheme's background), the icon drawn.
          expect(await page.locator('main').evaluate((el) => getComputedStyle(el).borderRadius)).toBe('12px');
          expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(scheme === 'light' ? 'rgb(246, 247, 249)' : 'rgb(17, 19, 24)');
          expect(await page.locator('main svg').count()).toBe(1);
          const text = await page.locator('body').textContent();
          expect(text).not.toContain('Secret Plans');
          expect(text).not.toContain('Partner Docs');
          expect((await axeViolations(confined.page)).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'), `${name} ${scheme}`).toEqual([]);
          if (scheme === 'light' && name === 'share-link') await shoot(confined, 'absent');
        }
        expect(confined.offOrigin).toEqual([]);
        expect(confined.errors.filter((error) => !error.includes('404'))).toEqual([]);
      } finally {
        await confined.context.close();
      }
    }
  });

  it('the 404 page in the site\'s style; adaptive sections appear with the claim', async () => {
    const world = await realSite();
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      const missing = await page.goto(`${root}/no/such/page`);
      expect(missing?.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('Page not found');
      expect(await page.locator('.site-title').textContent()).toContain('Toolbox');
      await shoot(confined, 'not-found');
      expect(await page.locator('.section-tabs a').allTextContents()).not.toContain('Beta');
      expect((await page.goto(`${root}/${world.sections.beta}/features`))?.status()).toBe(404);
      await page.goto(`${root}/?visitor.beta=true`);
      expect(page.url()).toBe(`${root}/`);
      expect(await page.locator('.section-tabs a').allTextContents()).toContain('Beta');
      await page.locator('.section-tabs a', { hasText: 'Beta' }).click();
      expect(await page.locator('h1.page-title').textContent()).toBe('Beta features');
      expect(confined.offOrigin).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });

  it('share-link: the key in the address opens the site, then the cookie keeps it open', async () => {
    const world = await realSite('share-link');
    const { data: link } = await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(world.organizationId, world.siteId), body: { label: 'Partners' } });
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      expect((await page.goto(`${root}/faq`))?.status()).toBe(404);
      expect((await page.goto(`${root}/faq?shareKey=${link!.key}`))?.status()).toBe(200);
      expect(page.url()).toBe(`${root}/faq`);
      const cookies = await confined.context.cookies();
      expect(cookies.map((cookie) => ({ name: cookie.name, path: cookie.path, httpOnly: cookie.httpOnly, sameSite: cookie.sameSite }))).toEqual([
        { name: 'cw_site_share', path: `/s/${world.siteId}`, httpOnly: true, sameSite: 'Lax' },
      ]);
      // The script cannot read it.
      expect(await page.evaluate(() => document.cookie)).toBe('');
      await page.locator('.page-tree a', { hasText: 'Install' }).click();
      expect(await page.locator('h1.page-title').textContent()).toBe('Install');
      expect(confined.offOrigin).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });

  it('visitor-auth: sent to the fallback login without a token, in with one', async () => {
    const world = await realSite('visitor-auth');
    const { data: auth } = await world.admin.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...sitePath(world.organizationId, world.siteId), body: { fallbackURL: 'https://login.example.com/sign-in' } });
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      await page.goto(`${root}/faq`).catch(() => undefined);
      // The only request off the origin: the redirect to the login page (refused by the confinement).
      expect(confined.offOrigin).toEqual([`https://login.example.com/sign-in?location=${encodeURIComponent(`http://api.test/s/${world.siteId}/faq`)}`]);
      const token = await new SignJWT({ sub: 'reader' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(auth!.secret!));
      // A fresh tab of the same browser profile (the first one shows the refused navigation's error page).
      const tab = await confined.context.newPage();
      expect((await tab.goto(`${root}/faq?jwt_token=${token}`))?.status()).toBe(200);
      expect(tab.url()).toBe(`${root}/faq`);
      expect(await tab.locator('h1.page-title').textContent()).toBe('FAQ');
      await tab.locator('.page-tree a', { hasText: 'Install' }).click();
      expect(await tab.locator('h1.page-title').textContent()).toBe('Install');
    } finally {
      await confined.context.close();
    }
  });

  it('axe-core: no serious or critical violation on a page, a section variant, the 404 page, the search results, at desktop and phone widths, light and dark', async () => {
    const world = await realSite();
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      const root = `${server().url}/s/${world.siteId}`;
      for (const [path, viewport, scheme] of [
        ['/', { width: 1280, height: 900 }, 'light'],
        ['/', { width: 390, height: 844 }, 'dark'],
        [`/${world.sections.api}/`, { width: 1280, height: 900 }, 'dark'],
        ['/install/from-source', { width: 390, height: 844 }, 'light'],
        ['/nothing-here', { width: 1280, height: 900 }, 'light'],
        ['/search?q=install', { width: 1280, height: 900 }, 'dark'],
        ['/search?q=install', { width: 390, height: 844 }, 'light'],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${root}${path}`);
        const violations = await axeViolations(confined.page);
        expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'), `${path} ${viewport.width}px ${scheme}`).toEqual([]);
      }
      expect(confined.offOrigin).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });
});
