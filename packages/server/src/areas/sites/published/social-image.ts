// The social image of a published page (issue 28, "SEO and sharing"): what a link preview shows, a
// 1200×630 PNG with the site's colour or logo and title, the page's title and description. Laid out by
// satori (flexbox → SVG, with the faces social-fonts.ts picks for the text: Inter, Noto Sans for other
// scripts, Twemoji for emoji) and rasterized by resvg. CPU work for hundreds of milliseconds: it runs
// in the parse pool only (packages/server/src/parsing/tasks.ts `social-image`), never on the event
// loop; the main thread decides what it shows and keeps the result
// (packages/server/src/areas/sites/published/site-social.ts).
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { readImageInfo } from '../../../content/image-info.js';
import { needsFace, type SocialFonts } from './social-fonts.js';

export const SOCIAL_WIDTH = 1200;
export const SOCIAL_HEIGHT = 630;

/** The site's logo as the site keeps it (site-favicon.ts): its bytes, and their type read from them. */
export type SocialLogo = { contentType: string; data: Uint8Array };

/**
 * What the image shows: plain text, bounded by the caller (site-social.ts `socialInput`), a
 * `#rgb`/`#rrggbb` colour, the site's language (which Han faces come first) and its logo, if any.
 */
export type SocialInput = { siteTitle: string; pageTitle: string; description: string; color: string; locale: string; logo?: SocialLogo | undefined };

/** The logo's box in the corner: as tall as the site's title, at most this wide. */
const LOGO_HEIGHT = 48;
const LOGO_MAX_WIDTH = 280;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// An emoji as Unicode recommends it (`v` flag: sequences, not only characters).
const EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
/** The first character with a strong direction decides a text's (as `dir="auto"` does). */
const STRONG = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]|\p{L}/u;
const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const direction = (text: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.test(text.match(STRONG)?.[0] ?? '') ? 'rtl' : 'ltr');

type Node = { type: string; props: { style?: Record<string, string | number>; children?: Array<Node | string> | Node | string; [attribute: string]: unknown } };
const div = (style: Record<string, string | number>, children: Array<Node | string> | string): Node => ({ type: 'div', props: { style, children } });

/**
 * The texts as they can be drawn, with the faces and emoji pictures that draw them: an emoji is a
 * Twemoji picture (left out when Twemoji has none), any other character no face has is left out
 * (satori would draw a "no glyph" box).
 */
function prepare(input: SocialInput, fonts: SocialFonts) {
  const graphemeImages: Record<string, string> = {};
  const graphemesOf = (text: string) =>
    [...segmenter.segment(text)]
      .map((part) => part.segment)
      .filter((grapheme) => {
        if (!EMOJI.test(grapheme)) return true;
        const image = fonts.emojiImage(grapheme);
        if (image) graphemeImages[grapheme] = image;
        return image !== undefined;
      });
  const pageTitle = graphemesOf(input.pageTitle);
  const siteTitle = graphemesOf(input.siteTitle);
  const description = graphemesOf(input.description);
  const plain = (graphemes: string[]) => graphemes.filter((grapheme) => !(grapheme in graphemeImages)).join('');
  // The title first: when a text needs too many subsets, the title's characters are kept.
  const { faces, drawable } = fonts.facesFor(
    [
      { text: plain(pageTitle), weight: 700 },
      { text: plain(siteTitle), weight: 700 },
      { text: plain(description), weight: 400 },
    ],
    input.locale,
  );
  const drawn = (grapheme: string) => grapheme in graphemeImages || [...grapheme].every((character) => !needsFace(character) || drawable(character.codePointAt(0)!));
  const clean = (graphemes: string[]) =>
    graphemes
      .filter(drawn)
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  return { faces, graphemeImages, pageTitle: clean(pageTitle), description: clean(description), siteTitle: clean(siteTitle) };
}

/**
 * Whether a logo SVG names anything outside itself (an image, a stylesheet, a font, an entity): resvg
 * would read it from the server's disk, so such a logo is not drawn. Only `#fragment` references pass.
 * Linear: each pattern's parts cannot match the same characters twice.
 */
function namesOutside(svg: string): boolean {
  if (/<!ENTITY|@import/i.test(svg)) return true;
  for (const [, value = ''] of svg.matchAll(/href\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/gi)) if (!value.replace(/^["']/, '').trimStart().startsWith('#')) return true;
  for (const [, value = ''] of svg.matchAll(/url\(([^)]*)\)/gi)) if (!value.replace(/^[\s"']+/, '').startsWith('#')) return true;
  return false;
}

/** The logo's image and its box (height LOGO_HEIGHT, its own proportions), or undefined when it cannot be drawn. */
function logoBox(logo: SocialLogo | undefined): { src: string; width: number; height: number } | undefined {
  if (!logo) return undefined;
  const bytes = Buffer.from(logo.data.buffer, logo.data.byteOffset, logo.data.byteLength);
  let ratio: number | undefined;
  if (logo.contentType === 'image/svg+xml') {
    const text = bytes.toString('utf8');
    if (namesOutside(text)) return undefined;
    const tag = /<svg[^>]{0,4000}>/i.exec(text)?.[0] ?? '';
    const viewBox = /viewBox\s*=\s*["']\s*[-\d.e]+[\s,]+[-\d.e]+[\s,]+([\d.e]+)[\s,]+([\d.e]+)/i.exec(tag);
    const size = (name: string) => Number(new RegExp(`\\s${name}\\s*=\\s*["']?([\\d.]+)`, 'i').exec(tag)?.[1]);
    ratio = viewBox ? Number(viewBox[1]) / Number(viewBox[2]) : size('width') / size('height');
  } else if (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg' || logo.contentType === 'image/gif') {
    const info = readImageInfo(bytes);
    ratio = info && info.width / info.height;
  }
  if (!ratio || !Number.isFinite(ratio) || ratio <= 0) ratio = 1;
  const width = Math.max(8, Math.min(LOGO_MAX_WIDTH, Math.round(LOGO_HEIGHT * ratio)));
  return { src: `data:${logo.contentType};base64,${bytes.toString('base64')}`, width, height: width === LOGO_MAX_WIDTH ? Math.round(LOGO_MAX_WIDTH / ratio) : LOGO_HEIGHT };
}

/** The image's layout: a band of the site's colour, the page's title and description, the site's logo or colour and name below. */
function layout(input: SocialInput, text: ReturnType<typeof prepare>): Node {
  const family = text.faces[0]!.name;
  const logo = logoBox(input.logo);
  const siteDirection = direction(text.siteTitle);
  const block = (content: string) => ({ display: 'block', direction: direction(content), wordBreak: 'break-word', overflow: 'hidden' });
  return div({ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', background: '#ffffff', fontFamily: family }, [
    div({ width: '100%', height: 18, background: input.color }, ''),
    div({ flex: 1, display: 'flex', flexDirection: 'column', padding: '64px 80px 56px' }, [
      div({ fontSize: 64, fontWeight: 700, lineHeight: 1.15, color: '#111827', lineClamp: 3, ...block(text.pageTitle) }, text.pageTitle),
      ...(text.description ? [div({ marginTop: 28, fontSize: 32, lineHeight: 1.4, color: '#4b5563', lineClamp: 3, ...block(text.description) }, text.description)] : []),
      div({ marginTop: 'auto', display: 'flex', alignItems: 'center', direction: siteDirection }, [
        logo
          ? { type: 'img', props: { src: logo.src, width: logo.width, height: logo.height, style: { width: logo.width, height: logo.height, marginInlineEnd: 24 } } }
          : div({ width: 40, height: 40, borderRadius: 10, background: input.color, marginInlineEnd: 20 }, ''),
        div({ fontSize: 32, fontWeight: 700, lineHeight: 1.4, color: '#111827', lineClamp: 1, display: 'block', maxWidth: logo ? 1040 - logo.width - 24 : 960, wordBreak: 'break-word', overflow: 'hidden', direction: siteDirection }, text.siteTitle),
      ]),
    ]),
  ]);
}

/**
 * The PNG of `input`, drawn with what the worker keeps (`fonts`). Nothing is fetched: the faces and
 * emoji come from the server's packages, the logo with the input.
 */
export async function renderSocialImage(input: SocialInput, fonts: SocialFonts): Promise<Uint8Array> {
  const text = prepare(input, fonts);
  const svg = await satori(layout(input, text) as never, { width: SOCIAL_WIDTH, height: SOCIAL_HEIGHT, fonts: text.faces, graphemeImages: text.graphemeImages });
  return new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
}
