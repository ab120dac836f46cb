// The reference page's request examples (reference-render.ts): for each operation, the call in the SDK
// by its contract name (`x-sdk-name`, tools/openapi/sdk-operations.ts) and the same request in curl,
// both made from the contract — path and required query parameters from their examples, the body from
// the operation's example, else from its schema's required fields. reference-examples.test.ts
// type-checks every SDK example against the SDK, so an example that would not compile fails a test.
import type { JsonObject as Json, OpenApiDocument } from './operations.js';

export type RequestExamples = { sdk: string; curl: string };

const refName = (ref: string) => ref.split('/').pop()!;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The contract's example values for an operation's request, and the snippets that send it. */
export class ExampleWriter {
  constructor(private readonly spec: OpenApiDocument) {}

  private resolve(kind: string, value: Json | undefined): Json | undefined {
    let current = value;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 16; hops++) {
      current = this.spec.components?.[kind]?.[refName(current.$ref)];
    }
    return current;
  }

  /** A value of `schema`: its example, else one made of its required fields (a few levels deep). */
  value(schema: Json | undefined, depth = 0): unknown {
    const resolved = this.resolve('schemas', schema);
    if (!resolved || depth > 4) return {};
    if (resolved.example !== undefined) return resolved.example;
    if (Array.isArray(resolved.examples) && resolved.examples.length) return resolved.examples[0];
    if ('const' in resolved) return resolved.const;
    if (Array.isArray(resolved.enum)) return resolved.enum[0];
    if (resolved.default !== undefined) return resolved.default;
    for (const keyword of ['oneOf', 'anyOf'] as const) if (Array.isArray(resolved[keyword])) return this.value(resolved[keyword][0], depth + 1);
    if (Array.isArray(resolved.allOf)) {
      return Object.assign({}, ...resolved.allOf.map((branch: Json) => this.value(branch, depth + 1)).filter((part: unknown) => typeof part === 'object'));
    }
    const type = Array.isArray(resolved.type) ? resolved.type.find((t: string) => t !== 'null') : resolved.type;
    switch (type) {
      case 'string':
        return resolved.format === 'date-time' ? '2026-01-01T00:00:00Z' : resolved.format === 'uri' ? 'https://example.com' : 'text';
      case 'integer':
      case 'number':
        return resolved.minimum ?? 1;
      case 'boolean':
        return true;
      case 'array':
        return resolved.minItems ? [this.value(resolved.items, depth + 1)] : [];
      default: {
        const required = new Set<string>(resolved.required ?? []);
        const properties = (resolved.properties ?? {}) as Json;
        return Object.fromEntries(Object.entries(properties).filter(([name]) => required.has(name)).map(([name, property]) => [name, this.value(property, depth + 1)]));
      }
    }
  }

  private parameterValue(parameter: Json): unknown {
    if (parameter.example !== undefined) return parameter.example;
    const first = parameter.examples && Object.values(parameter.examples as Json)[0];
    if (first && typeof first === 'object' && 'value' in first) return (first as Json).value;
    const schema = this.resolve('schemas', parameter.schema);
    if (schema?.type === 'string' && !schema.enum && !schema.format && parameter.in === 'path') return `${parameter.name}`;
    return this.value(parameter.schema);
  }

  /** The request body's media type and example value, when the operation takes one. */
  private body(operation: Json): { mediaType: string; value: unknown } | undefined {
    const body = this.resolve('requestBodies', operation.requestBody);
    if (!body?.content) return undefined;
    const [mediaType, media] = Object.entries(body.content as Json)[0] as [string, Json];
    const first = media.examples && Object.values(media.examples as Json)[0];
    const example = media.example ?? (first && typeof first === 'object' && 'value' in first ? (first as Json).value : undefined);
    return { mediaType, value: example ?? this.value(media.schema) };
  }

  /** The SDK call and the curl command for the operation at `method` `path`. */
  examples(path: string, method: string, pathItem: Json, operation: Json): RequestExamples {
    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((raw: Json) => this.resolve('parameters', raw) ?? {});
    const inPath = parameters.filter((parameter) => parameter.in === 'path');
    const query = parameters.filter((parameter) => parameter.in === 'query' && parameter.required);
    const body = this.body(operation);
    const values = new Map(parameters.map((parameter) => [`${parameter.in} ${parameter.name}`, this.parameterValue(parameter)]));

    // SDK: `cw.<x-sdk-name>({ pathParameter, query, body })`.
    const args: string[] = inPath.map((parameter) => `${key(parameter.name)}: ${literal(values.get(`path ${parameter.name}`))}`);
    if (query.length) args.push(`query: { ${query.map((parameter) => `${key(parameter.name)}: ${literal(values.get(`query ${parameter.name}`))}`).join(', ')} }`);
    if (body) args.push(`body: ${literal(body.value, '  ')}`);
    const call = `cw.${operation['x-sdk-name']}(${args.length ? `{ ${args.join(', ')} }` : ''})`;
    const sdk = `const { data } = await ${call};`;

    // curl: the same request, the address and token from the SDK's environment variables.
    const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values.get(`path ${name}`))));
    const search = query.map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(values.get(`query ${parameter.name}`)))}`).join('&');
    const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "$CONTENT_WORKSPACE_URL${url}${search ? `?${search}` : ''}"`];
    const security = (operation.security ?? this.spec.security ?? []) as Json[];
    if (security.length && !security.some((requirement) => Object.keys(requirement).length === 0)) lines.push('-H "Authorization: Bearer $CONTENT_WORKSPACE_TOKEN"');
    if (body) {
      lines.push(`-H "Content-Type: ${body.mediaType}"`);
      const data =
        body.mediaType === 'application/x-www-form-urlencoded' && body.value && typeof body.value === 'object'
          ? new URLSearchParams(Object.entries(body.value as Json).map(([name, value]) => [name, String(value)])).toString()
          : JSON.stringify(body.value);
      lines.push(`--data ${shellQuote(data)}`);
    }
    return { sdk, curl: lines.join(' \\\n  ') };
  }
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A value as a TypeScript literal: objects on several lines beyond a short size. */
function literal(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value) ?? 'undefined';
  if (flat.length <= 60 || value === null || typeof value !== 'object') return tsLiteral(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${literal(item, inner)}`).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(value).map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)}`).join(',\n')}\n${indent}}`;
}

function tsLiteral(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(', ')}]`;
  const entries = Object.entries(value).map(([name, item]) => `${key(name)}: ${tsLiteral(item)}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

/** `text` as one shell word in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
