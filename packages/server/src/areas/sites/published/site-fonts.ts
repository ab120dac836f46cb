// The typefaces of published sites, served by the server itself (no third-party request): Inter for
// text and JetBrains Mono for code, both variable fonts from Fontsource (OFL), latin subset only so a
// first visit stays small (about 48 KB and 40 KB; the code face is only fetched by a page that shows
// code). Read once when the server starts; served with the other shared files under `_assets/`, named by
// their hash (site-assets.ts), so the stylesheet's relative `url()` finds them under any site's root.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Fontsource's latin range (the same `unicode-range` its own stylesheets declare). */
const LATIN = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';

function fontFile(path: string, base: string) {
  const body = readFileSync(path);
  return { name: `${base}-${createHash('sha256').update(body).digest('hex').slice(0, 12)}.woff2`, body, type: 'font/woff2' };
}

export const FONT_FILES = {
  text: fontFile(require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'), 'inter'),
  code: fontFile(require.resolve('@fontsource-variable/jetbrains-mono/files/jetbrains-mono-latin-wght-normal.woff2'), 'jetbrains-mono'),
} as const;

/** The family names the stylesheets use (theme: `--font`; code: `--font-code`). */
export const TEXT_FAMILY = 'Inter Variable';
export const CODE_FAMILY = 'JetBrains Mono Variable';

const face = (family: string, file: string) =>
  `@font-face{font-family:"${family}";font-style:normal;font-display:swap;font-weight:100 900;src:url(${file}) format("woff2-variations"),url(${file}) format("woff2");unicode-range:${LATIN}}`;

export const FONT_CSS = `${face(TEXT_FAMILY, FONT_FILES.text.name)}\n${face(CODE_FAMILY, FONT_FILES.code.name)}\n`;
