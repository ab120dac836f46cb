// What an import reads of each resource, run in the parse pool (parsing/tasks.ts) so that no page,
// document or archive entry is parsed on the event loop: an HTML page (Readability, turndown), a Markdown
// file (front matter, title, body), SUMMARY.md's outline, `.gitbook.yaml`. A body is read once here for
// its destinations (and refused, imported without its body, when it nests too deeply); the import
// then rewrites them by splicing, and the write's markdown gate reads the final bodies.
import { parse as parseYaml } from 'yaml';
import { readHtmlPage, PageTooDeep } from './html-page.js';
import { readDestinations, type Destination } from '../../content/markdown-links.js';
import { readMarkdownFile } from './markdown-file.js';

/** A body as read: its markdown and destinations, or why it is left out (`refused`). */
export type ReadBody = { markdown: string; destinations: Destination[] } | { refused: string };

export type ReadHtml = { ok: true; title?: string; description?: string; links: string[]; body: ReadBody } | { ok: false; reason: string };
export type ReadMarkdown = { title?: string; description?: string; body: ReadBody };

function readBody(markdown: string): ReadBody {
  const read = readDestinations(markdown);
  return read.ok ? { markdown, destinations: read.destinations } : { refused: read.reason };
}

/** An HTML page of the import (at `url`, for its relative addresses). */
export function readHtml({ html, url }: { html: string; url: string }): ReadHtml {
  let page;
  try {
    page = readHtmlPage(html, url);
  } catch (error) {
    if (error instanceof PageTooDeep || error instanceof RangeError) return { ok: false, reason: error instanceof PageTooDeep ? error.message : 'its elements nest too deeply to be read' };
    throw error;
  }
  return {
    ok: true,
    ...(page.title ? { title: page.title } : {}),
    ...(page.description ? { description: page.description } : {}),
    links: page.links,
    body: readBody(page.markdown),
  };
}

/** A Markdown file of the import. */
export function readMarkdown({ text }: { text: string }): ReadMarkdown {
  const file = readMarkdownFile(text);
  return { ...(file.title ? { title: file.title } : {}), ...(file.description ? { description: file.description } : {}), body: readBody(file.markdown) };
}

/** `.gitbook.yaml`: its settings (none unless a YAML mapping), or not valid. `yaml` runs no code and expands at most 100 aliases. */
export function readGitbookConfig({ text }: { text: string }): { valid: false } | { valid: true; config?: Record<string, unknown> } {
  let config: unknown;
  try {
    config = parseYaml(text, { maxAliasCount: 100 });
  } catch {
    return { valid: false };
  }
  // As plain data (what a worker can hand back): YAML's own types become their JSON forms.
  return config && typeof config === 'object' && !Array.isArray(config) ? { valid: true, config: JSON.parse(JSON.stringify(config)) as Record<string, unknown> } : { valid: true };
}
