// The blocks of a published page in Debian's Chromium (playwright-core, confined to the server's
// origin): tabs by keyboard (the WAI-ARIA tabs pattern) and without script; expandables; code blocks'
// line numbers, wrapping and a Copy button clear of the code; content references titled by their
// page; embeds and files as cards; images sized before they load and zoomed on click; cards, steppers
// and math drawn — with no request leaving the origin, nothing refused by the site's policy, and axe
// finding no serious violation. Screenshots are written to $SITE_SCREENSHOTS when it is set.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeViolations, confinedPage, useBrowser, type ConfinedPage } from '../support/browser.js';
import { edit, NPM_INSTALL_TAB, tabsBlock } from '../support/content.js';
import { useTestServer } from '../support/harness.js';
import { solidPng } from '../support/images.js';
import { publishedSite } from '../support/published.js';

const server = useTestServer();
const SCREENSHOTS = process.env.SITE_SCREENSHOTS;

const browser = useBrowser();

const LONG_LINE = `const message = '${'a long line that has to wrap '.repeat(6)}';`;

/** Every block GitBook's export carries (refs filled in by `blocksSite`). */
const BODY = [
  'The blocks of a page.',
  '',
  '## Tabs',
  '',
  ...tabsBlock({ npm: NPM_INSTALL_TAB, pnpm: ['With pnpm: `pnpm add tool`.'], yarn: ['With yarn: `yarn add tool`.'] }),
  '',
  '<details>',
  '',
  '<summary>Why a lockfile?</summary>',
  '',
  'So every install is the same.',
  '',
  '</details>',
  '',
  '## Code',
  '',
  '{% code title="config.ts" lineNumbers="true" overflow="wrap" %}',
  '```ts',
  LONG_LINE,
  'export default message;',
  '```',
  '{% endcode %}',
  '',
  '```ts',
  'const untitled = 1;',
  '```',
  '',
  '## References',
  '',
  '{% content-ref url="api.md" %}',
  '[api.md](api.md)',
  '{% endcontent-ref %}',
  '',
  '{% embed url="https://www.youtube.com/watch?v=abc" %}',
  'The launch video',
  '{% endembed %}',
  '',
  '{% file src="/files/{report}" %}',
  'The yearly report',
  '{% endfile %}',
  '',
  '![A chart](/files/{chart})',
  '',
  '[![npm version](https://badge.example/npm.svg)](https://www.npmjs.com/package/tool)',
  '',
  '## Cards and steps',
  '',
  '<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody>' +
    '<tr><td><strong>API</strong></td><td>Every operation.</td><td><a href="api.md">api.md</a></td><td><a href="/files/{chart}">chart.png</a></td></tr>' +
    '<tr><td><strong>Guide</strong></td><td>Start here.</td><td><a href="guide.md">guide.md</a></td><td></td></tr></tbody></table>',
  '',
  '{% stepper %}',
  '{% step %}',
  '### Install',
  'Add the package.',
  '{% endstep %}',
  '{% step %}',
  '### Configure',
  'Write `config.ts`.',
  '{% endstep %}',
  '{% endstepper %}',
  '',
  '## Math',
  '',
  'The area is $$\\pi r^2$$ and a price stays $5.',
  '',
  '$$',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  '$$',
  '',
  '$$',
  '\\frac{',
  '$$',
].join('\n');

async function blocksSite() {
  const t = server();
  const world = await publishedSite(
    t,
    [
      { type: 'insert_file', ref: 'chart', name: 'chart.png', contentType: 'image/png', base64: solidPng(320, 120).toString('base64') },
      { type: 'insert_file', ref: 'report', name: 'report-2026.pdf', contentType: 'application/pdf', base64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') },
      { type: 'insert_page', ref: 'blocks', title: 'Blocks', slug: 'blocks', markdown: '' },
      { type: 'insert_page', ref: 'api', title: 'API reference', slug: 'api', markdown: 'Every operation.' },
      { type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'Start here.' },
    ] as never,
    { title: 'Toolbox' },
  );
  const guide = world.spaces.guide!;
  const markdown = BODY.replaceAll('{chart}', guide.refs.chart!).replaceAll('{report}', guide.refs.report!);
  await edit(world.admin, guide.id, [{ type: 'update_page', page: guide.refs.blocks!, markdown } as never]);
  return { ...world, root: `${server().url}/s/${world.siteId}` };
}

const origin = () => new URL(server().url).origin;

async function shoot(confined: ConfinedPage, name: string) {
  if (!SCREENSHOTS) return;
  for (const [label, size] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await confined.page.setViewportSize(size);
    await confined.page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await confined.page.setViewportSize({ width: 1280, height: 900 });
}

describe('the blocks of a published page in Chromium', () => {
  it('tabs follow the WAI-ARIA pattern: arrows, Home and End move the selection and the focus, one tab in the tab order', async () => {
    const { root } = await blocksSite();
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      await page.goto(`${root}/blocks`);
      const tabs = page.locator('.tabs [role=tab]');
      expect(await tabs.allTextContents()).toEqual(['npm', 'pnpm', 'yarn']);
      const state = () =>
        page.evaluate(() => ({
          selected: [...document.querySelectorAll('.tabs [role=tab]')].map((tab) => tab.getAttribute('aria-selected')),
          tabIndex: [...document.querySelectorAll<HTMLElement>('.tabs [role=tab]')].map((tab) => tab.tabIndex),
          focused: document.activeElement?.textContent,
          shown: [...document.querySelectorAll<HTMLElement>('.tabs [role=tabpanel]')].filter((panel) => !panel.hidden).map((panel) => panel.getAttribute('aria-labelledby')),
        }));
      expect(await state()).toEqual({ selected: ['true', 'false', 'false'], tabIndex: [0, -1, -1], focused: expect.any(String), shown: ['tabs-0-tab-0'] });
      // Reached with Tab from the page; the panels are labelled by their tabs.
      await tabs.first().focus();
      await page.keyboard.press('ArrowRight');
      expect(await state()).toEqual({ selected: ['false', 'true', 'false'], tabIndex: [-1, 0, -1], focused: 'pnpm', shown: ['tabs-0-tab-1'] });
      await page.keyboard.press('End');
      expect(await state()).toMatchObject({ selected: ['false', 'false', 'true'], focused: 'yarn', shown: ['tabs-0-tab-2'] });
      await page.keyboard.press('ArrowRight');
      expect(await state()).toMatchObject({ selected: ['true', 'false', 'false'], focused: 'npm' });
      await page.keyboard.press('ArrowLeft');
      expect(await state()).toMatchObject({ selected: ['false', 'false', 'true'], focused: 'yarn' });
      await page.keyboard.press('Home');
      expect(await state()).toMatchObject({ selected: ['true', 'false', 'false'], focused: 'npm', shown: ['tabs-0-tab-0'] });
      // Tab leaves the tab list for the visible panel, not for the other tabs.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');
      expect(await page.locator('.tabs [role=tabpanel]:not([hidden])').textContent()).toContain('npm install tool');
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });

  it('without script, every tab panel shows under its title', async () => {
    const { root } = await blocksSite();
    const confined = await confinedPage(browser(), origin(), { javaScriptEnabled: false });
    const { page } = confined;
    try {
      await page.goto(`${root}/blocks`);
      expect(await page.locator('.tabs [role=tab]').count()).toBe(0);
      expect(await page.locator('.tabs .tab-title').evaluateAll((titles) => titles.map((title) => [title.textContent, (title as HTMLElement).offsetHeight > 0]))).toEqual([
        ['npm', true],
        ['pnpm', true],
        ['yarn', true],
      ]);
      expect(await page.locator('.tabs .tab').evaluateAll((panels) => panels.every((panel) => (panel as HTMLElement).offsetHeight > 0))).toBe(true);
    } finally {
      await confined.context.close();
    }
  });

  it('expandables, code blocks, references, embeds, files, images, cards, steppers and math are drawn, with nothing from another origin', async () => {
    const { root } = await blocksSite();
    const confined = await confinedPage(browser(), origin());
    const { page } = confined;
    try {
      await page.goto(`${root}/blocks`);

      // An expandable: closed, styled, opens on its summary.
      const details = page.locator('.content details');
      expect(await details.evaluate((el) => [(el as HTMLDetailsElement).open, getComputedStyle(el).borderTopStyle])).toEqual([false, 'solid']);
      await details.locator('summary').click();
      expect(await details.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
      expect(await details.locator('p').isVisible()).toBe(true);

      // Code: numbered lines, the long one wrapped (no scrolling sideways) and its continuation under
      // the text, not under the number; Copy in the title bar; in an untitled block Copy clears the first line.
      const titled = page.locator('figure.code-titled');
      const lines = titled.locator('.line');
      expect(await lines.count()).toBe(2);
      expect(await lines.evaluateAll((spans) => spans.map((span) => getComputedStyle(span, '::before').content))).toEqual(['counter(line)', 'counter(line)']);
      const pre = titled.locator('pre');
      expect(await pre.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const wrapped = await lines.first().evaluate((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        const number = span.getBoundingClientRect().left;
        return { rows: new Set(rects.map((rect) => Math.round(rect.top))).size, textLeft: Math.min(...rects.slice(1).map((rect) => rect.left)) - number };
      });
      expect(wrapped.rows).toBeGreaterThan(1);
      expect(wrapped.textLeft).toBeGreaterThan(20);
      expect(await titled.locator('figcaption .copy-button').count()).toBe(1);
      const bare = page.locator('.content > pre').first();
      const overlap = await bare.evaluate((el) => {
        const button = el.querySelector('.copy-button')!.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el.querySelector('code')!);
        const first = range.getClientRects()[0]!;
        return button.bottom > first.top && button.top < first.bottom && button.right > first.left && button.left < first.right;
      });
      expect(overlap).toBe(false);

      // A content reference titled by its page; an embed and a file as cards.
      expect(await page.locator('a.content-ref .content-ref-title').textContent()).toBe('API reference');
      expect(await page.locator('a.content-ref').getAttribute('href')).toBe(`/s/${(await page.evaluate(() => location.pathname)).split('/')[2]}/api`);
      const embed = page.locator('a.embed');
      expect(await embed.locator('.embed-title').textContent()).toBe('youtube.com');
      expect(await embed.getAttribute('href')).toBe('https://www.youtube.com/watch?v=abc');
      expect(await page.locator('.embed-caption').textContent()).toContain('The launch video');
      expect(await page.locator('iframe').count()).toBe(0);
      const file = page.locator('a.file-block');
      expect(await file.locator('.file-name').textContent()).toBe('report-2026.pdf');
      expect(await file.locator('.file-mark').textContent()).toBe('PDF');
      expect(await file.locator('.file-caption').textContent()).toBe('The yearly report');
      expect(await page.request.get(new URL((await file.getAttribute('href'))!, root).href).then((answer) => answer.status())).toBe(200);

      // The image is sized before it loads; the badge inside a link is not a link itself.
      const chart = page.locator('.content > p > img');
      expect(await chart.evaluate((img) => [img.getAttribute('width'), img.getAttribute('height')])).toEqual(['320', '120']);
      expect(await page.locator('a a').count()).toBe(0);
      await chart.click();
      const zoom = page.locator('dialog.image-zoom');
      expect(await zoom.evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
      expect(await zoom.locator('img').getAttribute('alt')).toBe('A chart');
      await page.keyboard.press('Escape');
      expect(await zoom.evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(false);

      // Cards: a grid, the title a link to the page, the cover the file.
      const cards = page.locator('.cards .card');
      expect(await cards.locator('.card-title').allTextContents()).toEqual(['API', 'Guide']);
      expect(await cards.first().locator('img.card-cover').count()).toBe(1);
      // The whole card leads to its page: its title's link lies over it (its text's own links above that).
      const description = cards.nth(1).locator('.card-body p').last();
      await description.scrollIntoViewIfNeeded();
      expect(await description.evaluate((p) => {
        const box = p.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.className;
      })).toBe('card-link');
      await cards.nth(1).locator('a.card-link').click();
      await page.waitForURL(`${root}/guide`);
      await page.goBack();

      // A stepper: numbered steps; math: MathML drawn by the browser, the bad formula shown as its source.
      expect(await page.locator('ol.stepper > li.step').count()).toBe(2);
      expect(await page.locator('ol.stepper > li.step').first().evaluate((step) => getComputedStyle(step, '::before').content)).toBe('counter(step)');
      expect(await page.locator('.content p math').count()).toBe(1);
      const block = page.locator('.math-block math[display=block]');
      expect(await block.evaluate((math) => math.getBoundingClientRect().height)).toBeGreaterThan(20);
      expect(await page.locator('.math-error').textContent()).toBe('$$\n\\frac{\n$$');
      expect(await page.locator('.content').textContent()).toContain('a price stays $5.');

      await shoot(confined, 'blocks');
      const serious = (await axeViolations(confined.page)).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      expect(serious).toEqual([]);
      expect(confined.offOrigin).toEqual([]);
      expect(confined.errors).toEqual([]);
    } finally {
      await confined.context.close();
    }
  });
});
