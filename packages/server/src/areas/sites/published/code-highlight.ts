// Code blocks of a page body highlighted by highlight.js (through lowlight: classes, no inline styles),
// the same output rehype-highlight gave (docs/decisions.md, "First render of a long page"), but
// highlighted by the renderer (markdown-html.ts) while it dresses the tree rather than by a pass of its
// own, and each block's HTML kept in a bounded LRU by (language, text): a page edited keeps most of
// its code blocks, and many pages of a site share the same install or import lines. highlight.js is
// most of a long page's first render (a few milliseconds per block of a dozen lines).
//
// One highlighter per parse-pool worker, made by the `site-body` task's loader (parsing/tasks.ts): the
// kept HTML is plain strings, a function of the language and the text alone.
import type { ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { common, createLowlight } from 'lowlight';
import { LRUCache } from 'lru-cache';

/** Languages never highlighted (their blocks stay text): formulas are drawn by the renderer (body-math.ts). */
const PLAIN = new Set(['math']);

/** The language a `code` element's classes name (`language-x`), or undefined (none, or one shown as plain text). */
export function highlightedLanguage(className: unknown): string | undefined {
  if (!Array.isArray(className)) return undefined;
  const named = className.find((value): value is string => typeof value === 'string' && value.startsWith('language-'));
  const language = named?.slice('language-'.length);
  return language && !PLAIN.has(language) ? language : undefined;
}

/** What a worker's highlighter keeps (UTF-16 units, ~2 bytes each: ~8 MB), some 2,000 blocks of a dozen highlighted lines. */
export const HIGHLIGHT_KEPT_CHARS = 4 * 1024 * 1024;

export class CodeHighlighter {
  private readonly lowlight = createLowlight(common);
  /** Highlighted HTML by language and text (NUL between them: neither a language name nor a page's text holds one). */
  private readonly kept: LRUCache<string, string> | undefined;

  /** `maxChars`: what the kept HTML may hold (its keys counted), 0 to keep nothing. */
  constructor(maxChars: number) {
    this.kept = maxChars > 0 ? new LRUCache({ maxSize: maxChars, sizeCalculation: (html, key) => html.length + key.length + 64 }) : undefined;
  }

  /** `text` highlighted as `language`, as nodes; undefined when highlight.js does not know the language. */
  tree(language: string, text: string): ElementContent[] | undefined {
    if (!this.lowlight.registered(language)) return undefined;
    return this.lowlight.highlight(language, text).children as ElementContent[];
  }

  /** `text` highlighted as `language`, as HTML; undefined when highlight.js does not know the language. */
  html(language: string, text: string): string | undefined {
    const key = `${language}\u0000${text}`;
    const kept = this.kept?.get(key);
    if (kept !== undefined) return kept;
    const nodes = this.tree(language, text);
    if (!nodes) return undefined;
    const html = toHtml({ type: 'root', children: nodes });
    this.kept?.set(key, html);
    return html;
  }
}
