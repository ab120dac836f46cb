// A page as search sections (docs/design/content-model.md, "Search index"): section 0 is the page itself (title,
// description and the text before its first heading); each h1–h3 heading at the top level of the body
// opens the next section, deeper headings stay in their section. Pure.
import type { Nodes, Root } from 'mdast';
import { headingAnchors, parseDocument, plainText } from '../links/document-tree.js';

/** Characters of text indexed per section (tsvector limits: < 1 MB, positions ≤ 16,383). */
export const SECTION_TEXT_LIMIT = 16_000;
/** Sections per page; the rest of a longer page stays in its last section. */
export const MAX_SECTIONS = 200;

export type Section = {
  ordinal: number;
  /** The heading's anchor; the page id for section 0. */
  id: string;
  /** The heading's text; the page title for section 0. */
  title: string;
  /** Plain text of the section's body. */
  body: string;
};

function capped(text: string): string {
  if (text.length <= SECTION_TEXT_LIMIT) return text;
  const cut = text.slice(0, SECTION_TEXT_LIMIT);
  const space = cut.lastIndexOf(' ');
  return space > SECTION_TEXT_LIMIT - 200 ? cut.slice(0, space) : cut;
}

/** A section of a body as stored (content/body-parse.ts): `id` and `title` are null for the text before the first heading. */
export type DocumentSection = { id: string | null; title: string | null; body: string };

/** The sections of a parsed body: the text before its first top-level h1–h3, then one per such heading. */
export function documentSections(tree: Root): DocumentSection[] {
  const sections: Array<{ id: string | null; title: string | null; parts: string[]; length: number }> = [{ id: null, title: null, parts: [], length: 0 }];
  const anchors = headingAnchors(tree);
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth <= 3 && sections.length < MAX_SECTIONS) {
      sections.push({ id: anchors.get(node)!, title: plainText(node).trim(), parts: [], length: 0 });
      continue;
    }
    const current = sections.at(-1)!;
    if (current.length >= SECTION_TEXT_LIMIT) continue;
    const text = plainText(node as Nodes).trim();
    if (text) {
      current.parts.push(text);
      current.length += text.length + 1;
    }
  }
  return sections.map((section) => ({ id: section.id, title: section.title, body: capped(section.parts.join('\n')) }));
}

/** The page's sections from its body's stored sections (none for a page without a body, or a group). */
export function sectionsOfPage(page: { id: string; title: string }, stored: readonly DocumentSection[] | undefined): Section[] {
  const [lead, ...rest] = stored ?? [];
  return [{ id: page.id, title: page.title, body: lead?.body ?? '' }, ...rest.map((section) => ({ id: section.id ?? '', title: section.title ?? '', body: section.body }))].map(
    (section, ordinal) => ({ ordinal, ...section }),
  );
}

/** The page's sections; `markdown` undefined for a page without a body (or a group). */
export function pageSections(page: { id: string; title: string }, markdown: string | undefined): Section[] {
  return sectionsOfPage(page, markdown ? documentSections(parseDocument(markdown)) : undefined);
}
