// A Markdown file as a page: YAML front matter (`title`, `description`; GitBook writes the latter),
// and the title from the front matter or else from a leading `# heading`, which then leaves the body
// (the title is the page's own field and would show twice).
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parse as parseYaml } from 'yaml';
import { MAX_BODY } from './import-plan.js';

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

const stringField = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export function readMarkdownFile(text: string): MarkdownFile {
  const { fields, rest } = frontMatter(text.replace(/^\uFEFF/, ''));
  let title = stringField(fields.title);
  let markdown = rest;
  if (rest.length <= MAX_BODY) {
    const first = (fromMarkdown(rest) as Node).children?.[0];
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
