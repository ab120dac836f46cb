import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { ParsePool } from '../../../parsing/parse-pool.js';
import { clip } from './site-social.js';
import { readableFontFiles } from './social-fonts.js';
import type { SocialInput } from './social-image.js';

const pool = new ParsePool({ threads: 2 });
afterAll(() => pool.close());

const HOSTILE = `<script>alert(1)</script> مرحبا بالعالم 👩‍👩‍👧 שלום ${'😀'.repeat(3000)}${'x'.repeat(4000)}`;
/** The image's own limit (site-social.ts RENDER_DEADLINE_MS). */
const DEADLINE_MS = 10_000;

const render = async (input: Partial<SocialInput>) =>
  Buffer.from(await pool.run('social-image', { siteTitle: 'Acme Docs', pageTitle: '', description: '', color: '#346ddb', locale: 'en', ...input }, { deadlineMs: DEADLINE_MS, lane: 'long' }));

/** The PNG's RGBA pixels, decoded by resvg (the PNG drawn as the only image of a same-sized SVG). */
function pixels(png: Buffer): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><image href="data:image/png;base64,${png.toString('base64')}" width="1200" height="630"/></svg>`;
  return new Resvg(svg).render().pixels;
}

type Box = { left: number; top: number; right: number; bottom: number };
/** The title's band (three lines under the top padding) and the corner of the logo or coloured square. */
const TITLE: Box = { left: 60, top: 80, right: 1140, bottom: 310 };
const CORNER: Box = { left: 60, top: 480, right: 420, bottom: 620 };

/** The pixels of `box` that `test` accepts, and the leftmost and rightmost column holding one. */
function inBox(rgba: Buffer, box: Box, test: (r: number, g: number, b: number) => boolean) {
  let count = 0;
  let left = Infinity;
  let right = -Infinity;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const at = (y * 1200 + x) * 4;
      if (!test(rgba[at]!, rgba[at + 1]!, rgba[at + 2]!)) continue;
      count++;
      left = Math.min(left, x);
      right = Math.max(right, x);
    }
  }
  return { count, left, right };
}
const ink = (r: number, g: number, b: number) => r < 110 && g < 110 && b < 110;
const colourful = (r: number, g: number, b: number) => Math.max(r, g, b) - Math.min(r, g, b) > 90;
const magenta = (r: number, g: number, b: number) => r > 230 && g < 30 && b > 140 && b < 200;

/** A logo: a magenta rectangle, twice as wide as tall. */
const LOGO_PNG = new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48"><rect width="96" height="48" fill="#ff00aa"/></svg>').render().asPng();

describe('social image input and rendering', () => {
  it('clips a text to whole graphemes with an ellipsis, and leaves a short one as it is', () => {
    expect(clip('Install', 160)).toBe('Install');
    const clipped = clip(HOSTILE, 160);
    const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(clipped)];
    expect(graphemes.length).toBeLessThanOrEqual(160);
    expect(clipped.endsWith('…')).toBe(true);
    expect(clipped).toContain('👩‍👩‍👧');
    expect(clip('a\u0000b\u001bc', 10)).toBe('a b c');
  });

  it('a 10,000-character title (markup, RTL, emoji) clipped renders a 1200×630 PNG in the pool', async () => {
    expect(HOSTILE.length).toBeGreaterThan(10_000);
    const png = await render({ siteTitle: clip(HOSTILE, 80), pageTitle: clip(HOSTILE, 160), description: clip(HOSTILE, 300), color: '#e11d48' });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('every font file the image may read is installed (the release ships exactly these: tools/release.ts)', () => {
    const require = createRequire(import.meta.url);
    const listed = readableFontFiles();
    expect(listed.map((entry) => entry.packageName)).toContain('@fontsource/noto-sans-jp');
    for (const { packageName, files } of listed) {
      const folder = join(dirname(require.resolve(`${packageName}/unicode.json`)), 'files');
      expect(files.length, packageName).toBeGreaterThan(2);
      expect(files.filter((file) => !existsSync(join(folder, file))), packageName).toEqual([]);
    }
  });

  it('draws a Japanese title (Noto Sans JP subsets), which Inter alone leaves blank', async () => {
    const title = inBox(pixels(await render({ pageTitle: 'はじめに：最初のリクエストを送信する', locale: 'ja' })), TITLE, ink);
    // Two lines of 64 px characters: tens of thousands of dark pixels.
    expect(title.count).toBeGreaterThan(8000);
    expect(title.left).toBeLessThan(100);
  });

  it('draws an Arabic title from the right (right to left), and a Hebrew one', async () => {
    const arabic = inBox(pixels(await render({ pageTitle: 'البدء السريع', locale: 'ar' })), TITLE, ink);
    expect(arabic.count).toBeGreaterThan(3000);
    // One short line, aligned to the start of a right-to-left line: the right.
    expect(arabic.right).toBeGreaterThan(1080);
    expect(arabic.left).toBeGreaterThan(600);
    const hebrew = inBox(pixels(await render({ pageTitle: 'התחלה מהירה', locale: 'he' })), TITLE, ink);
    expect(hebrew.count).toBeGreaterThan(3000);
    expect(hebrew.left).toBeGreaterThan(600);
  });

  it('draws emoji as Twemoji pictures, in colour', async () => {
    const emoji = inBox(pixels(await render({ pageTitle: '🚀 🎉 👩‍💻' })), TITLE, colourful);
    expect(emoji.count).toBeGreaterThan(3000);
  });

  it('draws Greek and Cyrillic letters from their own Inter subsets, not as "no glyph" boxes', async () => {
    // As many letters in each: boxes would give the same image twice.
    const one = pixels(await render({ pageTitle: 'Привет Γειά' }));
    const other = pixels(await render({ pageTitle: 'Пример Λόγο' }));
    expect(inBox(one, TITLE, ink).count).toBeGreaterThan(3000);
    expect(one.equals(other)).toBe(false);
  });

  it('a title mixing ten scripts and emoji renders within the limit', async () => {
    const started = performance.now();
    const png = await render({
      siteTitle: 'Docs 文档 📚',
      pageTitle: 'Hello Привет Γειά 你好 こんにちは 안녕하세요 مرحبا שלום สวัสดี नमस्ते 👋🏽 🇯🇵 👩‍💻',
      locale: 'zh-TW',
    });
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS);
    // Drawn, the scripts fill the title's second line (the Latin, Greek and Cyrillic words and the emoji alone fit on the first).
    expect(inBox(pixels(png), { ...TITLE, top: 160, bottom: 232 }, ink).count).toBeGreaterThan(2000);
  });

  it("draws the site's logo in the corner instead of the coloured square", async () => {
    const withLogo = pixels(await render({ pageTitle: 'Install', logo: { contentType: 'image/png', data: LOGO_PNG } }));
    expect(inBox(withLogo, CORNER, magenta).count).toBeGreaterThan(48 * 96 * 0.8);
    const square = (r: number, g: number, b: number) => r === 0x34 && g === 0x6d && b === 0xdb;
    expect(inBox(withLogo, CORNER, square).count).toBe(0);
    const without = pixels(await render({ pageTitle: 'Install' }));
    expect(inBox(without, CORNER, magenta).count).toBe(0);
    expect(inBox(without, CORNER, square).count).toBeGreaterThan(1000);
    // An SVG logo is drawn too, unless it names anything outside itself (resvg would read it from the disk).
    const svg = (body: string) => ({ contentType: 'image/svg+xml', data: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 48">${body}</svg>`) });
    expect(inBox(pixels(await render({ logo: svg('<rect width="96" height="48" fill="#ff00aa"/>') })), CORNER, magenta).count).toBeGreaterThan(3000);
    const outside = pixels(await render({ logo: svg('<rect width="96" height="48" fill="#ff00aa"/><image href="/etc/hostname" width="10" height="10"/>') }));
    expect(inBox(outside, CORNER, magenta).count).toBe(0);
    expect(inBox(outside, CORNER, square).count).toBeGreaterThan(1000);
  });
});
