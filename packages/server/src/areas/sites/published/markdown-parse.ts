// A page's Markdown as an HTML tree: CommonMark with GitHub's extensions (tables, task lists,
// footnotes, strikethrough, autolinks), raw HTML, and GitBook's `$$` formulas, parsed by markdown-it.
// Without raw HTML the tree is built from its tokens, already safe (markdown-hast.ts); with raw HTML,
// markdown-it's HTML is read by parse5 (hast-util-raw), unsanitized, for the sanitizer. markdown-it
// parses a long page some fifteen times faster than remark's micromark did (docs/decisions.md,
// "Published page bodies parsed by markdown-it"), the first render of a page being mostly parsing.
//
// The tree keeps remark's shapes where the rest of the renderer (markdown-html.ts) and the sanitizer
// expect them: formulas as `code.math-inline` / `pre > code.math-display`, task lists as
// `ul.contains-task-list > li.task-list-item > input[type=checkbox][disabled]`, column alignment as
// `align` (markdown-it writes a style, which the sanitizer drops), footnote ids prefixed
// `user-content-` as remark-rehype does (the sanitizer prefixes them once more; the dresser takes one off).
import { randomBytes } from 'node:crypto';
import type { Root } from 'hast';
import { raw } from 'hast-util-raw';
import MarkdownIt, { type StateBlock, type StateCore, type StateInline } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { tokensToHast } from './markdown-hast.js';
// hast's `raw` node (HTML carried as text), declared by mdast-util-to-hast.
import type {} from 'mdast-util-to-hast';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `$$…$$` within a line: a formula (a single `$` is a price). */
function inlineMath(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x24 || state.src.charCodeAt(start + 1) !== 0x24) return false;
  const end = state.src.indexOf('$$', start + 2);
  if (end < 0 || end === start + 2) return false;
  if (!silent) state.push('math_inline', 'code', 0).content = state.src.slice(start + 2, end);
  state.pos = end + 2;
  return true;
}

/** A block between lines of `$$` (or `$$…$$` alone on one line). */
function blockMath(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const lineStart = state.bMarks[startLine]! + state.tShift[startLine]!;
  const lineEnd = state.eMarks[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const first = state.src.slice(lineStart, lineEnd).trim();
  if (!first.startsWith('$$')) return false;
  let content: string;
  let last = startLine;
  if (first.length > 4 && first.endsWith('$$')) {
    content = first.slice(2, -2);
  } else if (first === '$$') {
    const lines: string[] = [];
    let closed = false;
    for (last = startLine + 1; last < endLine; last++) {
      const text = state.src.slice(state.bMarks[last]! + state.tShift[last]!, state.eMarks[last]!);
      if (text.trim() === '$$') {
        closed = true;
        break;
      }
      lines.push(text);
    }
    if (!closed) return false;
    content = lines.join('\n');
  } else return false;
  if (silent) return true;
  const token = state.push('math_block', 'pre', 0);
  token.content = content;
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/** GitHub's task lists: `- [ ]` / `- [x]` items. */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const mark = /^\[([ xX])\][ \t]/.exec(inline.content);
    if (!mark) continue;
    const item = tokens[i - 2]!;
    item.attrJoin('class', 'task-list-item');
    for (let j = i - 3; j >= 0; j--) {
      const open = tokens[j]!;
      if ((open.type === 'bullet_list_open' || open.type === 'ordered_list_open') && open.level === item.level - 1) {
        if (!open.attrGet('class')) open.attrSet('class', 'contains-task-list');
        break;
      }
    }
    const checkbox = new state.Token('html_inline', '', 0);
    checkbox.content = `<input type="checkbox"${mark[1] === ' ' ? '' : ' checked'} disabled> `;
    // Known to the token tree (markdown-hast.ts), which builds it without reading the HTML.
    checkbox.meta = { taskChecked: mark[1] !== ' ' };
    const text = inline.children?.[0];
    if (text?.type === 'text') text.content = text.content.slice(mark[0].length);
    inline.children?.unshift(checkbox);
  }
}

/** Column alignment as `align` (remark's form, which the sanitizer allows) rather than a style. */
function tableAlignment(state: StateCore): void {
  for (const token of state.tokens) {
    const style = token.type === 'th_open' || token.type === 'td_open' ? token.attrGet('style') : null;
    if (!style) continue;
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    token.attrSet('align', String(style).replace('text-align:', ''));
  }
}

// The plugin's types are written for markdown-it 14's; the plugin works with 15.
const markdownIt = new MarkdownIt({ html: true, linkify: true }).use(footnote as unknown as (md: InstanceType<typeof MarkdownIt>) => void);
markdownIt.inline.ruler.after('escape', 'math_inline', inlineMath);
markdownIt.block.ruler.after('blockquote', 'math_block', blockMath, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
markdownIt.core.ruler.push('task_lists', taskLists);
markdownIt.core.ruler.push('table_alignment', tableAlignment);
markdownIt.renderer.rules.math_inline = (tokens, index) => `<code class="language-math math-inline">${escapeHtml(tokens[index]!.content)}</code>`;
markdownIt.renderer.rules.math_block = (tokens, index) => `<pre><code class="language-math math-display">${escapeHtml(tokens[index]!.content)}</code></pre>\n`;
// Footnotes named as remark-rehype names them (see the file's comment), escaped for the attributes and
// text they are written into (a label may hold `"`, `&` or `<`: `[^a"b]` was cut to `a`, and two such
// labels shared an id).
markdownIt.renderer.rules.footnote_anchor_name = (tokens, index) => {
  const { id, label } = tokens[index]!.meta as { id: number; label?: string };
  return escapeHtml(label ?? String(id + 1));
};
const footnoteRules = markdownIt.renderer.rules;
footnoteRules.footnote_ref = (tokens, index, options, env, self) => {
  const name = self.rules.footnote_anchor_name!(tokens, index, options, env, self);
  const meta = tokens[index]!.meta as { id: number; subId: number };
  const number = meta.id + 1;
  const refId = `user-content-fnref-${name}${meta.subId > 0 ? `-${meta.subId + 1}` : ''}`;
  return `<sup><a href="#user-content-fn-${name}" id="${refId}" data-footnote-ref aria-describedby="footnote-label">${number}</a></sup>`;
};
footnoteRules.footnote_block_open = () => '<section data-footnotes class="footnotes"><h2 class="sr-only" id="footnote-label">Footnotes</h2>\n<ol>\n';
footnoteRules.footnote_block_close = () => '</ol>\n</section>\n';
footnoteRules.footnote_open = (tokens, index, options, env, self) => `<li id="user-content-fn-${self.rules.footnote_anchor_name!(tokens, index, options, env, self)}">`;
footnoteRules.footnote_anchor = (tokens, index, options, env, self) => {
  const name = self.rules.footnote_anchor_name!(tokens, index, options, env, self);
  const subId = (tokens[index]!.meta as { subId: number }).subId;
  return ` <a href="#user-content-fnref-${name}${subId > 0 ? `-${subId + 1}` : ''}" data-footnote-backref aria-label="Back to reference ${name}">↩</a>`;
};

// A fence's text stands in the HTML as a marker (its number after a token drawn for each parse) and
// is put back by the renderer (markdown-html.ts): parse5 reads a long page's code character by
// character, and code is most of a reference page. The token is random: no text of a page names it.
type FenceEnv = { fenceMarker: string; fences: string[] };
const fence = markdownIt.renderer.rules.fence!;
markdownIt.renderer.rules.fence = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const text = token.content;
  const { fenceMarker, fences } = env as FenceEnv;
  token.content = `${fenceMarker}${fences.push(text) - 1}`;
  try {
    return fence(tokens, index, options, env, self);
  } finally {
    token.content = text;
  }
};

/**
 * A body parsed: its tree, in which each fenced block's `code` holds `${fenceMarker}${n}` for the text
 * `fences[n]`. `sanitized`: built from the tokens (markdown-hast.ts), safe and with heading ids; else
 * read from HTML by parse5, for the sanitizer and rehype-slug to pass over (markdown-html.ts).
 */
export type ParsedMarkdown = { tree: Root; sanitized: boolean; fenceMarker: string; fences: string[] };

/**
 * `markdown` as an HTML tree, its fences' texts aside (see `ParsedMarkdown`): built from markdown-it's
 * tokens unless it holds raw HTML (or `through: 'parse5'`, the reference the tests compare with), else
 * markdown-it's HTML read by parse5.
 */
export function parseMarkdown(markdown: string, { through }: { through?: 'parse5' } = {}): ParsedMarkdown {
  const env: FenceEnv = { fenceMarker: `fence${randomBytes(12).toString('hex')}n`, fences: [] };
  const tokens = markdownIt.parse(markdown, env);
  const built = through === 'parse5' ? undefined : tokensToHast(tokens, env, markdownIt.utils.unescapeAll);
  if (built) return { tree: { type: 'root', children: built }, sanitized: true, ...env };
  // What the token tree set aside before it gave up is set aside again by the fence rule.
  env.fences.length = 0;
  const html = markdownIt.renderer.render(tokens, markdownIt.options, env);
  return { tree: raw({ type: 'root', children: [{ type: 'raw', value: html }] }) as Root, sanitized: false, ...env };
}
