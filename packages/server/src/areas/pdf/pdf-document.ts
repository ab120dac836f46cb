// The whole PDF as a pdfmake document definition (plain data; the worker adds page footers and the
// table layouts, which are functions): a title page, the table of contents with page numbers (pdfmake
// fills them in and links each entry), then every page on a new sheet in tree order — its title (in
// the contents, indented by depth, and in the PDF's outline), its description and its body.
import { bodyContent, type Content, type MdNode, type PdfImage } from './pdf-markdown.js';

export type PdfPage = { id: string; title: string; description?: string; depth: number; group: boolean; body?: MdNode };
export type PdfTitlePage = { title: string; subtitle: string; details: string[] };

/** A4 (595 × 842 pt) less the side margins. */
const PAGE_MARGINS = [56, 56, 56, 64] as const;
export const CONTENT_WIDTH = 595 - PAGE_MARGINS[0] - PAGE_MARGINS[2];

const STYLES = {
  coverTitle: { fontSize: 28, bold: true, margin: [0, 200, 0, 12] },
  coverSubtitle: { fontSize: 16, color: '#333333', margin: [0, 0, 0, 24] },
  coverDetail: { fontSize: 10, color: '#666666' },
  tocTitle: { fontSize: 18, bold: true, margin: [0, 0, 0, 12] },
  pageTitle: { fontSize: 20, bold: true, margin: [0, 0, 0, 6] },
  groupTitle: { fontSize: 22, bold: true, color: '#444444', margin: [0, 0, 0, 6] },
  description: { fontSize: 11, italics: true, color: '#555555', margin: [0, 0, 0, 12] },
  h1: { fontSize: 17, bold: true, margin: [0, 10, 0, 6] },
  h2: { fontSize: 15, bold: true, margin: [0, 10, 0, 5] },
  h3: { fontSize: 13, bold: true, margin: [0, 8, 0, 4] },
  h4: { fontSize: 12, bold: true, margin: [0, 6, 0, 4] },
  h5: { fontSize: 11, bold: true, margin: [0, 6, 0, 4] },
  h6: { fontSize: 10, bold: true, color: '#555555', margin: [0, 6, 0, 4] },
  paragraph: { margin: [0, 0, 0, 8] },
  code: { fontSize: 9, lineHeight: 1.15 },
  inlineCode: { fontSize: 9, background: '#eeeeee' },
  quote: { color: '#555555', italics: true },
  link: { color: '#1a56db', decoration: 'underline' },
  table: { fontSize: 9.5, margin: [0, 2, 0, 10] },
  tableHeader: { bold: true },
  missing: { color: '#888888', italics: true, margin: [0, 0, 0, 8] },
  task: { font: 'Roboto', bold: true },
  footnote: { fontSize: 8.5, color: '#444444' },
};

/** Images by file id: the data pdfmake embeds and the size they show at. */
export type PdfImages = Map<string, PdfImage & { data: string }>;

export function pdfDocument(cover: PdfTitlePage, pages: PdfPage[], images: PdfImages): Record<string, unknown> {
  const ids = new Set(pages.map((page) => page.id));
  const hasPage = (id: string) => ids.has(id);
  const content: Content[] = [
    { text: cover.title, style: 'coverTitle' },
    { text: cover.subtitle, style: 'coverSubtitle' },
    ...cover.details.map((detail) => ({ text: detail, style: 'coverDetail' })),
    { toc: { title: { text: 'Contents', style: 'tocTitle' }, outlines: true }, pageBreak: 'before' },
  ];
  for (const page of pages) {
    content.push({
      text: page.title,
      style: page.group ? 'groupTitle' : 'pageTitle',
      id: `page-${page.id}`,
      tocItem: true,
      tocMargin: [page.depth * 14, 2, 0, 2],
      ...(page.depth === 0 ? { tocStyle: { bold: true } } : {}),
      pageBreak: 'before',
    });
    if (page.description) content.push({ text: page.description, style: 'description' });
    if (page.body) {
      content.push(...bodyContent(page.body, { imageOf: (fileId) => images.get(fileId), hasPage, width: CONTENT_WIDTH }));
    }
  }
  return {
    pageSize: 'A4',
    pageMargins: [...PAGE_MARGINS],
    info: { title: `${cover.title}: ${cover.subtitle}`, creator: 'Content Workspace', producer: 'Content Workspace (pdfmake)' },
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.25 },
    styles: STYLES,
    images: Object.fromEntries([...images.values()].map((image) => [image.name, image.data])),
    content,
  };
}
