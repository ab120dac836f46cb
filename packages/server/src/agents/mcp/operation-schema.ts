// Tool input schemas taken from the contract (packages/contract's bundled spec), never written twice: an
// operation's path and query parameters and its request body's properties become one JSON Schema
// object, with the components it refers to carried along as `$defs` (some are recursive, so they are
// referred to rather than inlined).
import { listOperations, loadSpec, type JsonObject, type SpecOperation } from '../../http/operations.js';

export type JsonSchema = JsonObject;

/** Where each property of a tool's input goes in the REST request. */
export type InputPlacement = { path: string[]; query: string[]; body: string[] };

const COMPONENT_SCHEMA = '#/components/schemas/';

let operationsById: Map<string, SpecOperation> | undefined;

export function specOperation(operationId: string): SpecOperation {
  operationsById ??= new Map(listOperations().map((operation) => [operation.operationId, operation]));
  const operation = operationsById.get(operationId);
  if (!operation) throw new Error(`The contract has no operation ${operationId}`);
  return operation;
}

function resolveParameter(parameter: JsonObject): JsonObject {
  const ref = parameter.$ref as string | undefined;
  if (!ref) return parameter;
  const name = ref.replace('#/components/parameters/', '');
  return loadSpec().components?.parameters?.[name] as JsonObject;
}

/** The schema a component name stands for (throws for a name the contract lacks: a programming error). */
export function componentSchema(name: string): JsonSchema {
  const schema = loadSpec().components?.schemas?.[name] as JsonSchema | undefined;
  if (!schema) throw new Error(`The contract has no schema ${name}`);
  return schema;
}

/** A copy of `schema` with component references pointing into `$defs`, and the names it reached. */
function relocate(schema: unknown, reached: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => relocate(item, reached));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    // `examples` and the discriminator's mapping restate what the schema says, for documentation.
    if (key === 'examples' || key === 'discriminator') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMA)) {
      const name = value.slice(COMPONENT_SCHEMA.length);
      reached.add(name);
      copy.$ref = `#/$defs/${name}`;
    } else copy[key] = relocate(value, reached);
  }
  return copy;
}

/** `properties` (and what they refer to) as one object schema with `$defs`. */
export function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  const reached = new Set<string>();
  const relocated = relocate(properties, reached) as Record<string, JsonSchema>;
  const defs: Record<string, JsonSchema> = {};
  const pending = [...reached];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (defs[name]) continue;
    const found = new Set<string>();
    defs[name] = relocate(componentSchema(name), found) as JsonSchema;
    for (const next of found) if (!defs[next]) pending.push(next);
  }
  return {
    type: 'object',
    properties: relocated,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/** The parameters an operation takes (path and query), by where they go, with their schemas. */
export function operationParameters(operationId: string, options: { omit?: string[] } = {}): { properties: Record<string, JsonSchema>; required: string[]; placement: InputPlacement } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const placement: InputPlacement = { path: [], query: [], body: [] };
  for (const raw of (specOperation(operationId).definition.parameters ?? []) as JsonObject[]) {
    const parameter = resolveParameter(raw);
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    if (options.omit?.includes(parameter.name)) continue;
    properties[parameter.name] = { ...(parameter.schema as JsonSchema), ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.required) required.push(parameter.name);
    placement[parameter.in as 'path' | 'query'].push(parameter.name);
  }
  return { properties, required, placement };
}

/** The JSON request body schema of an operation (resolved when it is a component reference). */
export function requestBodySchema(operationId: string): JsonSchema | undefined {
  const schema = specOperation(operationId).definition.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
  if (!schema?.$ref) return schema;
  return componentSchema(String(schema.$ref).slice(COMPONENT_SCHEMA.length));
}
