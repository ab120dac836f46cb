// Code blocks of a page body highlighted by highlight.js (classes, no inline styles), the same output
// rehype-highlight gave (docs/decisions.md, "First render of a long page"), but highlighted by the
// renderer (markdown-html.ts) while it dresses the tree rather than by a pass of its own, written as
// HTML by highlight.js itself (no tree of spans built and serialized again), and each block's HTML
// kept in a bounded LRU by (language, text): a page edited keeps most of its code blocks, and many pages
// of a site share the same install or import lines. highlight.js is most of a long page's first render.
// A block whose lines are numbered needs its spans as nodes (to cut them at line ends): lowlight's.
//
// One highlighter per parse-pool worker, made by the `site-body` task's loader (parsing/tasks.ts): the
// kept HTML is plain strings, a function of the language and the text alone.
import type { ElementContent } from 'hast';
import hljs from 'highlight.js/lib/core';
import { common, createLowlight } from 'lowlight';
import { LRUCache } from 'lru-cache';

/** Languages never highlighted (their blocks stay text): formulas are drawn by the renderer (body-math.ts). */
const PLAIN = new Set(['math']);

/**
 * highlight.js's HTML written as hast-util-to-html writes lowlight's nodes, so a block reads the same
 * whichever way it was highlighted: text escaped as `&#x26;` and `&#x3C;` only, a sub-language's span
 * classed by its name alone (highlight.js's own classes all carry the `hljs-` prefix).
 */
const AS_HAST: Record<string, string> = { '&amp;': '&#x26;', '&lt;': '&#x3C;', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '<span class="language-': '<span class="' };
const HLJS_ESCAPES = /&amp;|&lt;|&gt;|&quot;|&#x27;|<span class="language-/g;

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
  private readonly hljs = hljs.newInstance();
  /** Highlighted HTML by language and text (NUL between them: neither a language name nor a page's text holds one). */
  private readonly kept: LRUCache<string, string> | undefined;

  /** `maxChars`: what the kept HTML may hold (its keys counted), 0 to keep nothing. */
  constructor(maxChars: number) {
    for (const [name, grammar] of Object.entries(common)) this.hljs.registerLanguage(name, grammar);
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
    if (!this.hljs.getLanguage(language)) return undefined;
    // Illegal sequences are highlighted as text rather than refused (as lowlight asks).
    const html = this.hljs.highlight(text, { language, ignoreIllegals: true }).value.replace(HLJS_ESCAPES, (escape) => AS_HAST[escape]!);
    this.kept?.set(key, html);
    return html;
  }
}
