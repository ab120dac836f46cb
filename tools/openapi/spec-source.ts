// The multi-file spec as its authors wrote it: every file of spec/ that openapi.yaml reaches, parsed
// with positions, so a change can be reported at `spec/<file>:<line>` rather than in a bundle. Files
// come from a reader: the working tree, or a git commit (see spec-git.ts).
import { posix } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

/** Reads a file of spec/ by its path relative to spec/ (`components/schemas/Space.yaml`); undefined when absent. */
export type SpecReader = (path: string) => string | undefined;

export type SpecFile = {
  /** Path relative to spec/, with forward slashes. */
  path: string;
  data: unknown;
  doc: Document.Parsed;
  lines: LineCounter;
};

/** A place in the spec: a file and the keys leading to a value inside it. */
export type Cursor = { file: string; path: (string | number)[] };

export type SpecSource = {
  files: Map<string, SpecFile>;
  root: SpecFile;
};

export const ROOT_FILE = 'openapi.yaml';

export class SpecLoadError extends Error {}

function parseFile(path: string, text: string): SpecFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, keepSourceTokens: false });
  if (doc.errors.length > 0) throw new SpecLoadError(`spec/${path}: ${doc.errors[0]!.message}`);
  return { path, data: doc.toJS({ maxAliasCount: 1000 }), doc, lines };
}

/** Splits a `$ref` found in `fromFile` into the file it names (relative to spec/) and a JSON pointer. */
export function resolveRef(fromFile: string, ref: string): { file: string; pointer: string[] } {
  const [filePart, fragment = ''] = ref.split('#', 2) as [string, string?];
  const file = filePart === '' ? fromFile : posix.normalize(posix.join(posix.dirname(fromFile), filePart));
  const pointer = fragment
    .split('/')
    .slice(1)
    .map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'));
  return { file, pointer };
}

/** The id of what a `$ref` points at: its file, plus the fragment when there is one. */
export function refId(fromFile: string, ref: string): string {
  const { file, pointer } = resolveRef(fromFile, ref);
  return pointer.length ? `${file}#/${pointer.join('/')}` : file;
}

/** Loads openapi.yaml and every file its `$ref`s reach, transitively. */
export function loadSpec(read: SpecReader): SpecSource {
  const files = new Map<string, SpecFile>();
  const pending = [ROOT_FILE];
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (files.has(path)) continue;
    const text = read(path);
    if (text === undefined) throw new SpecLoadError(`spec/${path} is referenced but does not exist`);
    const file = parseFile(path, text);
    files.set(path, file);
    for (const ref of collectRefs(file.data)) {
      const target = resolveRef(path, ref).file;
      if (!files.has(target)) pending.push(target);
    }
  }
  return { files, root: files.get(ROOT_FILE)! };
}

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.push(item);
      else collectRefs(item, out);
    }
  }
  return out;
}

/** The value at a cursor, or undefined. */
export function valueAt(spec: SpecSource, cursor: Cursor): unknown {
  let value: unknown = spec.files.get(cursor.file)?.data;
  for (const key of cursor.path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/**
 * The line (1-based) of a cursor in its file: the line of the last key that exists on the way, so a
 * removed property points at its parent, and a property points at its own key rather than its value.
 */
export function lineAt(spec: SpecSource, cursor: Cursor): number {
  const file = spec.files.get(cursor.file);
  if (!file) return 1;
  let node: Node | null | undefined = file.doc.contents as Node | null;
  let offset = node?.range?.[0] ?? 0;
  for (const key of cursor.path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key]) {
      node = node.items[key] as Node;
      offset = node.range?.[0] ?? offset;
    } else break;
  }
  return file.lines.linePos(offset).line;
}

/**
 * Follows a `$ref` at a cursor (and a chain of them) to the value it names. Returns the cursor of the
 * value and the ids of the files crossed.
 */
export function deref(spec: SpecSource, cursor: Cursor): { cursor: Cursor; value: unknown; via: string[] } {
  const via: string[] = [];
  let current = cursor;
  let value = valueAt(spec, current);
  for (let hops = 0; hops < 32; hops++) {
    const ref = (value as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') break;
    const id = refId(current.file, ref);
    if (via.includes(id)) break;
    via.push(id);
    const { file, pointer } = resolveRef(current.file, ref);
    current = { file, path: pointer };
    value = valueAt(spec, current);
  }
  return { cursor: current, value, via };
}
