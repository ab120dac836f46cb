// A page as an agent reads and writes it: GitHub-flavoured Markdown, `# title`, the description as a
// quote, then the body with GitBook's block tags (`{% hint %}`, `{% tabs %}`, `{% code %}`,
// `{% content-ref %}`, `{% embed %}`, as stored bodies and imports carry them) turned into their
// closest Markdown. The conversion works both ways so that a page read, edited and written back changes
// nothing the agent did not edit (docs/decisions.md, "Agent Markdown"):
//
//   stored (GitBook)                         agent form
//   {% hint style="info" %} … {% endhint %}  > [!NOTE] / > … (GFM alert: info NOTE, success TIP,
//                                            warning WARNING, danger CAUTION)
//   {% tabs %} {% tab title="A" %} …         <!-- tabs --> / #### A / … / <!-- /tabs -->
//   {% code title="a.js" %} ```js … ```      ```js title="a.js" … ```
//   {% content-ref url="x.md" %} … {% endcontent-ref %}   <!-- content-ref url="x.md" --> … <!-- /content-ref -->
//   {% embed url="…" %}                      <!-- embed url="…" -->
//   <details><summary>…</summary> … </details> unchanged (GitBook stores expandables as HTML already)
//
// Both directions are line scans (linear in the body, no Markdown parser), so the write direction can
// run on untrusted input before the content gate (content/markdown-check.ts) parses it off the event
// loop. Fenced code is left alone in both directions: a tag shown in a code sample stays text.

import { rewriteDestinations } from '../content/markdown-links.js';

const TAG_LINE = /^\s*\{%-?\s*(end)?([a-z][a-z-]*)((?:\s+[a-zA-Z]+\s*=\s*"[^"]*")*)\s*-?%\}\s*$/;
const TAG_ANYWHERE = /\{%-?\s*(?:end)?[a-z][a-z-]*(?:\s+[a-zA-Z]+\s*=\s*"[^"]*")*\s*-?%\}/g;
const ATTRIBUTE = /([a-zA-Z]+)\s*=\s*"([^"]*)"/g;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const COMMENT_TAG = /^<!-- (\/)?(content-ref|embed|tabs)((?:\s+[a-zA-Z]+="[^"]*")*) -->$/;
const ALERT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$/;
const TAB_HEADING = /^#### (.+?)\s*$/;

const HINT_ALERT: Record<string, string> = { info: 'NOTE', success: 'TIP', warning: 'WARNING', danger: 'CAUTION' };
const ALERT_HINT: Record<string, string> = { NOTE: 'info', TIP: 'success', IMPORTANT: 'info', WARNING: 'warning', CAUTION: 'danger' };
/** Blocks written as HTML comments in the agent form: they have no Markdown of their own. */
const COMMENT_BLOCKS = new Set(['content-ref', 'embed']);
/**
 * Tags and fence info strings are short; longer lines are never read as either, which keeps the
 * patterns' backtracking on adversarial lines (runs of spaces, thousands of attributes) bounded.
 */
const MAX_TAG_LINE = 4_096;
/** Hints nest at most this deep in the agent form; deeper alerts stay quotes on writes (the content gate refuses such bodies anyway). */
const MAX_HINT_NESTING = 16;

export type AgentPage = { title: string; description?: string | null; markdown: string };
/** Rewrites an address a page links to (a link, an image, a content reference) for the reader; undefined keeps it. */
export type LinkRewriter = (href: string) => string | undefined;

type Fence = { marker: string };

function attributesOf(raw: string): [string, string][] {
  return [...raw.matchAll(ATTRIBUTE)].map(([, key, value]) => [key!, value!]);
}
const writeAttributes = (attributes: [string, string][]) => attributes.map(([key, value]) => ` ${key}="${value.replace(/"/g, "'")}"`).join('');

function closesFence(line: string, fence: Fence): boolean {
  const match = FENCE.exec(line);
  return Boolean(match && match[2]![0] === fence.marker[0] && match[2]!.length >= fence.marker.length && match[3]!.trim() === '');
}

/** Stored lines with several tags on one line split so that each tag stands alone (outside code). */
function tagsOnTheirOwnLines(markdown: string): string[] {
  const out: string[] = [];
  let fence: Fence | null = null;
  for (const line of markdown.split('\n')) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      out.push(line);
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening && !line.includes('{%')) {
      fence = { marker: opening[2]! };
      out.push(line);
      continue;
    }
    if (!line.includes('{%') || line.length > MAX_TAG_LINE || TAG_LINE.test(line)) {
      out.push(line);
      continue;
    }
    let last = 0;
    for (const match of line.matchAll(TAG_ANYWHERE)) {
      const before = line.slice(last, match.index);
      if (before.trim()) out.push(before.trimEnd());
      out.push(match[0]);
      last = match.index + match[0].length;
    }
    const rest = line.slice(last);
    if (rest.trim()) out.push(rest.trim());
  }
  return out;
}

/** A stored body (GitBook tags) in the agent form. */
export function bodyToAgentMarkdown(markdown: string): string {
  const out: string[] = [];
  // The quote prefixes of the hints open around the current line.
  const quotes: string[] = [];
  let fence: (Fence & { quoteDepth: number }) | null = null;
  let pendingCodeAttributes: [string, string][] | null = null;
  // After a hint closes, the next non-blank line needs a blank line before it (or it would continue the quote).
  let needsBlank = false;
  let hintJustOpened = false;
  // Hints opened beyond MAX_HINT_NESTING (dropped), whose ends are dropped with them.
  let openedBeyond = 0;
  const emit = (line: string) => {
    hintJustOpened = false;
    const prefix = quotes.join('');
    if (needsBlank && line.trim() !== '') out.push(prefix.trimEnd());
    needsBlank = false;
    out.push(line === '' ? prefix.trimEnd() : prefix + line);
  };
  for (const line of tagsOnTheirOwnLines(markdown)) {
    // A fence left open in a hint ends with it, as a fence in a quote ends with the quote.
    if (fence && fence.quoteDepth > 0 && fence.quoteDepth === quotes.length && /^\s*\{%-?\s*endhint\s*-?%\}\s*$/.test(line)) fence = null;
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      emit(line);
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      fence = { marker: opening[2]!, quoteDepth: quotes.length };
      if (pendingCodeAttributes) {
        const info = opening[3]!.trim();
        emit(`${opening[1]}${opening[2]}${info}${writeAttributes(pendingCodeAttributes)}`);
        pendingCodeAttributes = null;
      } else emit(line);
      continue;
    }
    const tag = line.length <= MAX_TAG_LINE ? TAG_LINE.exec(line) : null;
    if (!tag) {
      // A hint's content starts right under its alert line.
      if (line.trim() === '' && hintJustOpened) continue;
      emit(line);
      continue;
    }
    const [, end, name, rawAttributes] = tag;
    const attributes = attributesOf(rawAttributes ?? '');
    switch (name) {
      case 'hint':
        if (end) {
          if (quotes.length === 0 || openedBeyond > 0) {
            if (openedBeyond > 0) openedBeyond--;
            break;
          }
          while (out.length > 0 && out.at(-1) === quotes.join('').trimEnd()) out.pop();
          quotes.pop();
          needsBlank = true;
        } else if (quotes.length < MAX_HINT_NESTING) {
          // Deeper hints are dropped as unknown tags are (their content kept): each level quotes every line again.
          const style = attributes.find(([key]) => key === 'style')?.[1] ?? 'info';
          emit(`> [!${HINT_ALERT[style] ?? 'NOTE'}]`);
          quotes.push('> ');
          hintJustOpened = true;
        } else openedBeyond++;
        break;
      case 'tabs':
        emit(end ? '<!-- /tabs -->' : '<!-- tabs -->');
        break;
      case 'tab':
        if (!end) emit(`#### ${attributes.find(([key]) => key === 'title')?.[1] ?? 'Tab'}`);
        break;
      case 'code':
        pendingCodeAttributes = end ? null : attributes;
        break;
      default:
        if (COMMENT_BLOCKS.has(name!)) emit(end ? `<!-- /${name} -->` : `<!-- ${name}${writeAttributes(attributes)} -->`);
      // Unknown tags are dropped, their content kept, as the published pages do (gitbook-blocks.ts).
    }
  }
  // Hints left open at the end close there, without their trailing blank quote lines.
  while (out.length > 0 && /^[>\s]*$/.test(out.at(-1)!)) out.pop();
  return trimBlankLines(out).join('\n');
}

/** The agent form of a body back in the stored form (the inverse of bodyToAgentMarkdown on what it makes). */
export function bodyFromAgentMarkdown(markdown: string): string {
  return trimBlankLines(fromAgentLines(markdown.split('\n'), 0)).join('\n') + (markdown.endsWith('\n') ? '\n' : '');
}

function fromAgentLines(lines: string[], nesting: number): string[] {
  const out: string[] = [];
  let fence: (Fence & { code: boolean }) | null = null;
  // Open tab regions: whether a tab has been opened in each.
  const tabs: boolean[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (fence) {
      out.push(line);
      if (closesFence(line, fence)) {
        if (fence.code) out.push('{% endcode %}');
        fence = null;
      }
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      const info = opening[3]!;
      const attributes = info.length <= MAX_TAG_LINE ? attributesOf(info) : [];
      if (attributes.length > 0) {
        const language = info.replace(ATTRIBUTE, '').trim();
        out.push(`{% code${writeAttributes(attributes)} %}`, `${opening[1]}${opening[2]}${language}`);
        fence = { marker: opening[2]!, code: true };
      } else {
        out.push(line);
        fence = { marker: opening[2]!, code: false };
      }
      continue;
    }
    const alert = line.startsWith('> ') && nesting < MAX_HINT_NESTING ? ALERT.exec(line.slice(2)) : null;
    if (alert) {
      const inner: string[] = [];
      while (index + 1 < lines.length && lines[index + 1]!.startsWith('>')) {
        index++;
        inner.push(lines[index]!.replace(/^> ?/, ''));
      }
      out.push(`{% hint style="${ALERT_HINT[alert[1]!]}" %}`, ...trimBlankLines(fromAgentLines(inner, nesting + 1)), '{% endhint %}');
      continue;
    }
    const comment = line.length <= MAX_TAG_LINE ? COMMENT_TAG.exec(line.trim()) : null;
    if (comment) {
      const [, end, name, rawAttributes] = comment;
      if (name === 'tabs') {
        if (end) {
          if (tabs.pop()) out.push('{% endtab %}');
          out.push('{% endtabs %}');
        } else {
          tabs.push(false);
          out.push('{% tabs %}');
        }
      } else out.push(end ? `{% end${name} %}` : `{% ${name}${writeAttributes(attributesOf(rawAttributes ?? ''))} %}`);
      continue;
    }
    const tab = tabs.length > 0 && line.length <= MAX_TAG_LINE ? TAB_HEADING.exec(line) : null;
    if (tab) {
      if (tabs.at(-1)) out.push('{% endtab %}');
      tabs[tabs.length - 1] = true;
      out.push(`{% tab title="${tab[1]!.replace(/"/g, "'")}" %}`);
      continue;
    }
    out.push(line);
  }
  return out;
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end);
}

/** The whole page as an agent reads it: `# title`, the description as a quote, the body. */
export function pageToAgentMarkdown(page: AgentPage, rewriteLink?: LinkRewriter): string {
  const parts = [`# ${page.title}`];
  if (page.description) parts.push(page.description.split('\n').map((line) => `> ${line}`.trimEnd()).join('\n'));
  const body = bodyToAgentMarkdown(rewriteLink ? rewriteLinks(page.markdown, rewriteLink) : page.markdown);
  if (body) parts.push(body);
  return `${parts.join('\n\n')}\n`;
}

/**
 * A page written in the agent form: the title from its first line (`# …`), the description from the
 * quote right after it (when it is not an alert), the body in the stored form. Undefined when the text
 * does not start with a `# ` title line.
 */
export function pageFromAgentMarkdown(text: string): AgentPage | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const titleLine = lines.findIndex((line) => line.trim() !== '');
  const first = lines[titleLine] ?? '';
  const title = first.startsWith('# ') ? first.slice(2).trim() : '';
  if (title === '') return undefined;
  let index = titleLine + 1;
  while (index < lines.length && lines[index]!.trim() === '') index++;
  const description: string[] = [];
  if (lines[index]?.startsWith('>') && !ALERT.test(lines[index]!.replace(/^> ?/, ''))) {
    while (index < lines.length && lines[index]!.startsWith('>')) description.push(lines[index++]!.replace(/^> ?/, ''));
  }
  const body = lines.slice(index).join('\n');
  const stored = bodyFromAgentMarkdown(body.trim() === '' ? '' : body);
  return { title, description: description.length > 0 ? description.join('\n') : null, markdown: stored.endsWith('\n') || stored === '' ? stored : `${stored}\n` };
}

/**
 * The addresses a stored body links to rewritten for the reader: links, images and definitions found by
 * the CommonMark parser (code is left alone; stored bodies passed the content gate, so they parse
 * quickly), and the `url` of content references.
 */
function rewriteLinks(markdown: string, rewriteLink: LinkRewriter): string {
  const linked = rewriteDestinations(markdown, (destination) => rewriteLink(destination.url));
  return linked.replace(/(\{%-?\s*content-ref\s+url=")([^"]*)(")/g, (whole, before: string, url: string, after: string) => {
    const rewritten = rewriteLink(url);
    return rewritten === undefined ? whole : `${before}${rewritten.replace(/"/g, '%22')}${after}`;
  });
}
