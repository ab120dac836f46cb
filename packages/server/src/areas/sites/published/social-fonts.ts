// The faces and emoji a social image is drawn with (social-image.ts), chosen for its text. Inter draws
// Latin, Greek, Cyrillic and Vietnamese; Noto Sans draws Arabic, Hebrew, Thai, Devanagari, Korean,
// Japanese and Chinese (simplified and traditional); Twemoji's SVGs draw emoji. All come from npm
// packages (@fontsource/*, @discordapp/twemoji): nothing is fetched when an image is rendered.
//
// Each @fontsource package is cut into unicode-range subsets (its `unicode.json`, one `.woff` file per
// subset and weight; a CJK face has ~100 of ~40 KB each, 5 MB in all per weight): only the subsets
// holding the text's characters are read, in the weights the text is drawn in, and kept by the worker
// (a `SocialFonts`, made by the parse pool's `social-image` task: packages/server/src/parsing/tasks.ts)
// in an LRU bounded in bytes. A family's ranges are read the first time a character is not in the
// families before it, so a Latin title reads Inter's only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';

export type Weight = 400 | 700;
/** A face as satori takes it: one subset file of one weight, named after the file so every subset is its own fallback. */
export type Face = { name: string; data: Buffer; weight: Weight; style: 'normal' };

/** Bytes of font files a worker keeps between renders (a CJK title needs a few hundred KB to a few MB). */
export const SOCIAL_KEPT_FONT_BYTES = 8 * 1024 * 1024;
/** Subset files one text may bring in, per weight: past this its rarest characters are left out (see `facesFor`). */
export const MAX_SUBSETS = 24;

const require = createRequire(import.meta.url);

/**
 * A family: its files' prefix, its package's folder (found through its `unicode.json`, named in full so
 * the dependency is seen), and `boldFile`, the weight whose files draw bold text when the 700 files
 * cannot (satori emboldens a lighter face).
 */
type Family = { prefix: string; folder: string; boldFile?: 400 };
const family = (prefix: string, unicodeJson: string, boldFile?: 400): Family => ({ prefix, folder: dirname(unicodeJson), ...(boldFile ? { boldFile } : {}) });
const INTER = family('inter', require.resolve('@fontsource/inter/unicode.json'));
// Noto Sans Arabic's 600 and 700 files (@fontsource/noto-sans-arabic 5.3.0) lose the dots of ة and ي
// under satori 0.63.2 (seen in renders); the 400 file draws them, emboldened by satori.
const ARABIC = family('noto-sans-arabic', require.resolve('@fontsource/noto-sans-arabic/unicode.json'), 400);
const HEBREW = family('noto-sans-hebrew', require.resolve('@fontsource/noto-sans-hebrew/unicode.json'));
const THAI = family('noto-sans-thai', require.resolve('@fontsource/noto-sans-thai/unicode.json'));
const DEVANAGARI = family('noto-sans-devanagari', require.resolve('@fontsource/noto-sans-devanagari/unicode.json'));
const KOREAN = family('noto-sans-kr', require.resolve('@fontsource/noto-sans-kr/unicode.json'));
const JAPANESE = family('noto-sans-jp', require.resolve('@fontsource/noto-sans-jp/unicode.json'));
const SIMPLIFIED = family('noto-sans-sc', require.resolve('@fontsource/noto-sans-sc/unicode.json'));
const TRADITIONAL = family('noto-sans-tc', require.resolve('@fontsource/noto-sans-tc/unicode.json'));

/**
 * The families in the order a character is looked for, by the site's language: a Han character has
 * different shapes in Japanese, Chinese and Korean text, so the site's own language's face comes first.
 */
function familiesFor(locale: string): Family[] {
  const [language, region] = locale.toLowerCase().split(/[-_]/);
  const cjk =
    language === 'ja'
      ? [JAPANESE, SIMPLIFIED, TRADITIONAL, KOREAN]
      : language === 'ko'
        ? [KOREAN, JAPANESE, TRADITIONAL, SIMPLIFIED]
        : language === 'zh' && (region === 'tw' || region === 'hk' || region === 'mo' || region === 'hant')
          ? [TRADITIONAL, SIMPLIFIED, JAPANESE, KOREAN]
          : [SIMPLIFIED, TRADITIONAL, JAPANESE, KOREAN];
  return [INTER, ARABIC, HEBREW, THAI, DEVANAGARI, ...cjk];
}

/**
 * A family's subsets as code point ranges sorted by start, with the furthest end reached so far (ranges
 * nest: Inter's Vietnamese ones lie inside Latin-ext), read from its `unicode.json`.
 */
type Ranges = { starts: Uint32Array; ends: Uint32Array; reach: Uint32Array; subsets: string[] };

function readRanges(family: Family): Ranges {
  const table = JSON.parse(readFileSync(join(family.folder, 'unicode.json'), 'utf8')) as Record<string, string>;
  const rows: Array<[number, number, string]> = [];
  for (const [key, list] of Object.entries(table)) {
    // "[12]" names the file `…-12-400-normal.woff`; "latin-ext" names `…-latin-ext-400-normal.woff`.
    const subset = key.replace(/^\[(\d+)\]$/, '$1');
    for (const range of list.split(',')) {
      const [start = '', end = start] = range.trim().replace(/^U\+/i, '').split('-');
      rows.push([parseInt(start, 16), parseInt(end, 16), subset]);
    }
  }
  rows.sort((a, b) => a[0] - b[0]);
  const ends = Uint32Array.from(rows, (row) => row[1]);
  const reach = new Uint32Array(ends.length);
  ends.forEach((end, index) => (reach[index] = Math.max(end, index > 0 ? reach[index - 1]! : 0)));
  return { starts: Uint32Array.from(rows, (row) => row[0]), ends, reach, subsets: rows.map((row) => row[2]) };
}

/** The subset holding `codePoint`, if any. */
function subsetIn({ starts, ends, reach, subsets }: Ranges, codePoint: number): string | undefined {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! <= codePoint) low = middle + 1;
    else high = middle;
  }
  // The ranges starting at or before the code point, back to where none reaches it any more.
  for (let index = low - 1; index >= 0 && reach[index]! >= codePoint; index--) if (ends[index]! >= codePoint) return subsets[index];
  return undefined;
}

/** The file of a subset drawn in `weight`. */
const fileName = (family: Family, subset: string, weight: Weight) => `${family.prefix}-${subset}-${weight === 700 ? (family.boldFile ?? 700) : weight}-normal.woff`;

/** Characters that need no face of their own: spaces, joiners, variation selectors and combining marks ride on their neighbours. */
const WITHOUT_FACE = /[\s\p{Cf}\p{Mn}\p{Me}\ufe0e\ufe0f]/u;
export const needsFace = (character: string) => !WITHOUT_FACE.test(character);

export type FaceChoice = {
  /** The faces to give satori, in the order it should look in: Inter's Latin first (the layout's family). */
  faces: Face[];
  /** Whether a character can be drawn (a face has it): the others are left out of the text. */
  drawable: (codePoint: number) => boolean;
};

/**
 * Every font file the image may read, by package: the release ships only these of the packages' `files/`
 * (tools/release.ts; the other weights and the `.woff2` copies are ~250 MB).
 */
export function readableFontFiles(): Array<{ packageName: string; files: string[] }> {
  return [INTER, ARABIC, HEBREW, THAI, DEVANAGARI, KOREAN, JAPANESE, SIMPLIFIED, TRADITIONAL].map((entry) => ({
    packageName: `@fontsource/${entry.prefix}`,
    files: [...new Set(readRanges(entry).subsets.flatMap((subset) => [fileName(entry, subset, 400), fileName(entry, subset, 700)]))],
  }));
}

const TWEMOJI = dirname(require.resolve('@discordapp/twemoji/dist/svg/1f600.svg'));
/** Code point names of a text, as Twemoji names its files. */
const codePoints = (text: string) => [...text].map((character) => character.codePointAt(0)!.toString(16)).join('-');

/** What a worker keeps to draw social images: the families' ranges, font files (an LRU in bytes) and emoji pictures. */
export class SocialFonts {
  private readonly ranges = new Map<Family, Ranges>();
  private readonly files: LRUCache<string, Buffer>;
  private readonly emoji = new LRUCache<string, string | false>({ max: 2048 });

  /** `maxFontBytes`: the font files kept between renders. */
  constructor(maxFontBytes: number) {
    this.files = new LRUCache({ maxSize: maxFontBytes, sizeCalculation: (data) => data.length });
  }

  /**
   * The faces that draw `texts` (each with the weight it is drawn in), for a site in `locale`. Each
   * character goes to the first family that has it; subsets are counted per weight, and a text needing
   * more than MAX_SUBSETS files (a title of rare characters spread over every subset) keeps those its
   * earliest characters need.
   */
  facesFor(texts: Array<{ text: string; weight: Weight }>, locale: string): FaceChoice {
    const families = familiesFor(locale);
    const chosen = new Map<string, { family: Family; subset: string; weight: Weight }>();
    const drawn = new Set<number>();
    const left = new Set<number>();
    const counts = new Map<Weight, number>();
    // Inter's Latin subset always: the layout's family, and satori's default face.
    for (const weight of [400, 700] as const) chosen.set(`inter|latin|${weight}`, { family: INTER, subset: 'latin', weight });
    for (const { text, weight } of texts) {
      for (const character of text) {
        const codePoint = character.codePointAt(0)!;
        if (!needsFace(character) || left.has(codePoint)) continue;
        let found: { family: Family; subset: string } | undefined;
        for (const candidate of families) {
          const subset = subsetIn(this.rangesOf(candidate), codePoint);
          if (subset !== undefined) {
            found = { family: candidate, subset };
            break;
          }
        }
        if (!found) {
          left.add(codePoint);
          continue;
        }
        const key = `${found.family.prefix}|${found.subset}|${weight}`;
        if (!chosen.has(key)) {
          const count = counts.get(weight) ?? 0;
          if (count >= MAX_SUBSETS) {
            left.add(codePoint);
            continue;
          }
          counts.set(weight, count + 1);
          chosen.set(key, { ...found, weight });
        }
        drawn.add(codePoint);
      }
    }
    const order = new Map(families.map((entry, index) => [entry, index]));
    const faces = [...chosen.values()].sort((a, b) => order.get(a.family)! - order.get(b.family)!).map(({ family, subset, weight }) => this.readFace(family, subset, weight));
    return { faces, drawable: (codePoint) => drawn.has(codePoint) };
  }

  /**
   * Twemoji's SVG of an emoji grapheme as a data address, or undefined when Twemoji has no picture for
   * it. Twemoji names its files by code points, leaving out U+FE0F outside ZWJ sequences.
   */
  emojiImage(grapheme: string): string | undefined {
    let found = this.emoji.get(grapheme);
    if (found === undefined) {
      const bare = codePoints(grapheme.replaceAll('\ufe0f', ''));
      found = false;
      for (const name of grapheme.includes('\u200d') ? [codePoints(grapheme), bare] : [bare]) {
        try {
          found = `data:image/svg+xml;base64,${readFileSync(join(TWEMOJI, `${name}.svg`)).toString('base64')}`;
          break;
        } catch {
          // Not this name: the next, or no picture.
        }
      }
      this.emoji.set(grapheme, found);
    }
    return found || undefined;
  }

  private rangesOf(family: Family): Ranges {
    let ranges = this.ranges.get(family);
    if (!ranges) {
      ranges = readRanges(family);
      this.ranges.set(family, ranges);
    }
    return ranges;
  }

  private readFace(family: Family, subset: string, weight: Weight): Face {
    const name = fileName(family, subset, weight);
    let data = this.files.get(name);
    if (!data) {
      data = readFileSync(join(family.folder, 'files', name));
      this.files.set(name, data);
    }
    return { name: `${family.prefix}-${subset}`, data, weight, style: 'normal' };
  }
}
