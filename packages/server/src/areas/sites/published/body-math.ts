// Math in a page body (`$$…$$`, GitBook's inline and block formulas), rendered on the server by KaTeX
// as MathML, which browsers draw themselves: no inline style (the pages' policy allows none, so
// KaTeX's HTML output could not be laid out), no stylesheet or font to fetch, nothing for a script to
// do. Runs in the parse pool with the rest of the body (markdown-html.ts); KaTeX escapes the text it
// emits, refuses `\href`-like commands unless trusted (never here) and bounds macro expansion.
// A formula KaTeX refuses is shown as its source, escaped: never an error page.
import katex from 'katex';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';

/** Macro expansions a formula may take (KaTeX's default is 1000; a page's formulas are small). */
const MAX_EXPAND = 500;
/** Formulas longer than this are shown as source: KaTeX's time grows with them. */
const MAX_FORMULA = 10_000;

/** `tex` as MathML (`display`: a block formula), or its source in a `code.math-error` when KaTeX refuses it. */
export function renderMath(tex: string, display: boolean): ElementContent {
  if (tex.length <= MAX_FORMULA) {
    try {
      const html = katex.renderToString(tex, { output: 'mathml', displayMode: display, throwOnError: true, trust: false, strict: 'ignore', maxExpand: MAX_EXPAND, maxSize: 20 });
      // Serialized by KaTeX (its text escaped): carried through as raw HTML after the sanitizer ran.
      const math = { type: 'raw', value: html } as unknown as ElementContent;
      return display ? h('div.math-block', [math]) : math;
    } catch {
      // Falls through to the source.
    }
  }
  const source = h('code.math-error', { title: 'This formula could not be rendered' }, display ? `$$\n${tex}\n$$` : `$$${tex}$$`);
  return display ? h('div.math-block', [source]) : source;
}
