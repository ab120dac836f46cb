// The "Was this page helpful?" form in Debian's Chromium (issue 28): sent by the site's script in the
// background (the thanks shown in place, the page not left), and sent as a plain form with JavaScript
// off (the server's thank-you page, a link back); each stored once, under the site's policy, with no
// request leaving the origin.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confinedPage, launchBrowser } from '../support/browser.js';
import { useTestServer } from '../support/harness.js';
import { publishedSite, sitePath } from '../support/published.js';

const server = useTestServer();
const origin = () => new URL(server().url).origin;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the feedback form in a browser', () => {
  it('sends an answer with the script, in place, and without it, as a form', async () => {
    const world = await publishedSite(server(), [{ type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'The guide.' }] as never);
    const root = `${server().url}/s/${world.siteId}`;
    const feedback = async () => (await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', sitePath(world.organizationId, world.siteId))).data!.items;

    const confined = await confinedPage(browser, origin());
    try {
      const { page } = confined;
      await page.goto(`${root}/guide`);
      await page.getByLabel('Comment (optional)').fill('Short and clear.');
      await page.getByRole('button', { name: 'Yes' }).click();
      await expect.poll(() => page.locator('.feedback-status').textContent()).toBe('Thank you for your feedback.');
      expect(page.url()).toBe(`${root}/guide`);
      expect(await page.getByRole('button', { name: 'Yes' }).isVisible()).toBe(false);
      expect((await feedback()).map(({ rating, comment }) => ({ rating, comment }))).toEqual([{ rating: 'good', comment: 'Short and clear.' }]);
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }

    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await plain.newPage();
      await page.goto(`${root}/guide`);
      await page.getByRole('button', { name: 'No' }).click();
      await page.waitForURL(`${root}/_feedback`);
      expect(await page.locator('h1').textContent()).toBe('Thank you');
      await page.getByRole('link', { name: 'Back to the page' }).click();
      await page.waitForURL(`${root}/guide`);
      expect((await feedback()).map(({ rating }) => rating)).toEqual(['bad', 'good']);
    } finally {
      await plain.close();
    }
  });
});
