// The API reference as one static HTML page, rendered from the bundled contract: every operation with
// its declared access, parameters, request body, responses and examples, then every schema. No
// script is needed to read it (a small local one filters the list), nothing is loaded from another
// origin, and the same page is served at /docs and written by `pnpm docs:build`.
import MarkdownIt from 'markdown-it';
import type { JsonObject, OpenApiDocument } from './operations.js';
import { REFERENCE_ASSETS } from './reference-assets.js';
import { ExampleWriter } from './reference-examples.js';

type Json = JsonObject;

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

// Spec prose is Markdown written by us; raw HTML in it is still not trusted (`html: false`), and
// markdown-it refuses `javascript:` and similar links.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

function escape(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function md(text: unknown): string {
  return typeof text === 'string' && text.trim() ? markdown.render(text) : '';
}

function mdInline(text: string): string {
  return markdown.renderInline(text);
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const schemaAnchor = (name: string) => `schema-${name}`;
const refName = (ref: string) => ref.split('/').pop()!;

type Access = { scope?: unknown; minimum?: unknown; rule?: unknown };

/** The named rules of an `x-access` (one name or a list). */
export function accessRules(access: Access): string[] {
  if (access.rule === undefined || access.rule === null) return [];
  return (Array.isArray(access.rule) ? access.rule : [access.rule]).map(String);
}

/** `{scope, minimum}` as a reader says it: "`admin` on the space". */
export function accessSentence(access: Access): string {
  const scope = String(access.scope ?? '');
  const minimum = String(access.minimum ?? '');
  if (scope === 'public') return 'public: no bearer token (the request carries its own credential)';
  if (minimum === 'authenticated') return 'any authenticated user';
  if (minimum === 'guest') return `any member of the ${escape(scope)}, guests included`;
  if (minimum === 'member') return `a member of the ${escape(scope)} (not a guest)`;
  const where = scope === 'change-request' ? "the change request's space" : `the ${escape(scope)}`;
  return `<code>${escape(minimum)}</code> on ${where}`;
}

/** The first sentence of a description: where our operations say who may call them. */
function firstSentence(description: unknown): string | undefined {
  if (typeof description !== 'string' || !description.trim()) return undefined;
  const flat = description.trim().replace(/\s+/g, ' ');
  return /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
}

function accessLine(operation: Json, requiresToken: boolean, ruleTexts: Json): string {
  const declared = operation['x-access'];
  if (declared && typeof declared === 'object') {
    const rules = accessRules(declared).map((rule) => `<li><code>${escape(rule)}</code>${typeof ruleTexts[rule] === 'string' ? `: ${mdInline(ruleTexts[rule])}` : ''}</li>`);
    const list = rules.length ? `\n<ul class="access-rules">${rules.join('')}</ul>` : '';
    return `<div class="access" data-declared="true"><p>Access: ${accessSentence(declared)}</p>${list}</div>`;
  }
  // Until every operation declares x-access, its description says who may call it.
  const prose = firstSentence(operation.description);
  const token = requiresToken ? '' : ' No bearer token.';
  return `<div class="access" data-declared="false"><p>Access (from the description): ${prose ? mdInline(prose) : 'not stated.'}${token}</p></div>`;
}

class Renderer {
  constructor(private readonly spec: OpenApiDocument) {}

  private component(kind: string, value: Json | undefined): Json | undefined {
    let current = value;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 16; hops++) {
      current = this.spec.components?.[kind]?.[refName(current.$ref)];
    }
    return current;
  }

  /** A schema's type as a short phrase with links to named schemas: `string ≤ 50`, `array of Space`. */
  typeOf(schema: Json | undefined, depth = 0): string {
    if (!schema || depth > 6) return 'any';
    if (typeof schema.$ref === 'string') {
      const name = refName(schema.$ref);
      return `<a href="#${schemaAnchor(name)}">${escape(name)}</a>`;
    }
    const parts: string[] = [];
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[keyword])) parts.push(schema[keyword].map((branch: Json) => this.typeOf(branch, depth + 1)).join(' | '));
    }
    if (Array.isArray(schema.allOf)) parts.push(schema.allOf.map((branch: Json) => this.typeOf(branch, depth + 1)).join(' & '));
    if ('const' in schema) parts.push(`<code>${escape(JSON.stringify(schema.const))}</code>`);
    else if (Array.isArray(schema.enum)) parts.push(schema.enum.map((value: unknown) => `<code>${escape(JSON.stringify(value))}</code>`).join(' | '));
    else if (schema.type !== undefined) {
      const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
      parts.push(
        types
          .map((type) => {
            if (type === 'array') return `array of ${this.typeOf(schema.items, depth + 1)}`;
            if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') return `map of ${this.typeOf(schema.additionalProperties, depth + 1)}`;
            return escape(type);
          })
          .join(' | '),
      );
    }
    const limits = constraints(schema);
    return (parts.join(' ') || 'any') + (limits ? ` <span class="limits">${escape(limits)}</span>` : '');
  }

  /** Rows of a fields table: nested inline objects are flattened as `urls.location`. */
  fieldRows(schema: Json | undefined, prefix = '', depth = 0): string[] {
    const resolved = schema;
    if (!resolved || typeof resolved !== 'object' || !resolved.properties || depth > 3) return [];
    const required = new Set<string>(resolved.required ?? []);
    const rows: string[] = [];
    for (const [name, property] of Object.entries(resolved.properties as Json)) {
      const full = `${prefix}${name}`;
      rows.push(
        `<tr><td><code>${escape(full)}</code></td><td>${this.typeOf(property)}</td><td>${required.has(name) ? 'required' : ''}</td><td>${md(property.description)}</td></tr>`,
      );
      if (!property.$ref && property.properties) rows.push(...this.fieldRows(property, `${full}.`, depth + 1));
      if (!property.$ref && property.type === 'array' && property.items?.properties) rows.push(...this.fieldRows(property.items, `${full}[].`, depth + 1));
    }
    return rows;
  }

  schemaBlock(schema: Json | undefined): string {
    if (!schema) return '';
    const out: string[] = [`<p class="schema-type">${this.typeOf(schema)}</p>`];
    const target = typeof schema.$ref === 'string' ? undefined : schema;
    const rows = this.fieldRows(target);
    if (rows.length) out.push(fieldsTable(rows));
    return out.join('\n');
  }

  example(media: Json | undefined): unknown {
    if (!media) return undefined;
    if (media.example !== undefined) return media.example;
    const first = media.examples && Object.values(media.examples as Json)[0];
    if (first && typeof first === 'object' && 'value' in first) return (first as Json).value;
    const schema = this.component('schemas', media.schema);
    if (Array.isArray(schema?.examples) && schema.examples.length) return schema.examples[0];
    return schema?.example;
  }

  exampleBlock(media: Json | undefined): string {
    const value = this.example(media);
    if (value === undefined) return '';
    return `<details class="example"><summary>Example</summary><pre><code>${escape(JSON.stringify(value, null, 2))}</code></pre></details>`;
  }

  parameters(parameters: Json[]): string {
    if (!parameters.length) return '';
    const rows = parameters.map((raw) => {
      const parameter = this.component('parameters', raw) ?? {};
      return `<tr><td><code>${escape(parameter.name)}</code></td><td>${escape(parameter.in)}</td><td>${this.typeOf(parameter.schema)}</td><td>${parameter.required ? 'required' : ''}</td><td>${md(parameter.description)}</td></tr>`;
    });
    return `<h4>Parameters</h4>\n<table class="parameters"><thead><tr><th>name</th><th>in</th><th>type</th><th></th><th>description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }

  requestBody(raw: Json | undefined): string {
    const body = this.component('requestBodies', raw);
    if (!body) return '';
    const out = [`<h4>Request body${body.required ? '' : ' (optional)'}</h4>`, md(body.description)];
    for (const [mediaType, media] of Object.entries((body.content ?? {}) as Json)) {
      out.push(`<p class="media-type"><code>${escape(mediaType)}</code></p>`, this.schemaBlock(media.schema), this.exampleBlock(media));
    }
    return out.join('\n');
  }

  responses(responses: Json): string {
    const out = ['<h4>Responses</h4>', '<dl class="responses">'];
    for (const [status, raw] of Object.entries(responses)) {
      const response = this.component('responses', raw as Json) ?? {};
      const kind = status.startsWith('2') ? 'success' : status.startsWith('3') ? 'redirect' : 'error';
      out.push(`<dt class="status ${kind}">${escape(status)}</dt>`, `<dd>${md(response.description)}`);
      for (const [mediaType, media] of Object.entries((response.content ?? {}) as Json)) {
        out.push(`<p class="media-type"><code>${escape(mediaType)}</code> ${this.typeOf(media.schema)}</p>`);
        if (kind === 'success') out.push(this.exampleBlock(media));
      }
      const headers = Object.keys((response.headers ?? {}) as Json);
      if (headers.length) out.push(`<p class="headers">Headers: ${headers.map((header) => `<code>${escape(header)}</code>`).join(', ')}</p>`);
      out.push('</dd>');
    }
    out.push('</dl>');
    return out.join('\n');
  }

  render(): string {
    const spec = this.spec;
    const info: Json = (spec.info as Json) ?? {};
    const tags: Json[] = (spec.tags as Json[]) ?? [];
    type Entry = { method: string; path: string; pathItem: Json; operation: Json; parameters: Json[]; requiresToken: boolean };
    const byTag = new Map<string, Entry[]>(tags.map((tag) => [tag.name as string, []]));
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const security = (operation.security ?? spec.security ?? []) as Json[];
        const requiresToken = security.length > 0 && !security.some((requirement) => Object.keys(requirement).length === 0);
        const tag = (operation.tags?.[0] as string | undefined) ?? 'Other';
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag)!.push({ method, path, pathItem: item, operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])], requiresToken });
      }
    }
    const tagDescription = new Map(tags.map((tag) => [tag.name as string, tag.description as string | undefined]));
    const opAnchor = (entry: Entry) => `op-${entry.operation.operationId ?? slug(`${entry.method} ${entry.path}`)}`;

    const examples = new ExampleWriter(spec);
    const nav: string[] = [];
    const sections: string[] = [];
    for (const [tag, entries] of byTag) {
      if (!entries.length) continue;
      const tagId = `tag-${slug(tag)}`;
      nav.push(`<li><a href="#${tagId}">${escape(tag)}</a><ul>`);
      sections.push(`<section class="tag" id="${tagId}"><h2>${escape(tag)}</h2>${md(tagDescription.get(tag))}`);
      for (const entry of entries) {
        const { method, path, operation } = entry;
        const search = `${method} ${path} ${operation.operationId ?? ''} ${operation['x-sdk-name'] ?? ''} ${operation.summary ?? ''}`.toLowerCase();
        nav.push(`<li data-search="${escape(search)}"><a href="#${opAnchor(entry)}"><span class="method ${method}">${method.toUpperCase()}</span> ${escape(operation.summary ?? path)}</a></li>`);
        sections.push(
          [
            `<article class="operation" id="${opAnchor(entry)}" data-operation-id="${escape(operation.operationId ?? '')}" data-method="${method}" data-path="${escape(path)}" data-search="${escape(search)}">`,
            `<h3>${escape(operation.summary ?? `${method.toUpperCase()} ${path}`)} <a class="anchor" href="#${opAnchor(entry)}" aria-label="Link to this operation">#</a></h3>`,
            `<p class="endpoint"><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code> <span class="operation-id">${escape(operation.operationId ?? '')}</span></p>`,
            accessLine(operation, entry.requiresToken, (spec['x-access-rules'] as Json | undefined) ?? {}),
            `<div class="description">${md(operation.description)}</div>`,
            requestExamples(examples.examples(path, method, entry.pathItem, operation), operation['x-sdk-name']),
            this.parameters(entry.parameters),
            this.requestBody(operation.requestBody),
            this.responses(operation.responses ?? {}),
            '</article>',
          ].join('\n'),
        );
      }
      nav.push('</ul></li>');
      sections.push('</section>');
    }

    const schemas = Object.entries((spec.components?.schemas ?? {}) as Json).map(([name, schema]) => {
      const rows = this.fieldRows(schema);
      const example = Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
      return [
        `<article class="schema" id="${schemaAnchor(name)}">`,
        `<h3>${escape(name)}</h3>`,
        md(schema.description),
        `<p class="schema-type">${this.typeOf({ ...schema, properties: undefined, title: undefined, description: undefined })}</p>`,
        rows.length ? fieldsTable(rows) : '',
        example !== undefined ? `<details class="example"><summary>Example</summary><pre><code>${escape(JSON.stringify(example, null, 2))}</code></pre></details>` : '',
        '</article>',
      ].join('\n');
    });

    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(info.title ?? 'API')} ${escape(info.version ?? '')}: reference</title>
<link rel="stylesheet" href="${REFERENCE_ASSETS.css}">
<script src="${REFERENCE_ASSETS.js}" defer></script>
</head>
<body>
<nav class="sidebar" aria-label="Operations">
<p class="brand"><a href="#top">${escape(info.title ?? 'API')}</a> <span class="version">${escape(info.version ?? '')}</span></p>
<input type="search" id="filter" placeholder="Search operations" aria-label="Search operations" autocomplete="off">
<ul class="toc">
${nav.join('\n')}
<li><a href="#schemas">Schemas</a></li>
</ul>
</nav>
<main id="top">
<header>
<h1>${escape(info.title ?? 'API')} <span class="version">${escape(info.version ?? '')}</span></h1>
${info.summary ? `<p class="summary">${escape(info.summary)}</p>` : ''}
${md(info.description)}
<p class="download">The contract: <a href="${REFERENCE_ASSETS.spec}" download>openapi.json</a> (OpenAPI ${escape(spec.openapi ?? '')}).</p>
</header>
${sections.join('\n')}
<section id="schemas"><h2>Schemas</h2>
${schemas.join('\n')}
</section>
</main>
</body>
</html>
`;
  }
}

function constraints(schema: Json): string {
  const parts: string[] = [];
  if (schema.format) parts.push(schema.format);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) parts.push(`${schema.minLength}–${schema.maxLength} chars`);
  else if (schema.maxLength !== undefined) parts.push(`≤ ${schema.maxLength} chars`);
  else if (schema.minLength !== undefined) parts.push(`≥ ${schema.minLength} chars`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.maxItems !== undefined) parts.push(`≤ ${schema.maxItems} items`);
  if (schema.minItems) parts.push(`≥ ${schema.minItems} items`);
  if (schema.pattern) parts.push(`/${schema.pattern}/`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

/** An operation's request in the SDK (under its contract name) and in curl. */
function requestExamples({ sdk, curl }: { sdk: string; curl: string }, sdkName: unknown): string {
  return [
    '<div class="request-examples">',
    `<h4>Request</h4>`,
    `<p class="example-label">SDK: <code>cw.${escape(sdkName)}</code></p><pre class="example-sdk"><code>${escape(sdk)}</code></pre>`,
    `<p class="example-label">curl</p><pre class="example-curl"><code>${escape(curl)}</code></pre>`,
    '</div>',
  ].join('\n');
}

function fieldsTable(rows: string[]): string {
  return `<table class="fields"><thead><tr><th>field</th><th>type</th><th></th><th>description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The reference page for a bundled contract. */
export function renderReference(spec: OpenApiDocument): string {
  return new Renderer(spec).render();
}
