// A page body (Markdown, parsed as mdast with GFM) as pdfmake content: headings, paragraphs with
// emphasis, code and links, lists (task lists too), tables, code blocks, block quotes, rules, images of
// the space's files and footnotes. Pure: images arrive already checked (the names pdfmake knows them
// by), links to pages of the PDF become links inside it. The output is plain data (no functions), as
// it crosses to the rendering worker.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

export type MdNode = {
  type: string;
  value?: string;
  url?: string;
  alt?: string | null;
  title?: string | null;
  depth?: number;
  ordered?: boolean | null;
  start?: number | null;
  checked?: boolean | null;
  lang?: string | null;
  identifier?: string;
  label?: string | null;
  align?: Array<'left' | 'right' | 'center' | null>;
  children?: MdNode[];
};

/** pdfmake content: plain objects, strings and arrays. */
export type Content = string | { [key: string]: unknown } | Content[];

/** An image pdfmake knows by `name`, with its natural size in points. */
export type PdfImage = { name: string; width: number; height: number };

export type BodyContext = {
  /** The image of a file of the space, when it can be shown. */
  imageOf(fileId: string): PdfImage | undefined;
  /** True when the page is in the PDF (its links then lead inside it). */
  hasPage(pageId: string): boolean;
  /** Width available to images. */
  width: number;
};

export function parseBody(markdown: string): MdNode {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as MdNode;
}

const FILE = /^\/files\/([A-Za-z0-9_-]+)$/;
const PAGE = /^\/pages\/([A-Za-z0-9_-]+)(#.*)?$/;

/** The ids of the files a body shows as images (Markdown images and raw `<img src="/files/…">`). */
export function imageFileIds(root: MdNode): string[] {
  const ids: string[] = [];
  const visit = (node: MdNode) => {
    if (node.type === 'image' && node.url) {
      const id = FILE.exec(node.url)?.[1];
      if (id) ids.push(id);
    }
    if (node.type === 'html' && node.value) for (const match of node.value.matchAll(IMG)) {
      const id = FILE.exec(match[1]!)?.[1];
      if (id) ids.push(id);
    }
    node.children?.forEach(visit);
  };
  visit(root);
  return ids;
}

const IMG = /<img\b[^>]*?\ssrc\s*=\s*["']([^"']*)["'][^>]*>/gi;
const ALT = /\salt\s*=\s*["']([^"']*)["']/i;

// The standard Courier font encodes WinAnsi only: code holding anything else is set in the text font.
const WIN_ANSI = /^[\t\n\r\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]*$/;
const monospace = (text: string) => (WIN_ANSI.test(text) ? { font: 'Courier' } : {});

/** Images keep their natural size, shrunk (never enlarged) to fit the width and this height. */
const MAX_IMAGE_HEIGHT = 360;

function imageBlock(image: PdfImage, width: number): Content {
  const scale = Math.min(1, width / image.width, MAX_IMAGE_HEIGHT / image.height);
  return { image: image.name, width: image.width * scale, height: image.height * scale, margin: [0, 2, 0, 8] };
}

const plain = (node: MdNode): string => (node.value !== undefined && node.type !== 'html' ? node.value : (node.children ?? []).map(plain).join(''));

class Converter {
  private readonly definitions = new Map<string, string>();
  private readonly footnotes: Content[] = [];

  constructor(private readonly ctx: BodyContext) {}

  body(root: MdNode): Content[] {
    const collect = (node: MdNode) => {
      if (node.type === 'definition' && node.identifier && node.url !== undefined) this.definitions.set(node.identifier, node.url);
      node.children?.forEach(collect);
    };
    collect(root);
    const blocks = this.blocks(root.children ?? []);
    if (this.footnotes.length > 0) blocks.push({ canvas: [{ type: 'line', x1: 0, y1: 4, x2: 120, y2: 4, lineWidth: 0.5, lineColor: '#999999' }], margin: [0, 4, 0, 4] }, ...this.footnotes);
    return blocks;
  }

  private blocks(nodes: MdNode[]): Content[] {
    return nodes.flatMap((node) => this.block(node));
  }

  private block(node: MdNode): Content[] {
    switch (node.type) {
      case 'paragraph':
        return this.paragraph(node.children ?? []);
      case 'heading':
        return [{ text: this.inlines(node.children ?? []), style: `h${Math.min(node.depth ?? 1, 6)}` }];
      case 'thematicBreak':
        return [{ canvas: [{ type: 'line', x1: 0, y1: 6, x2: this.ctx.width, y2: 6, lineWidth: 0.5, lineColor: '#bbbbbb' }], margin: [0, 4, 0, 10] }];
      case 'blockquote':
        return [{ table: { widths: ['*'], body: [[{ stack: this.blocks(node.children ?? []), style: 'quote' }]] }, layout: 'quote', margin: [0, 0, 0, 8] }];
      case 'code': {
        const text = (node.value ?? '').replace(/\t/g, '    ');
        return [{ table: { widths: ['*'], body: [[{ text, style: 'code', ...monospace(text), preserveLeadingSpaces: true }]] }, layout: 'code', margin: [0, 0, 0, 8] }];
      }
      case 'list':
        return [this.list(node)];
      case 'table':
        return [this.table(node)];
      case 'html':
        return this.html(node.value ?? '');
      case 'footnoteDefinition':
        this.footnotes.push({ stack: [{ text: `[${node.label ?? node.identifier}] `, style: 'footnote' }, ...this.blocks(node.children ?? [])], style: 'footnote' });
        return [];
      case 'definition':
        return [];
      default:
        return node.children ? this.blocks(node.children) : node.value ? [{ text: node.value, margin: [0, 0, 0, 8] }] : [];
    }
  }

  /** A paragraph; the images it holds become blocks of their own (pdfmake has no inline images). */
  private paragraph(children: MdNode[]): Content[] {
    const out: Content[] = [];
    let run: MdNode[] = [];
    const flush = () => {
      const inlines = this.inlines(run);
      const shows = (node: MdNode) => plain(node).trim() || ['break', 'inlineCode', 'image', 'imageReference'].includes(node.type);
      if (run.some(shows)) out.push({ text: inlines, style: 'paragraph' });
      run = [];
    };
    for (const child of children) {
      const image = child.type === 'image' || child.type === 'imageReference' ? this.image(child) : undefined;
      if (image && typeof image === 'object' && 'image' in image) {
        flush();
        out.push(image);
      } else {
        run.push(child);
      }
    }
    flush();
    return out;
  }

  private image(node: MdNode): Content {
    const url = node.type === 'imageReference' ? this.definitions.get(node.identifier ?? '') : node.url;
    const name = url ? FILE.exec(url)?.[1] : undefined;
    const image = name ? this.ctx.imageOf(name) : undefined;
    if (image) return imageBlock(image, this.ctx.width);
    return { text: `[image${node.alt ? `: ${node.alt}` : ''}]`, style: 'missing' };
  }

  private html(value: string): Content[] {
    const out: Content[] = [];
    for (const match of value.matchAll(IMG)) {
      const id = FILE.exec(match[1]!)?.[1];
      const image = id ? this.ctx.imageOf(id) : undefined;
      out.push(image ? imageBlock(image, this.ctx.width) : { text: `[image${ALT.exec(match[0])?.[1] ? `: ${ALT.exec(match[0])![1]}` : ''}]`, style: 'missing' });
    }
    const text = value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    if (text) out.push({ text, style: 'paragraph' });
    return out;
  }

  private list(node: MdNode): Content {
    const items = (node.children ?? []).map((item) => {
      const blocks = this.blocks(item.children ?? []);
      if (item.checked !== null && item.checked !== undefined) blocks.unshift({ text: item.checked ? '[x]' : '[ ]', style: 'task' });
      return blocks.length === 1 ? blocks[0]! : { stack: blocks };
    });
    return node.ordered ? { ol: items, start: node.start ?? 1, margin: [0, 0, 0, 8] } : { ul: items, margin: [0, 0, 0, 8] };
  }

  private table(node: MdNode): Content {
    const rows = node.children ?? [];
    const columns = Math.max(1, ...rows.map((row) => row.children?.length ?? 0));
    const body = rows.map((row, rowIndex) =>
      Array.from({ length: columns }, (_, column) => {
        const cell = row.children?.[column];
        const alignment = node.align?.[column] ?? 'left';
        return { text: cell ? this.inlines(cell.children ?? []) : '', alignment, ...(rowIndex === 0 ? { style: 'tableHeader' } : {}) };
      }),
    );
    return { table: { headerRows: 1, widths: Array(columns).fill('*'), body }, layout: 'lightHorizontalLines', style: 'table' };
  }

  private inlines(nodes: MdNode[]): Content[] {
    return nodes.flatMap((node): Content[] => {
      switch (node.type) {
        case 'text':
          return [node.value ?? ''];
        case 'emphasis':
          return [{ text: this.inlines(node.children ?? []), italics: true }];
        case 'strong':
          return [{ text: this.inlines(node.children ?? []), bold: true }];
        case 'delete':
          return [{ text: this.inlines(node.children ?? []), decoration: 'lineThrough' }];
        case 'inlineCode':
          return [{ text: node.value ?? '', style: 'inlineCode', ...monospace(node.value ?? '') }];
        case 'break':
          return ['\n'];
        case 'link':
        case 'linkReference':
          return [this.link(node.type === 'link' ? node.url : this.definitions.get(node.identifier ?? ''), this.inlines(node.children ?? []))];
        case 'image':
        case 'imageReference':
          return [{ text: `[image${node.alt ? `: ${node.alt}` : ''}]`, style: 'missing' }];
        case 'footnoteReference':
          return [{ text: `[${node.label ?? node.identifier}]`, sup: true }];
        case 'html':
          return [(node.value ?? '').replace(/<[^>]*>/g, '')];
        default:
          return node.children ? this.inlines(node.children) : node.value ? [node.value] : [];
      }
    });
  }

  private link(url: string | undefined, text: Content[]): Content {
    const page = url ? PAGE.exec(url) : null;
    if (page && this.ctx.hasPage(page[1]!)) return { text, linkToDestination: `page-${page[1]}`, style: 'link' };
    if (url && /^(https?:|mailto:)/i.test(url)) return { text, link: url, style: 'link' };
    return { text };
  }
}

/** A body as pdfmake content. */
export function bodyContent(root: MdNode, ctx: BodyContext): Content[] {
  return new Converter(ctx).body(root);
}
