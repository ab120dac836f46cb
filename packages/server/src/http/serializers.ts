// List responses serialized by code compiled from the contract's response schemas (fast-json-stringify,
// as Fastify does) instead of JSON.stringify: on a 100-item page it takes about half the time
// (bench/README.md). Only lists: on a single object the gain is about a microsecond, not worth a
// compilation (40–90 ms, on an operation's first response of a status, then kept for the process).
//
// The output says what JSON.stringify would say, in the schema's key order: every object schema that
// does not state `additionalProperties` keeps the properties it does not list (fast-json-stringify would
// drop them), and `undefined` properties are left out as JSON.stringify leaves them. Tests validate the
// serializer's own output against the contract (http/router.ts).
import build from 'fast-json-stringify';
import type { JsonObject, OpenApiDocument } from './operations.js';

export type Serialize = (body: unknown) => string;

/** Object schemas keep unlisted properties unless they say otherwise (see above); a copy. */
function keepingUnlistedProperties(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(keepingUnlistedProperties);
  if (node === null || typeof node !== 'object') return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    // Schemas under `properties` are keyed by property name: a property called `example` is a schema.
    copy[key] = key === 'example' || key === 'examples' ? value : keepingUnlistedProperties(value);
  }
  const isObjectSchema = copy.type === 'object' || (Array.isArray(copy.type) && copy.type.includes('object')) || copy.properties !== undefined;
  if (isObjectSchema && copy.additionalProperties === undefined && copy.patternProperties === undefined) copy.additionalProperties = true;
  return copy;
}

/** The JSON schema of `responses[status]` of an operation, or undefined when it has no JSON body. */
function responseSchema(definition: JsonObject, status: number): JsonObject | undefined {
  return definition.responses?.[String(status)]?.content?.['application/json']?.schema as JsonObject | undefined;
}

/** The component a `$ref` names (one hop), or the schema itself. */
function resolved(spec: OpenApiDocument, schema: JsonObject | undefined): JsonObject | undefined {
  const ref = typeof schema?.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref) : null;
  return ref ? (spec.components?.schemas?.[ref[1]!] as JsonObject | undefined) : schema;
}

/**
 * Whether a response schema is a list page (`{items: [...], …}`), following one `$ref`, of items that
 * are not a union: fast-json-stringify picks an item's `oneOf` branch by validating it against each
 * one (the events list, 44 branches: seconds to compile, and slower than JSON.stringify per item).
 */
function isList(spec: OpenApiDocument, schema: JsonObject): boolean {
  const list = resolved(spec, schema);
  const item = resolved(spec, list?.properties?.items?.items as JsonObject | undefined);
  return list?.properties?.items?.type === 'array' && item?.oneOf === undefined && item?.anyOf === undefined;
}

/**
 * Serializers per operation and status: compiled on first use for list pages, JSON.stringify for the
 * rest and for a schema fast-json-stringify cannot compile (the answer is the same, only slower).
 */
export function createSerializers(spec: OpenApiDocument): (operation: { definition: JsonObject }, status: number) => Serialize {
  let components: JsonObject | undefined;
  const compiled = new WeakMap<JsonObject, Map<number, Serialize>>();
  return (operation, status) => {
    let byStatus = compiled.get(operation.definition);
    if (!byStatus) compiled.set(operation.definition, (byStatus = new Map()));
    const known = byStatus.get(status);
    if (known) return known;
    let serialize: Serialize = JSON.stringify;
    const schema = responseSchema(operation.definition, status);
    if (schema && isList(spec, schema)) {
      components ??= keepingUnlistedProperties(spec.components ?? {}) as JsonObject;
      try {
        // `$ref`s point into the document's components: the schema is compiled as a document holding them.
        serialize = build({ ...(keepingUnlistedProperties(schema) as JsonObject), components } as never, { ajv: { strictSchema: false } } as never) as unknown as Serialize;
      } catch {
        serialize = JSON.stringify;
      }
    }
    byStatus.set(status, serialize);
    return serialize;
  };
}
