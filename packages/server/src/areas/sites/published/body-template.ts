// A page body as the site keeps it (docs/decisions.md, "Published pages rendered once per document"):
// rendered once per document in the parse pool (markdown-html.ts `renderBodyTemplate`, the `site-body`
// task) into HTML with holes where what depends on the rest of the site goes — where a link or an image
// leads, a content reference's target and title — and kept in the `siteBodies` cache by the document's
// hash (documents are content-addressed and immutable). Each assembly of a page fills the holes from the
// page's link resolver (page-links.ts): a string join, linear in the body, on the main thread.
import type { AppContext } from '../../../context.js';
import { ParseLimitError } from '../../../parsing/parse-pool.js';
import type { OutlineEntry } from './markdown-html.js';

/** What goes where a hole is, decided at each assembly. */
export type Hole =
  /** The opening of a link (`attributes`: its others, serialized and sanitized): `<a href>` or, broken, a `<span>`. */
  | { kind: 'link'; href: string; attributes: string }
  /** The closing of the link hole `of`. */
  | { kind: 'end'; of: number }
  /** An image (`attributes` serialized, `alt` included); `inLink`: inside a link, so never a link itself. */
  | { kind: 'image'; src: string; alt: string; attributes: string; inLink: boolean }
  /** A content reference: a card to `href`, titled by its target page (else `text`, the block's own). */
  | { kind: 'ref'; href: string; text: string }
  /** A file block: a card to the file `href` names, titled by the file's name, with the block's `caption`. */
  | { kind: 'file'; href: string; caption: string };

/** Serialized HTML in `parts`, with `holes[slots[i]]` between `parts[i]` and `parts[i + 1]`. Plain data (it crosses threads). */
export type BodyTemplate = { parts: string[]; slots: number[]; holes: Hole[]; outline: OutlineEntry[] };

/** Where links and images of a body lead on the site. */
export type LinkResolver = {
  /** A link's site address (and the title of the page it leads to); `broken` for an internal target that does not resolve. */
  link(href: string): { href: string; external?: boolean; title?: string } | { broken: true };
  /** An image's site address (and its size when known); `external` for an address on another origin (not loaded: shown as a link). */
  image(src: string): { src: string; width?: number; height?: number } | { external: string } | { broken: true };
};

/** Renderings of a new kind are not mistaken for older ones kept in the cache: bump on any change to markdown-html.ts's output or the holes. */
export const BODY_RENDERER_VERSION = 4;
/** A body's rendering in the parse pool at most; past it the page shows that it cannot be shown. */
export const BODY_RENDER_DEADLINE_MS = 10_000;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const EXTERNAL = ' rel="noopener noreferrer"';

/** What a body too large or too deep for the renderer shows instead (kept like a rendering: it would fail again). */
function unrenderable(limit: ParseLimitError['limit']): BodyTemplate {
  const why = limit === 'time' ? 'takes too long to render' : limit === 'memory' ? 'is too large to render' : 'nests too deeply to render';
  return { parts: [`<p class="render-refused" role="note">This page ${why}. Its editors can split it into smaller pages.</p>`], slots: [], holes: [], outline: [] };
}

/**
 * The template of the body stored under `documentHash`: kept, or rendered in the parse pool now (one
 * render per document however many visitors ask at once). A body a limit stops is kept as a notice.
 */
export function bodyTemplate(app: Pick<AppContext, 'caches' | 'parsing'>, organizationId: string, documentHash: string, markdown: string): Promise<BodyTemplate> {
  const key = `${BODY_RENDERER_VERSION}:${organizationId}:${documentHash}`;
  return app.caches.siteBodies.load(key, async () => {
    try {
      return await app.parsing.run('site-body', { markdown }, { deadlineMs: BODY_RENDER_DEADLINE_MS });
    } catch (error) {
      if (error instanceof ParseLimitError) return unrenderable(error.limit);
      throw error;
    }
  });
}

/** The body's HTML with its holes filled from `links`. */
export function fillBody(template: BodyTemplate, links: LinkResolver): string {
  const out: string[] = [template.parts[0]!];
  const closers = new Map<number, string>();
  for (const [index, slot] of template.slots.entries()) {
    const hole = template.holes[slot]!;
    switch (hole.kind) {
      case 'link': {
        const resolved = links.link(hole.href);
        if ('broken' in resolved) {
          out.push('<span class="broken-link" title="This link leads to nothing published">');
          closers.set(slot, '</span>');
        } else {
          out.push(`<a href="${escapeAttribute(resolved.href)}"${hole.attributes}${resolved.external ? EXTERNAL : ''}>`);
          closers.set(slot, '</a>');
        }
        break;
      }
      case 'end':
        out.push(closers.get(hole.of) ?? '');
        break;
      case 'image':
        out.push(image(hole, links.image(hole.src)));
        break;
      case 'ref':
        out.push(contentRef(hole, links.link(hole.href)));
        break;
      case 'file':
        out.push(fileBlock(hole, links.link(hole.href)));
        break;
    }
    out.push(template.parts[index + 1]!);
  }
  return out.join('');
}

function image(hole: Extract<Hole, { kind: 'image' }>, resolved: ReturnType<LinkResolver['image']>): string {
  if ('src' in resolved) {
    // The file's own size: the page does not move as images arrive (unless the body gave one).
    const size = resolved.width && resolved.height && !/ (width|height)=/.test(hole.attributes) ? ` width="${resolved.width}" height="${resolved.height}"` : '';
    return `<img src="${escapeAttribute(resolved.src)}"${hole.attributes}${size} loading="lazy" decoding="async">`;
  }
  const label = escapeText(`Image: ${hole.alt || ('external' in resolved ? resolved.external : 'missing')}`);
  if ('external' in resolved) {
    // Inside a link (a badge): a link in a link is invalid HTML, so the label alone.
    if (hole.inLink) return `<span class="external-image">${label}</span>`;
    return `<a class="external-image" href="${escapeAttribute(resolved.external)}"${EXTERNAL}>${label}</a>`;
  }
  return `<span class="broken-link" title="This image is not published">${label}</span>`;
}

function contentRef(hole: Extract<Hole, { kind: 'ref' }>, resolved: ReturnType<LinkResolver['link']>): string {
  if ('broken' in resolved) return `<div class="content-ref content-ref-broken"><span class="broken-link" title="This link leads to nothing published">${escapeText(hole.text || hole.href)}</span></div>`;
  const title = resolved.title ?? (hole.text || resolved.href);
  const address = resolved.external ? `<span class="content-ref-address">${escapeText(resolved.href)}</span>` : '';
  return `<a class="content-ref" href="${escapeAttribute(resolved.href)}"${resolved.external ? EXTERNAL : ''}><span class="content-ref-title">${escapeText(title)}</span>${address}</a>`;
}

function fileBlock(hole: Extract<Hole, { kind: 'file' }>, resolved: ReturnType<LinkResolver['link']>): string {
  const fallback = hole.href.split(/[/?#]/).filter(Boolean).at(-1) ?? hole.href;
  if ('broken' in resolved) return `<div class="file-block"><span class="broken-link" title="This file is not published">${escapeText(hole.caption || fallback)}</span></div>`;
  const name = resolved.title ?? fallback;
  const extension = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase() ?? 'FILE';
  const caption = hole.caption && hole.caption !== name ? `<span class="file-caption">${escapeText(hole.caption)}</span>` : '';
  return `<a class="file-block" href="${escapeAttribute(resolved.href)}"${resolved.external ? EXTERNAL : ''} download><span class="file-mark" aria-hidden="true">${escapeText(extension)}</span><span class="file-text"><span class="file-name">${escapeText(name)}</span>${caption}</span></a>`;
}
