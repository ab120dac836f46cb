// The operations of a (multi-file) spec, and what each one reaches: every file its parameters, request
// body and responses lead to through `$ref`s, transitively, with the direction the data travels. A change
// inside a schema file then names every operation it affects, and is judged by the direction(s) in which
// the schema is used (a field made optional breaks a response, not a request).
import { posix } from 'node:path';
import { deref, refId, valueAt, type Cursor, type SpecSource } from './spec-source.js';

export type Direction = 'request' | 'response';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export type Operation = {
  /** `GET /v1/spaces/{spaceId}`: how reports name an operation. */
  key: string;
  /** The same with path parameters unnamed (`GET /v1/spaces/{}`): how two versions are matched. */
  matchKey: string;
  method: string;
  path: string;
  operationId: string | undefined;
  /** The operation object. */
  cursor: Cursor;
  /** Its path item (for path-level parameters). */
  pathItem: Cursor;
};

export function listOperations(spec: SpecSource): Operation[] {
  const paths = (spec.root.data as { paths?: Record<string, unknown> }).paths ?? {};
  const operations: Operation[] = [];
  for (const path of Object.keys(paths)) {
    const item = deref(spec, { file: spec.root.path, path: ['paths', path] });
    const value = item.value as Record<string, { operationId?: string } | undefined> | undefined;
    if (!value) continue;
    for (const method of HTTP_METHODS) {
      if (!value[method]) continue;
      const upper = method.toUpperCase();
      operations.push({
        key: `${upper} ${path}`,
        matchKey: `${upper} ${path.replace(/\{[^}]*\}/g, '{}')}`,
        method: upper,
        path,
        operationId: value[method]!.operationId,
        cursor: { file: item.cursor.file, path: [...item.cursor.path, method] },
        pathItem: item.cursor,
      });
    }
  }
  return operations;
}

/** How an operation reaches a file: in which directions, and the first way found (for the report). */
export type Usage = { operation: Operation; directions: Set<Direction>; via: string };

/** For each file id reached from an operation: the operations reaching it. */
export type Reach = Map<string, Map<string, Usage>>;

/** A readable name for what a `$ref` id points at: `Space`, `NotFound`, `Limit`. */
export function shortName(id: string): string {
  const [file, fragment] = id.split('#', 2) as [string, string?];
  const base = posix.basename(file).replace(/\.(ya?ml|json)$/, '');
  return fragment ? `${base}#${fragment}` : base;
}

/** The bundled document's name for a component file (`#/components/schemas/Space`), else the file. */
export function componentPointer(id: string): string {
  const match = /^components\/([^/]+)\/([^/#]+)\.(?:ya?ml|json)(#.*)?$/.exec(id);
  if (match) return `#/components/${match[1]}/${match[2]}${match[3] ? match[3].slice(1) : ''}`;
  return `spec/${id}`;
}

export function computeReach(spec: SpecSource, operations: Operation[]): Reach {
  const reach: Reach = new Map();
  const record = (id: string, operation: Operation, direction: Direction, via: string) => {
    let users = reach.get(id);
    if (!users) reach.set(id, (users = new Map()));
    const usage = users.get(operation.key);
    if (usage) usage.directions.add(direction);
    else users.set(operation.key, { operation, directions: new Set([direction]), via });
  };

  for (const operation of operations) {
    const seen = new Set<string>();
    const walk = (value: unknown, fromFile: string, direction: Direction, trail: string) => {
      if (Array.isArray(value)) {
        for (const item of value) walk(item, fromFile, direction, trail);
        return;
      }
      if (!value || typeof value !== 'object') return;
      for (const [key, item] of Object.entries(value)) {
        if (key === '$ref' && typeof item === 'string') {
          const id = refId(fromFile, item);
          const via = `${trail} › ${shortName(id)}`;
          record(id, operation, direction, via);
          if (seen.has(`${direction} ${id}`)) continue;
          seen.add(`${direction} ${id}`);
          const resolved = resolveId(spec, id);
          walk(resolved.value, resolved.file, direction, via);
        } else if (key !== 'examples' && key !== 'example') walk(item, fromFile, direction, trail);
      }
    };
    const op = valueAt(spec, operation.cursor) as Record<string, unknown>;
    const item = valueAt(spec, operation.pathItem) as Record<string, unknown>;
    walk(item.parameters, operation.pathItem.file, 'request', 'parameters');
    walk(op.parameters, operation.cursor.file, 'request', 'parameters');
    walk(op.requestBody, operation.cursor.file, 'request', 'request body');
    for (const [status, response] of Object.entries((op.responses as Record<string, unknown> | undefined) ?? {})) {
      walk(response, operation.cursor.file, 'response', `${status} response`);
    }
  }
  return reach;
}

/** The value a `$ref` id names. */
export function resolveId(spec: SpecSource, id: string): { file: string; path: string[]; value: unknown } {
  const [file, fragment] = id.split('#', 2) as [string, string?];
  const path = fragment ? fragment.split('/').slice(1) : [];
  return { file, path, value: valueAt(spec, { file, path }) };
}
