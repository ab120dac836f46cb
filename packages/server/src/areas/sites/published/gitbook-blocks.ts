// The GitBook blocks imported content carries (`{% hint %}`, `{% tabs %}`/`{% tab %}`, `{% code %}`,
// `{% embed %}`, `{% content-ref %}`, `{% stepper %}`/`{% step %}`, `{% file %}`) turned into HTML wrappers around their Markdown before it is
// parsed: each tag becomes a `<div data-gb="…">` (or its `</div>`) on lines of its own, between blank
// lines, so CommonMark reads the wrapper as an HTML block and the content between as Markdown. The
// wrappers then pass the sanitizer like any raw HTML (their attributes are listed there) and are
// dressed by the renderer (markdown-html.ts). Fenced code is left untouched: a tag shown inside a code
// sample stays text. Unknown tags are dropped, their content kept.

/** The blocks that wrap content, with the attributes each keeps. */
const CONTAINERS: Record<string, readonly string[]> = {
  hint: ['style'],
  tabs: [],
  tab: ['title'],
  code: ['title', 'lineNumbers', 'overflow'],
  'content-ref': ['url'],
  embed: ['url'],
  stepper: [],
  step: [],
  file: ['src'],
};
/** `{% embed url="…" %}` may stand alone (no `{% endembed %}`): it is closed at once. */
const SELF_CLOSING = new Set(['embed']);

const TAG = /\{%-?\s*(end)?([a-z][a-z-]*)((?:\s+[a-zA-Z]+\s*=\s*"[^"]*")*)\s*-?%\}/g;
const ATTRIBUTE = /([a-zA-Z]+)\s*=\s*"([^"]*)"/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The HTML a tag stands for ('' for an unknown one). */
function replacement(closing: boolean, name: string, rawAttributes: string, state: { openEmbeds: number }): string {
  const kept = CONTAINERS[name];
  if (!kept) return '';
  if (closing) {
    if (name === 'embed') {
      if (state.openEmbeds === 0) return '';
      state.openEmbeds--;
    }
    return '\n\n</div>\n\n';
  }
  const attributes = [...rawAttributes.matchAll(ATTRIBUTE)]
    .filter(([, key]) => kept.includes(key!))
    .map(([, key, value]) => ` data-${key!.toLowerCase()}="${escapeAttribute(value!)}"`)
    .join('');
  return `\n\n<div data-gb="${name}"${attributes}>\n\n`;
}

/** The Markdown with GitBook's block tags replaced by HTML wrappers (see the file's comment). */
export function expandGitbookBlocks(markdown: string): string {
  if (!markdown.includes('{%')) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  const state = { openEmbeds: 0 };
  // An embed without `{% endembed %}` is closed where the next tag or the end comes; the common case is
  // the tag alone on its line, which closes it right away unless an `endembed` follows somewhere.
  const hasEndEmbed = markdown.includes('endembed');
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      out.push(line);
      continue;
    }
    if (marker && !line.includes('{%')) {
      fence = marker;
      out.push(line);
      continue;
    }
    const replaced = line.replace(TAG, (_match, end: string | undefined, name: string, attributes: string) => {
      const html = replacement(Boolean(end), name, attributes, state);
      if (!end && SELF_CLOSING.has(name) && html) {
        if (hasEndEmbed) {
          state.openEmbeds++;
          return html;
        }
        return `${html}</div>\n\n`;
      }
      return html;
    });
    out.push(replaced);
  }
  for (; state.openEmbeds > 0; state.openEmbeds--) out.push('\n\n</div>\n');
  return out.join('\n');
}
