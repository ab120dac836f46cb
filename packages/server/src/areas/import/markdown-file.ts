// A Markdown file as a page: YAML front matter (`title`, `description`; GitBook writes the latter),
// and the title from the front matter or else from a leading `# heading`, which then leaves the body
// (the title is the page's own field and would show twice).
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parse as parseYaml } from 'yaml';

export type MarkdownFile = { title: string | undefined; description: string | undefined; markdown: string };

type Node = { type: string; depth?: number; value?: string; children?: Node[]; position?: { end: { offset?: number } } };

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** The text of a node (its text, code and inline HTML values). */
export function plainText(node: Node): string {
  if (node.value !== undefined && node.type !== 'html') return node.value;
  return (node.children ?? []).map(plainText).join('');
}

function frontMatter(text: string): { fields: Record<string, unknown>; rest: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { fields: {}, rest: text };
  let fields: unknown;
  try {
    // `yaml` neither runs code nor expands more than 100 aliases.
    fields = parseYaml(match[1]!, { maxAliasCount: 100 });
  } catch {
    fields = undefined;
  }
  return { fields: fields && typeof fields === 'object' && !Array.isArray(fields) ? (fields as Record<string, unknown>) : {}, rest: text.slice(match[0].length) };
}

/** A first block longer than this is no title heading. */
const MAX_FIRST_BLOCK = 4096;

const stringField = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export function readMarkdownFile(text: string): MarkdownFile {
  const { fields, rest } = frontMatter(text.replace(/^\uFEFF/, ''));
  let title = stringField(fields.title);
  let markdown = rest;
  // Only the first block is parsed for its heading: the whole body is checked later, off the event loop.
  const firstBlock = rest.slice(0, rest.search(/\n[ \t]*\n/) === -1 ? rest.length : rest.search(/\n[ \t]*\n/));
  if (firstBlock.length <= MAX_FIRST_BLOCK) {
    const first = (fromMarkdown(firstBlock) as Node).children?.[0];
    if (first?.type === 'heading' && first.depth === 1) {
      const heading = plainText(first).trim();
      if (!title || title === heading) {
        title = heading || title;
        markdown = rest.slice(first.position?.end.offset ?? 0);
      }
    }
  }
  return { title, description: stringField(fields.description), markdown: markdown.replace(/^\s*\n/, '').trimEnd() };
}
