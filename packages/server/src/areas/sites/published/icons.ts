// The few icons of a published site's chrome, from lucide-static (ISC), read once when the server
// starts: inline SVG in the pages (no request, and the pages' policy forbids no inline SVG), and the
// same drawings as `data:` URLs for the stylesheet (the hints' marks are CSS masks, so the page body's
// renderer needs no icon of its own). Only the files named here are read: nothing else of the package
// reaches a page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Element } from 'hast';
import { h } from 'hastscript';

const require = createRequire(import.meta.url);

// Literal addresses, so that the dependency is seen where it is used.
const FILES = {
  info: require.resolve('lucide-static/icons/info.svg'),
  warning: require.resolve('lucide-static/icons/triangle-alert.svg'),
  danger: require.resolve('lucide-static/icons/octagon-alert.svg'),
  success: require.resolve('lucide-static/icons/circle-check.svg'),
  chevron: require.resolve('lucide-static/icons/chevron-right.svg'),
  search: require.resolve('lucide-static/icons/search.svg'),
  sun: require.resolve('lucide-static/icons/sun.svg'),
  auto: require.resolve('lucide-static/icons/sun-moon.svg'),
  moon: require.resolve('lucide-static/icons/moon.svg'),
  external: require.resolve('lucide-static/icons/external-link.svg'),
  menu: require.resolve('lucide-static/icons/menu.svg'),
  close: require.resolve('lucide-static/icons/x.svg'),
};

export type IconName = keyof typeof FILES;

type Shape = { tag: string; attributes: Record<string, string> };

/** The shapes of an icon file: its elements inside <svg>, with their attributes (lucide's files are flat). */
function shapesOf(svg: string): Shape[] {
  const inner = svg.slice(svg.indexOf('>', svg.indexOf('<svg')) + 1, svg.lastIndexOf('</svg>'));
  return [...inner.matchAll(/<([a-z]+)((?:\s+[a-z-]+="[^"]*")*)\s*\/>/g)].map(([, tag, attributes]) => ({
    tag: tag!,
    attributes: Object.fromEntries([...attributes!.matchAll(/([a-z-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!])),
  }));
}

const SHAPES: Record<IconName, Shape[]> = Object.fromEntries(
  Object.entries(FILES).map(([name, file]) => {
    const shapes = shapesOf(readFileSync(file, 'utf8'));
    if (shapes.length === 0) throw new Error(`${file} has no shapes`);
    return [name, shapes];
  }),
) as Record<IconName, Shape[]>;

const SVG_ATTRIBUTES = { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' };

/** The icon as an element of the page: decorative (the control carrying it has the accessible name). */
export function icon(name: IconName, className = 'icon'): Element {
  return h('svg', { ...SVG_ATTRIBUTES, className: [className], width: 20, height: 20, ariaHidden: 'true', focusable: 'false' }, SHAPES[name].map((shape) => h(shape.tag, shape.attributes)));
}

/**
 * Every lucide drawing by name, for the icons authors give sections and groups (`SiteIconName`): read
 * once at start (about 0.8 MB of JSON), so a name costs a lookup; a name lucide lacks draws nothing.
 */
const NAMED: Readonly<Record<string, ReadonlyArray<[string, Record<string, string>]>>> = JSON.parse(readFileSync(require.resolve('lucide-static/icon-nodes.json'), 'utf8'));

/** A section's or group's icon by its name, when lucide has it. */
export function namedIcon(name: string | null | undefined): Element[] {
  const shapes = name && Object.hasOwn(NAMED, name) ? NAMED[name]! : undefined;
  if (!shapes) return [];
  return [h('svg', { ...SVG_ATTRIBUTES, className: ['icon', 'section-icon'], width: 18, height: 18, ariaHidden: 'true', focusable: 'false' }, shapes.map(([tag, attributes]) => h(tag, attributes)))];
}

/** The icon as a `data:` URL for the stylesheet (a mask: its colour comes from the element's background). */
export function iconUrl(name: IconName): string {
  const shapes = SHAPES[name].map((shape) => `<${shape.tag} ${Object.entries(shape.attributes).map(([key, value]) => `${key}='${value}'`).join(' ')}/>`).join('');
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2.2' stroke-linecap='round' stroke-linejoin='round'>${shapes}</svg>`;
  return `url("data:image/svg+xml,${svg.replace(/[<>#%"]/g, (c) => encodeURIComponent(c))}")`;
}
