// A site's adaptive schema: the claims its visitors carry, as a JSON Schema draft-07 document. Checked
// in two steps: Ajv's draft-07 meta-schema (a valid JSON Schema at all), then the shape this product
// reads (an object of claims of a few kinds, the reserved `unsigned` object of boolean claims). The
// first failure is reported with its JSON pointer.
import { Ajv } from 'ajv';

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const ADAPTIVE_LIMITS = { claims: 100, depth: 2, enumValues: 100 } as const;

export type AdaptiveSchemaDocument = {
  $schema: string;
  $id?: string;
  type: 'object';
  properties: Record<string, ClaimSchema>;
  additionalProperties: false;
  [keyword: string]: unknown;
};

type ClaimSchema = { type: string; properties?: Record<string, ClaimSchema>; items?: ClaimSchema; enum?: unknown[]; [keyword: string]: unknown };

export type CheckedSchema = { ok: true; schema: AdaptiveSchemaDocument } | { ok: false; path: string; message: string };

// One instance for the process: it only validates schemas against the meta-schema (never compiles user schemas).
const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: false });

/** The schema of a site that never had one: no claims. */
export function emptyAdaptiveSchema($id: string): AdaptiveSchemaDocument {
  return { $schema: DRAFT_07, $id, type: 'object', properties: {}, additionalProperties: false };
}

class ShapeError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const escape = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const COMMON_KEYWORDS = new Set(['type', 'title', 'description']);
const KEYWORDS: Record<string, Set<string>> = {
  boolean: new Set([...COMMON_KEYWORDS, 'default']),
  string: new Set([...COMMON_KEYWORDS, 'enum', 'default']),
  number: new Set([...COMMON_KEYWORDS, 'minimum', 'maximum', 'default']),
  integer: new Set([...COMMON_KEYWORDS, 'minimum', 'maximum', 'default']),
  array: new Set([...COMMON_KEYWORDS, 'items']),
  object: new Set([...COMMON_KEYWORDS, 'properties', 'required', 'additionalProperties']),
};
const ROOT_KEYWORDS = new Set(['$schema', '$id', 'type', 'title', 'description', 'properties', 'required', 'additionalProperties']);

function onlyKeywords(schema: Record<string, unknown>, allowed: Set<string>, path: string): void {
  for (const key of Object.keys(schema)) if (!allowed.has(key)) throw new ShapeError(`${path}/${escape(key)}`, `is not allowed here (allowed: ${[...allowed].join(', ')})`);
}

function checkRequired(schema: Record<string, unknown>, path: string): void {
  if (schema.required === undefined) return;
  const properties = schema.properties as Record<string, unknown>;
  (schema.required as string[]).forEach((name, index) => {
    if (!Object.hasOwn(properties, name)) throw new ShapeError(`${path}/required/${index}`, `names no declared claim ("${name}")`);
  });
}

/** The claims of an object: its `properties`, `additionalProperties: false`. */
function checkObject(schema: Record<string, unknown>, path: string, depth: number, count: { claims: number }): void {
  if (schema.additionalProperties !== false) throw new ShapeError(`${path}/additionalProperties`, 'must be false');
  if (!isObject(schema.properties)) throw new ShapeError(`${path}/properties`, 'must be an object of claims');
  checkRequired(schema, path);
  for (const [name, claim] of Object.entries(schema.properties)) checkClaim(claim, `${path}/properties/${escape(name)}`, depth, count);
}

function checkClaim(claim: unknown, path: string, depth: number, count: { claims: number }, inArray = false): void {
  if (++count.claims > ADAPTIVE_LIMITS.claims) throw new ShapeError(path, `a schema declares at most ${ADAPTIVE_LIMITS.claims} claims`);
  if (!isObject(claim)) throw new ShapeError(path, 'must be a claim schema (an object)');
  const type = claim.type;
  if (typeof type !== 'string' || !(type in KEYWORDS)) throw new ShapeError(`${path}/type`, 'must be one of boolean, string, number, integer, array, object');
  onlyKeywords(claim, KEYWORDS[type]!, path);
  switch (type) {
    case 'string':
      if (!Array.isArray(claim.enum) || claim.enum.length === 0) throw new ShapeError(`${path}/enum`, 'a text claim lists its values in `enum`');
      if (claim.enum.length > ADAPTIVE_LIMITS.enumValues) throw new ShapeError(`${path}/enum`, `at most ${ADAPTIVE_LIMITS.enumValues} values`);
      claim.enum.forEach((value, index) => {
        if (typeof value !== 'string') throw new ShapeError(`${path}/enum/${index}`, 'must be a string');
      });
      return;
    case 'array':
      if (inArray) throw new ShapeError(`${path}/type`, 'arrays of arrays are not supported');
      if (!isObject(claim.items)) throw new ShapeError(`${path}/items`, 'must be the schema of the array’s values');
      if (claim.items.type === 'object') throw new ShapeError(`${path}/items/type`, 'arrays hold booleans, texts or numbers');
      return checkClaim(claim.items, `${path}/items`, depth, count, true);
    case 'object':
      if (inArray || depth >= ADAPTIVE_LIMITS.depth) throw new ShapeError(`${path}/type`, `objects nest at most ${ADAPTIVE_LIMITS.depth} levels`);
      return checkObject(claim, path, depth + 1, count);
  }
}

function checkUnsigned(unsigned: unknown, path: string): void {
  if (!isObject(unsigned)) throw new ShapeError(path, 'must be an object schema');
  onlyKeywords(unsigned, KEYWORDS.object!, path);
  if (unsigned.type !== 'object') throw new ShapeError(`${path}/type`, 'must be "object"');
  if (unsigned.additionalProperties !== false) throw new ShapeError(`${path}/additionalProperties`, 'must be false');
  if (!isObject(unsigned.properties)) throw new ShapeError(`${path}/properties`, 'must be an object of claims');
  checkRequired(unsigned, path);
  for (const [name, claim] of Object.entries(unsigned.properties)) {
    const at = `${path}/properties/${escape(name)}`;
    if (!isObject(claim) || claim.type !== 'boolean') throw new ShapeError(`${at}/type`, 'unsigned claims are booleans');
    onlyKeywords(claim, KEYWORDS.boolean!, at);
    if (typeof claim.description !== 'string' || claim.description.length === 0) throw new ShapeError(`${at}/description`, 'an unsigned claim needs a description');
  }
}

/**
 * Checks a document; `base` is the JSON pointer of the document in the request (e.g.
 * `/body/jsonSchema`), so the failing path names the request's field.
 */
export function checkAdaptiveSchema(document: unknown, base = ''): CheckedSchema {
  try {
    if (!isObject(document)) throw new ShapeError(base, 'must be an object');
    if (document.$schema !== DRAFT_07) throw new ShapeError(`${base}/$schema`, `must be "${DRAFT_07}"`);
    if (!ajv.validateSchema(document)) {
      const [error] = ajv.errors ?? [];
      throw new ShapeError(`${base}${error?.instancePath ?? ''}`, `is not valid JSON Schema draft-07: ${error?.message ?? 'invalid'}`);
    }
    onlyKeywords(document, ROOT_KEYWORDS, base);
    if (document.type !== 'object') throw new ShapeError(`${base}/type`, 'must be "object"');
    checkObject(document, base, 0, { claims: 0 });
    const properties = document.properties as Record<string, unknown>;
    if (Object.hasOwn(properties, 'unsigned')) checkUnsigned(properties.unsigned, `${base}/properties/unsigned`);
    return { ok: true, schema: document as AdaptiveSchemaDocument };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, path: error.path, message: error.message };
    throw error;
  }
}

/**
 * Whether the schema declares the claim a condition reads at `path` (`['plan']`, `['unsigned',
 * 'beta']`, `['org', 'tier', 'length']`): each step must be a declared property as long as the schema
 * describes objects; past a boolean, text, number or array the rest is the value's own (`length`, an
 * index).
 */
export function declaresClaim(schema: AdaptiveSchemaDocument, path: ReadonlyArray<string | number>): boolean {
  let node: { type?: unknown; properties?: unknown } = schema;
  for (const step of path) {
    if (node.type !== 'object') return true;
    const properties = (isObject(node.properties) ? node.properties : {}) as Record<string, { type?: unknown; properties?: unknown }>;
    if (typeof step !== 'string' || !Object.hasOwn(properties, step)) return false;
    node = properties[step]!;
  }
  return true;
}
