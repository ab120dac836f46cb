import { afterAll, describe, expect, it } from 'vitest';
import { ParsePool } from '../../../parsing/parse-pool.js';
import { clip } from './site-social.js';

const pool = new ParsePool({ threads: 2 });
afterAll(() => pool.close());

const HOSTILE = `<script>alert(1)</script> مرحبا بالعالم 👩‍👩‍👧 שלום ${'😀'.repeat(3000)}${'x'.repeat(4000)}`;

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
    const png = Buffer.from(await pool.run('social-image', { siteTitle: clip(HOSTILE, 80), pageTitle: clip(HOSTILE, 160), description: clip(HOSTILE, 300), color: '#e11d48' }, { deadlineMs: 30_000, lane: 'long' }));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });
});
