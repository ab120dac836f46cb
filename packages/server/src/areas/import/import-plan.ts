// What an import read, in one shape whatever the source: a tree of pages whose bodies still name
// resources as the source did (addresses, archive paths), and the files they use. `planBatch` turns it
// into one content batch: page and file ids are chosen first, so every body can link to the pages and
// files of the same batch (`/pages/{id}`, `/files/{id}`) before the batch engine writes them.
import { createHash } from 'node:crypto';
import type { ContentChange, PreparedFile } from '../../content/apply-changes.js';
import { readImageInfo } from '../../content/image-info.js';
import type { PageType } from '../../content/model.js';
import type { InternalBatch } from '../content/index.js';
import { freeSlug, slugify } from '../../content/slugs.js';
import { newId } from '../../ids.js';
import { rewriteDestinations, type Destination } from '../../content/markdown-links.js';

export type ImportedPage = {
  /** The page in its source: its address, or its path inside the archive. */
  key: string;
  title: string;
  description?: string;
  /** Its body, naming resources as the source does; none for a page without a body. */
  markdown?: string;
  /** Where its body names resources (read with it in the parse pool: import-parse.ts). */
  destinations?: Destination[];
  type: PageType;
  /** What its slug is made from (an address's last segment, a file name); the title otherwise. */
  slugFrom?: string;
  children: ImportedPage[];
  /** Counts among the imported resources (a folder page made up for the tree does not). */
  counted: boolean;
};

export type ImportedFile = { key: string; name: string; bytes: Buffer; contentType?: string };

/** Where a destination of `page` points: the key of an imported resource, with the fragment to keep. */
export type Target = { key: string; fragment: string };

export type ImportPlan = {
  pages: ImportedPage[];
  files: ImportedFile[];
  /** Resolves a destination written in `page`; `absolute` is what to write when it names nothing imported. */
  resolve(destination: Destination, page: ImportedPage): (Target & { absolute?: string }) | undefined;
};

/** API limits of the fields an import fills (the batch schema's). */
export const MAX_TITLE = 256;
export const MAX_DESCRIPTION = 512;
export const MAX_BODY = 1_000_000;
const MAX_FILE_NAME = 255;

const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', json: 'application/json', zip: 'application/zip',
  mp4: 'video/mp4', mp3: 'audio/mpeg',
};

export function cut(text: string, max: number): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1)}…`;
}

/** A file name for an address's or path's last segment. */
export function fileNameOf(path: string, fallback = 'file'): string {
  const last = path.split(/[/\\]/).filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  // Control characters (U+0000–U+001F) never belong in a file name.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  name = name.replace(/[\u0000-\u001f]/g, '').trim();
  return (name || fallback).slice(0, MAX_FILE_NAME);
}

export function prepareImportedFile(file: ImportedFile): PreparedFile {
  const image = readImageInfo(file.bytes);
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase();
  const contentType = (file.contentType && MEDIA_TYPE.test(file.contentType) ? file.contentType : undefined) ?? image?.contentType ?? (extension && BY_EXTENSION[extension]) ?? 'application/octet-stream';
  return {
    bytes: file.bytes,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    size: file.bytes.length,
    contentType,
    ...(image ? { dimensions: { width: image.width, height: image.height } } : {}),
  };
}

function* preOrder(pages: ImportedPage[]): Generator<ImportedPage> {
  for (const page of pages) {
    yield page;
    yield* preOrder(page.children);
  }
}

export function countPages(pages: ImportedPage[]): number {
  let count = 0;
  for (const page of preOrder(pages)) if (page.counted) count++;
  return count;
}

/**
 * The plan as one batch (`build`), and the bodies it writes by page (read when it builds: one deleted
 * here is left out, as the markdown gate may need): files first, then
 * pages in tree order, each body's destinations rewritten to the imported pages and files they name.
 * Top-level slugs avoid the slugs already at the top of the content the batch is applied to; nested
 * ones only need to differ among the imported siblings.
 */
export function planBatch(plan: ImportPlan): { build: InternalBatch; bodies: Map<ImportedPage, string | undefined> } {
  const presetIds = new Map<string, string>();
  const fileIds = new Map<string, string>();
  const pageIds = new Map<string, string>();
  const fileChanges: ContentChange[] = [];
  const files = new Map<number, PreparedFile>();
  for (const [index, file] of plan.files.entries()) {
    if (fileIds.has(file.key)) continue;
    const ref = `file-${index}`;
    const id = newId();
    presetIds.set(ref, id);
    fileIds.set(file.key, id);
    files.set(fileChanges.length, prepareImportedFile(file));
    // The bytes are prepared already: the change carries neither `base64` nor `url`.
    fileChanges.push({ type: 'insert_file', ref, name: file.name });
  }
  const refOf = new Map<ImportedPage, string>();
  let pageIndex = 0;
  for (const page of preOrder(plan.pages)) {
    const ref = `page-${pageIndex++}`;
    const id = newId();
    presetIds.set(ref, id);
    refOf.set(page, ref);
    if (!pageIds.has(page.key)) pageIds.set(page.key, id);
  }

  const bodyOf = (page: ImportedPage): string | undefined =>
    page.markdown === undefined
      ? undefined
      : rewriteDestinations(
          page.markdown,
          (destination) => {
            const target = plan.resolve(destination, page);
            if (!target) return undefined;
            const pageId = pageIds.get(target.key);
            if (pageId) return `/pages/${pageId}${target.fragment}`;
            const fileId = fileIds.get(target.key);
            if (fileId) return `/files/${fileId}`;
            return target.absolute;
          },
          page.destinations ?? [],
        );
  const bodies = new Map([...preOrder(plan.pages)].map((page) => [page, bodyOf(page)] as const));

  const build: InternalBatch = (base) => {
    const changes = [...fileChanges];
    const place = (pages: ImportedPage[], parent: ImportedPage | null, taken: Set<string>) => {
      for (const page of pages) {
        const slug = freeSlug(slugify(page.slugFrom ?? page.title), taken);
        taken.add(slug);
        const markdown = bodies.get(page);
        changes.push({
          type: 'insert_page',
          ref: refOf.get(page)!,
          parent: parent ? { ref: refOf.get(parent)! } : null,
          title: page.title,
          slug,
          pageType: page.type,
          ...(page.description ? { description: page.description } : {}),
          ...(markdown !== undefined && page.type === 'document' ? { markdown } : {}),
        });
        place(page.children, page, new Set());
      }
    };
    const topSlugs = new Set((base.pages.childrenOf.get(null) ?? []).map((id) => base.pages.pages.get(id)!.slug));
    place(plan.pages, null, topSlugs);
    return { changes, files, presetIds };
  };
  return { build, bodies };
}
