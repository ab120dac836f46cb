// markdown-it's tokens as a hast tree, without writing HTML and reading it back with parse5 (issue 28
// "Speed": parse5 was a fifth of a long page's first render). The tree is the one the other path makes
// — markdown-it's HTML read by parse5 (hast-util-raw), then rehype-sanitize with the renderer's schema
// and rehype-slug (markdown-html.ts) — node for node, and a test renders a corpus both ways and compares
// the HTML byte for byte (markdown-hast.test.ts).
//
// Safe by construction, so the sanitizer is not run on it: every element and attribute is one this file
// writes, from a fixed set the sanitizer's schema allows; what a page's text decides is text, an
// attribute value (escaped when serialized) or an address, and addresses get the sanitizer's own
// protocol check (`safeProtocol`, the same rule). The ids the sanitizer would prefix (`user-content-`,
// so no page can name the site's own ids) are written prefixed; heading ids are github-slugger's, as
// rehype-slug gives them.
//
// Raw HTML in the page is what this cannot build: parse5 must read it as a browser would, and the
// sanitizer must see it. Except the wrappers GitBook's blocks become (gitbook-blocks.ts), written by the
// server in one exact shape, and a few bare inline tags (`<br>`, `<kbd>`, `<sub>`, … closed where they
// opened), any `html_block`/`html_inline` token gives up (`undefined`), and so does
// any shape parse5 would repair differently (a link in a link, a wrapper closed across a list item):
// the caller renders the document through parse5.
import type { Element, ElementContent, Properties, Root } from 'hast';
import { h } from 'hastscript';
import GithubSlugger from 'github-slugger';
import type { Token } from 'markdown-it';

/** Why the tokens cannot be built directly: the document goes through parse5 and the sanitizer. */
class NeedsHtmlParser extends Error {}

/** What the token tree needs of the parser: a fence's text goes aside like the HTML path's (markdown-parse.ts). */
type TokenTreeEnv = { fenceMarker: string; fences: string[] };

/** Addresses as the sanitizer checks them (hast-util-sanitize's `safeProtocol` and GitHub's protocols in its default schema). */
const PROTOCOLS: Record<'href' | 'src', readonly string[]> = { href: ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'], src: ['http', 'https'] };

function safeProtocol(key: 'href' | 'src', url: string): boolean {
  const colon = url.indexOf(':');
  const questionMark = url.indexOf('?');
  const numberSign = url.indexOf('#');
  const slash = url.indexOf('/');
  if (colon < 0 || (slash > -1 && colon > slash) || (questionMark > -1 && colon > questionMark) || (numberSign > -1 && colon > numberSign)) return true;
  return PROTOCOLS[key].some((protocol) => colon === protocol.length && url.slice(0, protocol.length) === protocol);
}

/** The wrapper a GitBook tag becomes (gitbook-blocks.ts), exactly: its kind and its attributes (escaped by `escapeAttribute` there). */
const GITBOOK_OPEN = /^<div data-gb="([a-z-]+)"((?: data-(?:style|title|url|linenumbers|overflow|src)="[^"]*")*)>\n$/;
const GITBOOK_ATTRIBUTE = / (data-[a-z]+)="([^"]*)"/g;
const GITBOOK_CLOSE = '</div>\n';
/** The only references `escapeAttribute` writes; any other `&` in a value is one parse5 would read its own way. */
const ESCAPED = /&(amp|quot|lt|gt);/g;
const UNESCAPED: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>' };

const CLOBBER = 'user-content-';

/** Inline tags built without parse5 (see `inlineTag`): each in GitHub's schema, without attributes there. */
const INLINE_TAG = /^<(\/?)(b|i|em|strong|s|strike|del|ins|sub|sup|kbd|samp|code)>$/;
const LINE_BREAK = /^<br ?\/?>$/;

type Parent = Root | Element;

class TokenTree {
  readonly root: Root = { type: 'root', children: [] };
  private readonly open: Parent[] = [this.root];
  private readonly slugger = new GithubSlugger();
  /** Open `a` elements: parse5 closes a link when another opens inside it. */
  private links = 0;

  constructor(
    private readonly env: TokenTreeEnv,
    private readonly unescapeAll: (text: string) => string,
  ) {}

  private get top(): Parent {
    return this.open[this.open.length - 1]!;
  }

  text(value: string): void {
    if (value === '') return;
    const children = this.top.children;
    const last = children[children.length - 1];
    // parse5 joins adjacent text into one node.
    if (last?.type === 'text') last.value += value;
    else children.push({ type: 'text', value });
  }

  /** An element with `attributes` as HTML names them (the first of a name wins, as parse5 keeps it), read by hastscript as hast-util-from-parse5 reads them. */
  private element(tagName: string, attributes: ReadonlyArray<readonly [string, string | number]> | null): Element {
    if (!attributes || attributes.length === 0) return { type: 'element', tagName, properties: {}, children: [] };
    const properties: Record<string, string> = {};
    let plain = true;
    for (const [name, value] of attributes) {
      if (Object.hasOwn(properties, name)) continue;
      properties[name] = String(value);
      plain &&= PLAIN_ATTRIBUTES.has(name);
    }
    // hastscript keeps these as the strings they are: links', images' and cells' attributes skip it.
    return plain ? { type: 'element', tagName, properties, children: [] } : h(tagName, properties as Properties);
  }

  push(tagName: string, attributes: ReadonlyArray<readonly [string, string | number]> | null = null): Element {
    if (tagName === 'a' && this.links++ > 0) throw new NeedsHtmlParser();
    const element = this.element(tagName, attributes);
    this.top.children.push(element);
    this.open.push(element);
    return element;
  }

  pop(tagName: string): void {
    const top = this.top;
    if (top.type !== 'element' || top.tagName !== tagName) throw new NeedsHtmlParser();
    this.open.pop();
    if (tagName === 'a') this.links--;
    if (/^h[1-6]$/.test(tagName) && top.properties.id === undefined) top.properties.id = this.slugger.slug(textOf(top));
  }

  void(tagName: string, attributes: ReadonlyArray<readonly [string, string | number]> | null = null): void {
    this.top.children.push(this.element(tagName, attributes));
  }

  /** markdown-it's `renderToken`: the tag, and the newlines it writes around block tags (kept as text, as parse5 keeps them). */
  renderToken(tokens: Token[], index: number): void {
    const token = tokens[index]!;
    if (token.hidden) return;
    let previous = index - 1;
    while (previous >= 0 && tokens[previous]!.hidden && tokens[previous]!.nesting === 0) previous--;
    if (token.block && token.nesting !== -1 && previous >= 0 && tokens[previous]!.hidden && tokens[previous]!.nesting === -1) this.text('\n');
    const attributes = safeAttributes(token.tag, token.attrs);
    if (token.nesting === -1) this.pop(token.tag);
    else if (token.nesting === 1) this.push(token.tag, attributes);
    else if (VOID.has(token.tag)) this.void(token.tag, attributes);
    else throw new NeedsHtmlParser();
    let newline = false;
    if (token.block) {
      newline = true;
      if (token.nesting === 1) {
        let next = index + 1;
        while (next < tokens.length && tokens[next]!.hidden && tokens[next]!.nesting === 0) next++;
        if (next < tokens.length) {
          const nextToken = tokens[next]!;
          if (nextToken.type === 'inline' || nextToken.hidden) newline = false;
          else if (nextToken.nesting === -1 && nextToken.tag === token.tag) newline = false;
        }
      }
    }
    if (newline) this.text('\n');
  }

  /** A top-level token (markdown-it's `render`, with the rules markdown-parse.ts gives it). */
  block(tokens: Token[], index: number): void {
    const token = tokens[index]!;
    switch (token.type) {
      case 'inline':
        return this.inline(token.children ?? []);
      case 'fence':
        return this.fence(token);
      case 'code_block':
        this.code(['pre'], null, token.content);
        return this.text('\n');
      case 'math_block':
        this.code(['pre'], [['class', 'language-math math-display']], token.content);
        return this.text('\n');
      case 'html_block':
        return this.html(token.content);
      case 'footnote_block_open':
        this.push('section', [['data-footnotes', ''], ['class', 'footnotes']]);
        this.push('h2', [['class', 'sr-only'], ['id', `${CLOBBER}footnote-label`]]);
        this.text('Footnotes');
        this.pop('h2');
        this.text('\n');
        this.push('ol');
        return this.text('\n');
      case 'footnote_block_close':
        this.pop('ol');
        this.text('\n');
        this.pop('section');
        return this.text('\n');
      case 'footnote_open':
        this.push('li', [['id', `${CLOBBER}fn-${footnoteName(token)}`]]);
        return;
      case 'footnote_close':
        this.pop('li');
        return this.text('\n');
      case 'footnote_anchor': {
        const name = footnoteName(token);
        const subId = (token.meta as { subId: number }).subId;
        this.text(' ');
        this.push('a', [['href', `#${CLOBBER}fnref-${name}${subId > 0 ? `-${subId + 1}` : ''}`], ['data-footnote-backref', ''], ['aria-label', `Back to reference ${name}`]]);
        this.text('↩');
        return this.pop('a');
      }
      default:
        if (!RENDERED_AS_TAGS.has(token.type)) throw new NeedsHtmlParser();
        return this.renderToken(tokens, index);
    }
  }

  private inline(tokens: Token[]): void {
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      switch (token.type) {
        case 'text':
          this.text(token.content);
          break;
        case 'softbreak':
          this.text('\n');
          break;
        case 'hardbreak':
          this.void('br');
          this.text('\n');
          break;
        case 'code_inline':
          this.code([], token.attrs, token.content);
          break;
        case 'math_inline':
          this.code([], [['class', 'language-math math-inline']], token.content);
          break;
        case 'image': {
          const attributes = (token.attrs ?? []).map(([name, value]): [string, string | number] => [name, name === 'alt' ? inlineText(token.children ?? []) : value]);
          this.void('img', safeAttributes('img', attributes));
          break;
        }
        case 'html_inline': {
          // A task list's box (markdown-parse.ts): known, and the sanitizer keeps it as written.
          const task = (token.meta as { taskChecked?: boolean } | null)?.taskChecked;
          if (task !== undefined) {
            this.void('input', [['type', 'checkbox'], ...(task ? [['checked', ''] as const] : []), ['disabled', '']]);
            this.text(' ');
            break;
          }
          this.inlineTag(token.content);
          break;
        }
        case 'footnote_ref': {
          const name = footnoteName(token);
          const meta = token.meta as { id: number; subId: number };
          this.push('sup');
          this.push('a', [
            ['href', `#${CLOBBER}fn-${name}`],
            ['id', `${CLOBBER}fnref-${name}${meta.subId > 0 ? `-${meta.subId + 1}` : ''}`],
            ['data-footnote-ref', ''],
            ['aria-describedby', `${CLOBBER}footnote-label`],
          ]);
          this.text(String(meta.id + 1));
          this.pop('a');
          this.pop('sup');
          break;
        }
        default:
          if (!RENDERED_AS_TAGS.has(token.type)) throw new NeedsHtmlParser();
          this.renderToken(tokens, index);
      }
    }
  }

  /**
   * The few inline tags pages write by hand (`<br>` in a table's cells, `<kbd>`, `<sub>`, …), bare and
   * in lower case, the sanitizer keeping them as they are: built when each closes the element it opened
   * (parse5 reads exactly that); one left open, or closed across another, gives up (parse5 would close or
   * reopen it its own way).
   */
  private inlineTag(html: string): void {
    if (LINE_BREAK.test(html)) return this.void('br');
    const tag = INLINE_TAG.exec(html);
    if (!tag) throw new NeedsHtmlParser();
    if (tag[1]) this.pop(tag[2]!);
    else this.push(tag[2]!);
  }

  /** `code` holding `text` (in `wrappers`: `pre`), as markdown-it's code rules write it. */
  private code(wrappers: string[], attributes: ReadonlyArray<readonly [string, string | number]> | null, text: string): void {
    for (const wrapper of wrappers) this.push(wrapper);
    this.push('code', attributes);
    this.text(text);
    this.pop('code');
    for (const wrapper of wrappers.toReversed()) this.pop(wrapper);
  }

  /** markdown-it's fence rule, its text aside behind the marker as markdown-parse.ts's fence rule puts it. */
  private fence(token: Token): void {
    if (token.attrs) throw new NeedsHtmlParser();
    const info = token.info ? this.unescapeAll(token.info).trim() : '';
    const language = info ? info.split(/(\s+)/g)[0]! : '';
    const marker = `${this.env.fenceMarker}${this.env.fences.push(token.content) - 1}`;
    this.code(['pre'], info ? [['class', `language-${language}`]] : null, marker);
    this.text('\n');
  }

  /** Raw HTML: a GitBook wrapper's opening or closing is built; anything else needs parse5. */
  private html(content: string): void {
    const opening = GITBOOK_OPEN.exec(content);
    if (opening) {
      const attributes: Array<[string, string]> = [['data-gb', opening[1]!]];
      for (const [, name, value] of opening[2]!.matchAll(GITBOOK_ATTRIBUTE)) {
        if (value!.replace(ESCAPED, '').includes('&')) throw new NeedsHtmlParser();
        attributes.push([name!, value!.replace(ESCAPED, (_reference, entity: string) => UNESCAPED[entity]!)]);
      }
      this.push('div', attributes);
      return this.text('\n');
    }
    if (content !== GITBOOK_CLOSE) throw new NeedsHtmlParser();
    const top = this.top;
    if (top.type !== 'element' || top.properties.dataGb === undefined) throw new NeedsHtmlParser();
    this.pop('div');
    this.text('\n');
  }
}

/**
 * The attributes markdown-it's rules and markdown-parse.ts's put on tokens, each allowed by the
 * sanitizer's schema (markdown-html.ts), with the values it allows (`true`: any). A token carrying any
 * other (a rule added later) is built through parse5 and the sanitizer.
 */
const ATTRIBUTES: Record<string, Record<string, true | readonly string[]>> = {
  a: { href: true, title: true },
  img: { src: true, alt: true, title: true },
  ol: { start: true, class: ['contains-task-list'] },
  ul: { class: ['contains-task-list'] },
  li: { class: ['task-list-item'] },
  th: { align: true },
  td: { align: true },
};

/** `attributes` of a token for `tagName`, an address the sanitizer would drop left out (see ATTRIBUTES). */
function safeAttributes(tagName: string, attributes: ReadonlyArray<readonly [string, string | number]> | null): ReadonlyArray<readonly [string, string | number]> | null {
  if (!attributes) return null;
  const allowed = ATTRIBUTES[tagName];
  return attributes.filter(([name, value]) => {
    const values = allowed?.[name];
    if (values === undefined || (values !== true && !values.includes(String(value)))) throw new NeedsHtmlParser();
    return name === 'href' || name === 'src' ? safeProtocol(name, String(value)) : true;
  });
}

/** Tags markdown-it's `renderToken` writes without a rule of their own. */
const RENDERED_AS_TAGS = new Set(
  ['paragraph', 'heading', 'blockquote', 'bullet_list', 'ordered_list', 'list_item', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'em', 'strong', 's', 'link'].flatMap((name) => [`${name}_open`, `${name}_close`]).concat('hr'),
);
/** Attributes whose hast property has the attribute's name and its value as written (property-information: no list, number or boolean). */
const PLAIN_ATTRIBUTES = new Set(['href', 'title', 'src', 'alt', 'align']);
const VOID = new Set(['hr', 'br', 'img', 'input']);

/** A footnote's name in ids and labels (markdown-parse.ts's `footnote_anchor_name`): its label, else its number. */
function footnoteName(token: Token): string {
  const { id, label } = token.meta as { id: number; label?: string };
  return label ?? String(id + 1);
}

/** markdown-it's `renderInlineAsText` (an image's `alt`). */
function inlineText(tokens: Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'html_inline' || token.type === 'html_block') text += token.content;
    else if (token.type === 'image') text += inlineText(token.children ?? []);
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
  }
  return text;
}

function textOf(node: Element): string {
  let text = '';
  for (const child of node.children) text += child.type === 'text' ? child.value : child.type === 'element' ? textOf(child) : '';
  return text;
}

/**
 * `tokens` (markdown-it's parse of a body with markdown-parse.ts's rules) as the sanitized tree with
 * heading ids, fences aside in `env`; undefined when the body holds raw HTML (see the file's comment).
 */
export function tokensToHast(tokens: Token[], env: TokenTreeEnv, unescapeAll: (text: string) => string): ElementContent[] | undefined {
  const tree = new TokenTree(env, unescapeAll);
  try {
    for (let index = 0; index < tokens.length; index++) tree.block(tokens, index);
  } catch (error) {
    if (error instanceof NeedsHtmlParser) return undefined;
    throw error;
  }
  return tree.root.children as ElementContent[];
}
