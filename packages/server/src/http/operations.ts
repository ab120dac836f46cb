// The operations of the bundled spec, as the router and the contract tests need them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/**
 * A JSON object of the bundled OpenAPI document (schemas, operations): read by key, shaped by the
 * OpenAPI specification rather than by a TypeScript type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type JsonObject = Record<string, any>;

export type SpecOperation = {
  operationId: string;
  method: HttpMethod;
  /** The spec's path, e.g. `/v1/spaces/{spaceId}`. */
  path: string;
  /** The same path for Express, e.g. `/v1/spaces/:spaceId`. */
  expressPath: string;
  /** False when the operation declares `security: []` (no bearer token). */
  requiresAuth: boolean;
  /** The operation object as bundled (parameters, requestBody, responses). */
  definition: JsonObject;
};

export type OpenApiDocument = {
  paths: Record<string, JsonObject>;
  components?: JsonObject;
  security?: unknown[];
  [key: string]: unknown;
};

let cached: OpenApiDocument | undefined;

/** The bundled spec of packages/contract (read once; callers must not mutate it). */
export function loadSpec(): OpenApiDocument {
  if (!cached) {
    const require = createRequire(import.meta.url);
    cached = JSON.parse(readFileSync(require.resolve('@content-workspace/contract/openapi.json'), 'utf8')) as OpenApiDocument;
  }
  return cached;
}

/** `node` itself, or what its local `$ref` (`#/components/...`) points to, followed until it is not a reference. */
export function resolveRef(spec: OpenApiDocument, node: JsonObject): JsonObject {
  let current = node;
  while (typeof current.$ref === 'string') current = current.$ref.split('/').slice(1).reduce((at: JsonObject, key: string) => at[key], spec as JsonObject);
  return current;
}

const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

export function listOperations(spec: OpenApiDocument = loadSpec()): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const definition = item[method];
      if (!definition) continue;
      const security = (definition.security ?? spec.security ?? []) as unknown[];
      operations.push({
        operationId: definition.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        requiresAuth: security.length > 0 && !security.every((s) => Object.keys(s as object).length === 0),
        definition: { ...definition, parameters: [...(item.parameters ?? []), ...(definition.parameters ?? [])] },
      });
    }
  }
  return operations;
}
