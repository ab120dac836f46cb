// A change request's PDF laid out and rendered in the parse pool (parsing/tasks.ts): layout is
// synchronous and takes seconds for a large document, so none of it runs on the event loop. The pages'
// bodies arrive as the trees stored when they were written (content/parsed-bodies.ts), the images as
// the bytes of the space's files. Fonts are pdfmake's bundled Roboto (Latin, Greek, Cyrillic) and the
// standard Courier; nothing is fetched and no other local file is read.
import { createRequire } from 'node:module';
import { pdfDocument, type PdfImages, type PdfPage, type PdfTitlePage } from './pdf-document.js';
import { imageFileIds, type MdNode } from './pdf-markdown.js';

/** A page as the render task receives it: its body's tree as the JSON text stored with it. */
export type PageToRender = Omit<PdfPage, 'body'> & { tree?: string };
/** An image to embed: a PNG or JPEG file of the space, with its natural size in points. */
export type ImageToRender = { fileId: string; name: string; width: number; height: number; contentType: string; bytes: Uint8Array };
export type RenderInput = { cover: PdfTitlePage; pages: PageToRender[]; images: ImageToRender[] };

/** The ids of the files the bodies (trees as JSON text) show as images, each once. */
export function imagesOfTrees({ trees }: { trees: string[] }): string[] {
  return [...new Set(trees.flatMap((tree) => imageFileIds(JSON.parse(tree) as MdNode)))];
}

type PdfMake = {
  setFonts(fonts: unknown): void;
  setUrlAccessPolicy(policy: () => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  addTableLayouts(layouts: unknown): void;
  createPdf(definition: unknown): { getBuffer(): Promise<Uint8Array> };
};

let engine: PdfMake | undefined;

/** pdfmake, set up once per worker: fonts it may read, no address it may fetch, the table layouts. */
function pdfmake(): PdfMake {
  if (engine) return engine;
  const require = createRequire(import.meta.url);
  const made = require('pdfmake') as PdfMake;
  const roboto = require('pdfmake/fonts/Roboto.js') as { Roboto: Record<string, string> };
  const courier = { normal: 'Courier', bold: 'Courier-Bold', italics: 'Courier-Oblique', bolditalics: 'Courier-BoldOblique' };
  const readable = new Set([...Object.values(roboto.Roboto), ...Object.values(courier)]);
  made.setFonts({ ...roboto, Courier: courier });
  made.setUrlAccessPolicy(() => false);
  made.setLocalAccessPolicy((path) => readable.has(path));
  made.addTableLayouts({
    quote: {
      hLineWidth: () => 0,
      vLineWidth: (i: number) => (i === 0 ? 2 : 0),
      vLineColor: () => '#cccccc',
      paddingLeft: () => 10,
      paddingTop: () => 2,
      paddingBottom: () => 2,
    },
    code: {
      hLineWidth: () => 0,
      vLineWidth: () => 0,
      fillColor: () => '#f4f4f4',
      paddingLeft: () => 8,
      paddingRight: () => 8,
      paddingTop: () => 6,
      paddingBottom: () => 6,
    },
  });
  return (engine = made);
}

async function render(definition: Record<string, unknown>): Promise<Uint8Array> {
  const footer = (current: number, count: number) => (current === 1 ? null : { text: `${current} / ${count}`, alignment: 'center', fontSize: 8, color: '#888888', margin: [0, 24, 0, 0] });
  return pdfmake().createPdf({ ...definition, footer }).getBuffer();
}

/** The PDF's bytes. */
export async function renderPdf({ cover, pages, images }: RenderInput): Promise<Uint8Array> {
  const laidOut: PdfPage[] = pages.map(({ tree, ...page }) => (tree ? { ...page, body: JSON.parse(tree) as MdNode } : page));
  const embedded: PdfImages = new Map(
    images.map((image) => [image.fileId, { name: image.name, width: image.width, height: image.height, data: `data:${image.contentType};base64,${Buffer.from(image.bytes).toString('base64')}` }]),
  );
  try {
    return await render(pdfDocument(cover, laidOut, embedded));
  } catch {
    // An image pdfkit cannot decode fails the whole document: render again with placeholders for all.
    return render(pdfDocument(cover, laidOut, new Map()));
  }
}
