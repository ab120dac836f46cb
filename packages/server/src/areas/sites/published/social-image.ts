// The social image of a published page (issue 28, "SEO and sharing"): what a link preview shows, a
// 1200×630 PNG with the site's colour and title, the page's title and description. Laid out by satori
// (flexbox → SVG, with the Inter faces of @fontsource/inter: satori reads .woff, not .woff2) and
// rasterized by resvg. CPU work for hundreds of milliseconds: it runs in the parse pool only
// (packages/server/src/parsing/tasks.ts `social-image`), never on the event loop; the main thread
// decides what it shows and keeps the result (packages/server/src/areas/sites/published/site-social.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';

export const SOCIAL_WIDTH = 1200;
export const SOCIAL_HEIGHT = 630;

/** What the image shows: plain text, bounded by the caller (site-social.ts `socialInput`), and a `#rgb`/`#rrggbb` colour. */
export type SocialInput = { siteTitle: string; pageTitle: string; description: string; color: string };

type Weight = 400 | 700;
type Font = { name: string; data: Buffer; weight: Weight; style: 'normal' };

/** Inter's subsets for Latin, Greek and Cyrillic scripts; other scripts' characters are left out by satori. */
const SUBSETS = ['latin', 'latin-ext', 'greek', 'cyrillic'];

let fonts: Font[] | undefined;
function interFaces(): Font[] {
  if (fonts) return fonts;
  // The package's files folder, found through one of its files.
  const require = createRequire(import.meta.url);
  const files = dirname(require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff'));
  const load = (subset: string, weight: Weight): Font => ({ name: 'Inter', data: readFileSync(join(files, `inter-${subset}-${weight}-normal.woff`)), weight, style: 'normal' });
  fonts = SUBSETS.flatMap((subset) => [load(subset, 400), load(subset, 700)]);
  return fonts;
}

/**
 * The text less the characters Inter has no glyph for (satori would draw a "no glyph" box): other
 * scripts (CJK, Arabic, Hebrew…) and emoji are left out, whitespace collapsed.
 */
const drawable = (text: string) =>
  text
    .replace(/\p{Extended_Pictographic}|[^\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]|\u200d|\ufe0f/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

type Node = { type: string; props: { style?: Record<string, string | number>; children?: Array<Node | string> | Node | string } };
const div = (style: Record<string, string | number>, children: Array<Node | string> | string): Node => ({ type: 'div', props: { style, children } });

/** The image's layout: a band of the site's colour, the page's title and description, the site's name below. */
function layout(input: SocialInput): Node {
  return div({ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', background: '#ffffff', fontFamily: 'Inter' }, [
    div({ width: '100%', height: 18, background: input.color }, ''),
    div({ flex: 1, display: 'flex', flexDirection: 'column', padding: '64px 80px 56px' }, [
      div({ fontSize: 64, fontWeight: 700, lineHeight: 1.15, color: '#111827', lineClamp: 3, display: 'block', wordBreak: 'break-word', overflow: 'hidden' }, drawable(input.pageTitle)),
      ...(input.description ? [div({ marginTop: 28, fontSize: 32, lineHeight: 1.4, color: '#4b5563', lineClamp: 3, display: 'block', wordBreak: 'break-word', overflow: 'hidden' }, drawable(input.description))] : []),
      div({ marginTop: 'auto', display: 'flex', alignItems: 'center' }, [
        div({ width: 40, height: 40, borderRadius: 10, background: input.color, marginRight: 20 }, ''),
        div({ fontSize: 32, fontWeight: 700, color: '#111827', lineClamp: 1, display: 'block', maxWidth: 960, wordBreak: 'break-all', overflow: 'hidden' }, drawable(input.siteTitle)),
      ]),
    ]),
  ]);
}

/** The PNG of `input`. Characters no face has are left blank (no network, no fallback fetched). */
export async function renderSocialImage(input: SocialInput): Promise<Uint8Array> {
  const svg = await satori(layout(input) as never, { width: SOCIAL_WIDTH, height: SOCIAL_HEIGHT, fonts: interFaces() });
  return new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
}
