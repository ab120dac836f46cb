// Compares two versions of the multi-file spec and lists every change, each with the rule it falls
// under (spec-rules.ts), where it is (a JSON-pointer-like address and a `spec/<file>:<line>`), its old
// and new value, and the operations it reaches. Operations are compared one by one; a file that both
// versions reference (a schema, parameter or response component) is compared once, on its own, and its
// changes name every operation that reaches it in either version.
import { ACCESS_MINIMUMS, severityOf, type RuleId, type Severity } from './spec-rules.js';
import {
  componentPointer,
  computeReach,
  listOperations,
  shortName,
  type Direction,
  type Operation,
  type Reach,
} from './spec-operations.js';
import { deref, lineAt, refId, ROOT_FILE, valueAt, type Cursor, type SpecSource } from './spec-source.js';

export type Location = { file: string; line: number; side: 'base' | 'head' };

export type ReachedOperation = { key: string; operationId: string | undefined; via: string };

export type Change = {
  rule: RuleId;
  severity: Severity;
  /** `#/components/schemas/Space/properties/emoji`, `GET /v1/spaces/{spaceId}#/parameters/query/shareKey`. */
  at: string;
  message: string;
  before?: unknown;
  after?: unknown;
  location: Location;
  /** Directions in which the changed place is used (empty for a component no operation uses). */
  directions: Direction[];
  operations: ReachedOperation[];
};

type Json = Record<string, any>;

/** One side of a comparison: where a value is, and the value. */
type Side = { cursor: Cursor; value: any };

type Subject = { at: string; directions: Set<Direction>; operations: ReachedOperation[] };

class Comparison {
  readonly changes: Change[] = [];
  private readonly inline = new Set<string>();

  constructor(
    readonly base: SpecSource,
    readonly head: SpecSource,
  ) {}

  emit(
    subject: Subject,
    pointer: string[],
    rule: RuleId,
    message: string,
    sides: { base?: Side | undefined; head?: Side | undefined; before?: unknown; after?: unknown; directions?: Set<Direction> },
  ) {
    const directions = sides.directions ?? subject.directions;
    const location: Location = sides.head
      ? { file: `spec/${sides.head.cursor.file}`, line: lineAt(this.head, sides.head.cursor), side: 'head' }
      : { file: `spec/${sides.base!.cursor.file}`, line: lineAt(this.base, sides.base!.cursor), side: 'base' };
    this.changes.push({
      rule,
      severity: severityOf(rule, directions),
      at: pointer.length ? `${subject.at}/${pointer.map(escapePointer).join('/')}` : subject.at.replace(/(.)#$/, '$1'),
      message,
      ...('before' in sides ? { before: sides.before } : {}),
      ...('after' in sides ? { after: sides.after } : {}),
      location,
      directions: [...directions].sort(),
      operations: subject.operations,
    });
  }

  // ---- prose -------------------------------------------------------------------------------------

  prose(subject: Subject, pointer: string[], base: Side, head: Side, what: string) {
    for (const [key, rule] of [
      ['summary', 'summary-changed'],
      ['description', 'description-changed'],
      ['title', 'title-changed'],
    ] as const) {
      const before = base.value?.[key];
      const after = head.value?.[key];
      if (before === after || (typeof before !== 'string' && typeof after !== 'string')) continue;
      this.emit(subject, [...pointer, key], rule, `${key} of ${what} changed`, {
        base: child(base, key),
        head: after === undefined ? undefined : child(head, key),
        before: before ?? null,
        after: after ?? null,
      });
    }
  }

  // ---- schemas -----------------------------------------------------------------------------------

  schema(subject: Subject, pointer: string[], base: Side, head: Side, name: string) {
    const baseRef = base.value?.$ref;
    const headRef = head.value?.$ref;
    if (typeof baseRef === 'string' || typeof headRef === 'string') {
      const baseId = typeof baseRef === 'string' ? refId(base.cursor.file, baseRef) : undefined;
      const headId = typeof headRef === 'string' ? refId(head.cursor.file, headRef) : undefined;
      this.prose(subject, pointer, base, head, name);
      // Both name the same file: it is compared once, on its own, with everything that reaches it.
      if (baseId && baseId === headId) return;
      if (baseId !== headId) {
        this.emit(subject, pointer, 'schema-ref-changed', `${name} now refers to ${headId ? shortName(headId) : 'an inline schema'} instead of ${baseId ? shortName(baseId) : 'an inline schema'}`, {
          base,
          head,
          before: baseId ? componentPointer(baseId) : null,
          after: headId ? componentPointer(headId) : null,
        });
      }
      const key = `${baseId ?? base.cursor.file + base.cursor.path.join('/')}|${headId ?? head.cursor.file + head.cursor.path.join('/')}`;
      if (this.inline.has(key)) return;
      this.inline.add(key);
      try {
        const baseTarget = baseId ? deref(this.base, base.cursor) : { cursor: base.cursor, value: base.value };
        const headTarget = headId ? deref(this.head, head.cursor) : { cursor: head.cursor, value: head.value };
        this.schemaBody(subject, pointer, baseTarget, headTarget, name);
      } finally {
        this.inline.delete(key);
      }
      return;
    }
    this.prose(subject, pointer, base, head, name);
    this.schemaBody(subject, pointer, base, head, name);
  }

  private schemaBody(subject: Subject, pointer: string[], base: Side, head: Side, name: string) {
    const o: Json = base.value ?? {};
    const n: Json = head.value ?? {};
    const sides = (key: string) => ({ base: child(base, key), head: key in n ? child(head, key) : undefined });

    // type and null
    const oldTypes = typesOf(o);
    const newTypes = typesOf(n);
    if (oldTypes && newTypes) {
      const added = [...newTypes].filter((type) => !oldTypes.has(type) && !(type === 'number' && oldTypes.has('integer')));
      const removed = [...oldTypes].filter((type) => !newTypes.has(type) && !(type === 'integer' && newTypes.has('number')));
      const integerToNumber = oldTypes.has('integer') && !oldTypes.has('number') && newTypes.has('number');
      const numberToInteger = oldTypes.has('number') && !newTypes.has('number') && newTypes.has('integer');
      const widened = added.length > 0 || integerToNumber;
      const narrowed = removed.length > 0 || numberToInteger;
      if (widened || narrowed) {
        const rule: RuleId = widened && narrowed ? 'type-changed' : widened ? 'type-widened' : 'type-narrowed';
        this.emit(subject, pointer, rule, `type of ${name} changed from ${[...oldTypes].join('|')} to ${[...newTypes].join('|')}`, {
          ...sides('type'),
          before: [...oldTypes],
          after: [...newTypes],
        });
      }
    } else if (oldTypes || newTypes) {
      const rule: RuleId = newTypes ? 'type-narrowed' : 'type-widened';
      this.emit(subject, pointer, rule, `${name} ${newTypes ? `is now restricted to type ${[...newTypes].join('|')}` : 'no longer declares a type'}`, {
        ...sides('type'),
        before: oldTypes ? [...oldTypes] : null,
        after: newTypes ? [...newTypes] : null,
      });
    }
    const oldNull = isNullable(o);
    const newNull = isNullable(n);
    if (oldNull !== newNull) {
      this.emit(subject, pointer, newNull ? 'nullable-added' : 'nullable-removed', `${name} ${newNull ? 'may now be null' : 'may no longer be null'}`, {
        base,
        head,
        before: oldNull,
        after: newNull,
      });
    }

    // enum and const
    const oldEnum = Array.isArray(o.enum) ? o.enum.filter((value: unknown) => value !== null) : undefined;
    const newEnum = Array.isArray(n.enum) ? n.enum.filter((value: unknown) => value !== null) : undefined;
    if (oldEnum && newEnum) {
      for (const value of oldEnum) {
        if (!newEnum.some((other: unknown) => equal(other, value))) {
          this.emit(subject, [...pointer, 'enum', String(value)], 'enum-value-removed', `${name} no longer allows ${JSON.stringify(value)}`, { ...sides('enum'), before: value });
        }
      }
      for (const value of newEnum) {
        if (!oldEnum.some((other: unknown) => equal(other, value))) {
          this.emit(subject, [...pointer, 'enum', String(value)], 'enum-value-added', `${name} now allows ${JSON.stringify(value)}`, { ...sides('enum'), after: value });
        }
      }
    } else if (oldEnum || newEnum) {
      this.emit(subject, [...pointer, 'enum'], newEnum ? 'enum-added' : 'enum-removed', `${name} ${newEnum ? 'is now restricted to' : 'is no longer restricted to'} ${JSON.stringify(newEnum ?? oldEnum)}`, {
        ...sides('enum'),
        before: oldEnum ?? null,
        after: newEnum ?? null,
      });
    }
    if (('const' in o || 'const' in n) && !equal(o.const, n.const)) {
      this.emit(subject, [...pointer, 'const'], 'const-changed', `constant ${name} changed from ${JSON.stringify(o.const)} to ${JSON.stringify(n.const)}`, {
        ...sides('const'),
        before: o.const ?? null,
        after: n.const ?? null,
      });
    }

    // limits
    for (const [keyword, kind] of LIMITS) {
      const before = o[keyword];
      const after = n[keyword];
      if (equal(before, after)) continue;
      const narrowed = limitNarrowed(kind, before, after);
      this.emit(subject, [...pointer, keyword], narrowed ? 'limit-narrowed' : 'limit-widened', `${keyword} of ${name} changed from ${before ?? 'none'} to ${after ?? 'none'}`, {
        ...sides(keyword),
        before: before ?? null,
        after: after ?? null,
      });
    }
    for (const keyword of ['pattern', 'format'] as const) {
      const before = o[keyword];
      const after = n[keyword];
      if (before === after) continue;
      const rule = (before === undefined ? `${keyword}-added` : after === undefined ? `${keyword}-removed` : `${keyword}-changed`) as RuleId;
      this.emit(subject, [...pointer, keyword], rule, `${keyword} of ${name} changed from ${before ?? 'none'} to ${after ?? 'none'}`, {
        ...sides(keyword),
        before: before ?? null,
        after: after ?? null,
      });
    }
    if (!equal(o.default, n.default)) {
      this.emit(subject, [...pointer, 'default'], 'default-changed', `default of ${name} changed from ${JSON.stringify(o.default) ?? 'none'} to ${JSON.stringify(n.default) ?? 'none'}`, {
        ...sides('default'),
        before: o.default ?? null,
        after: n.default ?? null,
      });
    }
    if (!o.deprecated && n.deprecated) this.emit(subject, pointer, 'schema-deprecated', `${name} is deprecated`, { base, head });
    if (o.discriminator?.propertyName !== n.discriminator?.propertyName && (o.discriminator || n.discriminator)) {
      this.emit(subject, [...pointer, 'discriminator'], 'discriminator-changed', `discriminator of ${name} changed`, {
        ...sides('discriminator'),
        before: o.discriminator?.propertyName ?? null,
        after: n.discriminator?.propertyName ?? null,
      });
    }

    // fields
    const oldProps: Json = o.properties ?? {};
    const newProps: Json = n.properties ?? {};
    const oldRequired = new Set<string>(Array.isArray(o.required) ? o.required : []);
    const newRequired = new Set<string>(Array.isArray(n.required) ? n.required : []);
    for (const field of Object.keys(oldProps)) {
      const fieldPointer = [...pointer, 'properties', field];
      if (!(field in newProps)) {
        this.emit(subject, fieldPointer, 'property-removed', `field \`${field}\` of ${name} removed`, {
          base: child(child(base, 'properties'), field),
          head: n.properties ? child(head, 'properties') : undefined,
        });
        continue;
      }
      if (oldRequired.has(field) && !newRequired.has(field)) {
        this.emit(subject, fieldPointer, 'property-made-optional', `field \`${field}\` of ${name} is no longer required`, {
          base: child(base, 'required'),
          head: child(child(head, 'properties'), field),
        });
      } else if (!oldRequired.has(field) && newRequired.has(field)) {
        this.emit(subject, fieldPointer, 'property-made-required', `field \`${field}\` of ${name} is now required`, {
          base: child(child(base, 'properties'), field),
          head: child(head, 'required'),
        });
      }
      this.schema(subject, fieldPointer, child(child(base, 'properties'), field), child(child(head, 'properties'), field), `\`${field}\``);
    }
    for (const field of Object.keys(newProps)) {
      if (field in oldProps) continue;
      const required = newRequired.has(field);
      this.emit(subject, [...pointer, 'properties', field], required ? 'required-property-added' : 'property-added', `${required ? 'required' : 'optional'} field \`${field}\` added to ${name}`, {
        head: child(child(head, 'properties'), field),
      });
    }
    const oldClosed = o.additionalProperties === false;
    const newClosed = n.additionalProperties === false;
    if (oldClosed !== newClosed && (o.type === 'object' || n.type === 'object' || o.properties || n.properties)) {
      this.emit(subject, [...pointer, 'additionalProperties'], newClosed ? 'additional-properties-narrowed' : 'additional-properties-widened', `${name} ${newClosed ? 'no longer accepts' : 'now accepts'} fields it does not list`, {
        ...sides('additionalProperties'),
        before: o.additionalProperties ?? null,
        after: n.additionalProperties ?? null,
      });
    }
    if (isSchemaObject(o.additionalProperties) && isSchemaObject(n.additionalProperties)) {
      this.schema(subject, [...pointer, 'additionalProperties'], child(base, 'additionalProperties'), child(head, 'additionalProperties'), `values of ${name}`);
    }
    if (isSchemaObject(o.items) && isSchemaObject(n.items)) {
      this.schema(subject, [...pointer, 'items'], child(base, 'items'), child(head, 'items'), `items of ${name}`);
    }

    // composition
    for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
      const oldBranches = branches(base, keyword);
      const newBranches = branches(head, keyword);
      if (oldBranches.size === 0 && newBranches.size === 0) continue;
      for (const [label, side] of oldBranches) {
        const other = newBranches.get(label);
        if (other) this.schema(subject, [...pointer, keyword, label], side, other, `${name} (${keyword} ${label})`);
        else {
          const rule: RuleId = keyword === 'allOf' ? 'all-of-removed' : 'variant-removed';
          this.emit(subject, [...pointer, keyword, label], rule, `${keyword} member ${label} of ${name} removed`, { base: side, head: newBranches.size ? child(head, keyword) : undefined });
        }
      }
      for (const [label, side] of newBranches) {
        if (oldBranches.has(label)) continue;
        const rule: RuleId = keyword === 'allOf' ? 'all-of-added' : 'variant-added';
        this.emit(subject, [...pointer, keyword, label], rule, `${keyword} member ${label} added to ${name}`, { head: side });
      }
    }
  }

  // ---- parameters, bodies, responses ---------------------------------------------------------------

  parameter(subject: Subject, pointer: string[], base: Side, head: Side, name: string) {
    const o: Json = base.value ?? {};
    const n: Json = head.value ?? {};
    this.prose(subject, pointer, base, head, name);
    if (!o.required && n.required) this.emit(subject, pointer, 'parameter-made-required', `${name} is now required`, { base, head: child(head, 'required') });
    if (o.required && !n.required) this.emit(subject, pointer, 'parameter-made-optional', `${name} is now optional`, { base: child(base, 'required'), head });
    if ((o.style ?? null) !== (n.style ?? null) || (o.explode ?? null) !== (n.explode ?? null)) {
      this.emit(subject, pointer, 'parameter-style-changed', `serialization of ${name} changed`, {
        base,
        head,
        before: { style: o.style ?? null, explode: o.explode ?? null },
        after: { style: n.style ?? null, explode: n.explode ?? null },
      });
    }
    if (o.deprecated !== n.deprecated && n.deprecated) this.emit(subject, pointer, 'schema-deprecated', `${name} is deprecated`, { base, head });
    if (o.schema && n.schema) {
      this.schema({ ...subject, directions: new Set(['request']) }, [...pointer, 'schema'], child(base, 'schema'), child(head, 'schema'), name);
    }
  }

  content(subject: Subject, pointer: string[], base: Side, head: Side, name: string, direction: Direction) {
    const oldContent: Json = base.value?.content ?? {};
    const newContent: Json = head.value?.content ?? {};
    for (const mediaType of Object.keys(oldContent)) {
      const mediaPointer = [...pointer, 'content', mediaType];
      if (!(mediaType in newContent)) {
        this.emit(subject, mediaPointer, 'media-type-removed', `${name} no longer offers ${mediaType}`, {
          base: child(child(base, 'content'), mediaType),
          head: head.value?.content ? child(head, 'content') : head,
        });
        continue;
      }
      const oldMedia = child(child(base, 'content'), mediaType);
      const newMedia = child(child(head, 'content'), mediaType);
      if (oldMedia.value?.schema && newMedia.value?.schema) {
        this.schema({ ...subject, directions: new Set([direction]) }, [...mediaPointer, 'schema'], child(oldMedia, 'schema'), child(newMedia, 'schema'), name);
      }
    }
    for (const mediaType of Object.keys(newContent)) {
      if (!(mediaType in oldContent)) {
        this.emit(subject, [...pointer, 'content', mediaType], 'media-type-added', `${name} now offers ${mediaType}`, { head: child(child(head, 'content'), mediaType) });
      }
    }
  }

  response(subject: Subject, pointer: string[], base: Side, head: Side, name: string, success: boolean) {
    this.prose(subject, pointer, base, head, name);
    this.content(subject, pointer, base, head, name, 'response');
    const oldHeaders: Json = base.value?.headers ?? {};
    const newHeaders: Json = head.value?.headers ?? {};
    for (const header of Object.keys(oldHeaders)) {
      if (header in newHeaders) {
        const oldHeader = this.resolve('base', child(child(base, 'headers'), header));
        const newHeader = this.resolve('head', child(child(head, 'headers'), header));
        if (oldHeader.value?.schema && newHeader.value?.schema) {
          this.schema({ ...subject, directions: new Set(['response']) }, [...pointer, 'headers', header, 'schema'], child(oldHeader, 'schema'), child(newHeader, 'schema'), `header ${header}`);
        }
      } else {
        this.emit(subject, [...pointer, 'headers', header], 'response-header-removed', `${name} no longer sends ${header}`, {
          base: child(child(base, 'headers'), header),
          head,
          directions: new Set(success ? ['response'] : []),
        });
      }
    }
    for (const header of Object.keys(newHeaders)) {
      if (!(header in oldHeaders)) this.emit(subject, [...pointer, 'headers', header], 'response-header-added', `${name} now sends ${header}`, { head: child(child(head, 'headers'), header) });
    }
  }

  resolve(which: 'base' | 'head', side: Side): Side {
    if (typeof side.value?.$ref !== 'string') return side;
    const target = deref(which === 'base' ? this.base : this.head, side.cursor);
    return { cursor: target.cursor, value: target.value };
  }

  /** Compares a value that may be a `$ref` on either side: skipped when both name the same file (compared on its own). */
  referenced(base: Side, head: Side, compare: (base: Side, head: Side) => void) {
    const baseRef = base.value?.$ref;
    const headRef = head.value?.$ref;
    if (typeof baseRef === 'string' && typeof headRef === 'string' && refId(base.cursor.file, baseRef) === refId(head.cursor.file, headRef)) return;
    compare(this.resolve('base', base), this.resolve('head', head));
  }
}

// ---- operations ---------------------------------------------------------------------------------------

function compareOperation(c: Comparison, baseOp: Operation, headOp: Operation) {
  const subject: Subject = {
    at: `${headOp.key}#`,
    directions: new Set(),
    operations: [{ key: headOp.key, operationId: headOp.operationId, via: 'the operation itself' }],
  };
  const base: Side = { cursor: baseOp.cursor, value: valueAt(c.base, baseOp.cursor) };
  const head: Side = { cursor: headOp.cursor, value: valueAt(c.head, headOp.cursor) };
  const o: Json = base.value;
  const n: Json = head.value;

  c.prose(subject, [], base, head, headOp.key);
  if (o.operationId !== n.operationId) {
    c.emit(subject, ['operationId'], 'operation-id-changed', `operationId changed from ${o.operationId} to ${n.operationId}`, {
      base: child(base, 'operationId'),
      head: child(head, 'operationId'),
      before: o.operationId ?? null,
      after: n.operationId ?? null,
    });
  }
  // The SDK's method names (tools/openapi/sdk-operations.ts) are part of the contract. An operation
  // whose base declared none had no name a client could rely on through the contract: declaring one
  // is the baseline, changing or removing it afterwards breaks every call by the old name.
  if (o['x-sdk-name'] !== n['x-sdk-name']) {
    const declared = o['x-sdk-name'] === undefined;
    c.emit(
      subject,
      ['x-sdk-name'],
      declared ? 'sdk-name-declared' : 'sdk-name-changed',
      declared ? `SDK name ${n['x-sdk-name']} declared` : `SDK name changed from ${o['x-sdk-name']} to ${n['x-sdk-name'] ?? '(none)'}`,
      {
        base: declared ? undefined : child(base, 'x-sdk-name'),
        head: n['x-sdk-name'] === undefined ? undefined : child(head, 'x-sdk-name'),
        before: o['x-sdk-name'] ?? null,
        after: n['x-sdk-name'] ?? null,
      },
    );
  }
  if (!o.deprecated && n.deprecated) c.emit(subject, ['deprecated'], 'operation-deprecated', `${headOp.key} is deprecated`, { head: child(head, 'deprecated') });
  compareAccess(c, subject, base, head);
  compareSecurity(c, subject, base, head);

  // parameters: the path item's and the operation's, the operation's winning
  const oldParams = parameters(c, 'base', baseOp);
  const newParams = parameters(c, 'head', headOp);
  for (const [key, oldParam] of oldParams) {
    const pointer = ['parameters', ...key.split(':')];
    const newParam = newParams.get(key);
    if (!newParam) {
      c.emit(subject, pointer, 'parameter-removed', `${describeParam(key)} removed`, { base: oldParam.raw, head: head });
      continue;
    }
    c.referenced(oldParam.raw, newParam.raw, (b, h) => c.parameter(subject, pointer, b, h, describeParam(key)));
  }
  for (const [key, newParam] of newParams) {
    if (oldParams.has(key)) continue;
    const required = Boolean(newParam.resolved.value?.required);
    c.emit(subject, ['parameters', ...key.split(':')], required ? 'required-parameter-added' : 'parameter-added', `${required ? 'required' : 'optional'} ${describeParam(key)} added`, {
      head: newParam.raw,
    });
  }

  // request body
  const oldBody = o.requestBody ? c.resolve('base', child(base, 'requestBody')) : undefined;
  const newBody = n.requestBody ? c.resolve('head', child(head, 'requestBody')) : undefined;
  if (oldBody && !newBody) c.emit(subject, ['requestBody'], 'request-body-removed', 'request body removed', { base: oldBody, head });
  else if (!oldBody && newBody) {
    const required = Boolean(newBody.value?.required);
    c.emit(subject, ['requestBody'], required ? 'required-request-body-added' : 'request-body-added', `${required ? 'required' : 'optional'} request body added`, { head: newBody });
  } else if (oldBody && newBody) {
    c.referenced(child(base, 'requestBody'), child(head, 'requestBody'), (b, h) => requestBody(c, subject, b, h));
  }

  // responses
  const oldResponses: Json = o.responses ?? {};
  const newResponses: Json = n.responses ?? {};
  for (const status of Object.keys(oldResponses)) {
    const pointer = ['responses', status];
    if (!(status in newResponses)) {
      const success = status.startsWith('2');
      c.emit(subject, pointer, success ? 'success-response-removed' : 'error-response-removed', `${status} response removed`, {
        base: child(child(base, 'responses'), status),
        head: child(head, 'responses'),
      });
      continue;
    }
    c.referenced(child(child(base, 'responses'), status), child(child(head, 'responses'), status), (b, h) => c.response(subject, pointer, b, h, `the ${status} response`, status.startsWith('2')));
  }
  for (const status of Object.keys(newResponses)) {
    if (status in oldResponses) continue;
    const success = status.startsWith('2');
    c.emit(subject, ['responses', status], success ? 'success-response-added' : 'error-response-added', `${status} response added`, {
      head: child(child(head, 'responses'), status),
    });
  }
}

function requestBody(c: Comparison, subject: Subject, base: Side, head: Side) {
  c.prose(subject, ['requestBody'], base, head, 'the request body');
  if (!base.value?.required && head.value?.required) c.emit(subject, ['requestBody'], 'request-body-made-required', 'request body is now required', { base, head: child(head, 'required') });
  if (base.value?.required && !head.value?.required) c.emit(subject, ['requestBody'], 'request-body-made-optional', 'request body is now optional', { base: child(base, 'required'), head });
  c.content(subject, ['requestBody'], base, head, 'the request body', 'request');
}

type Param = { raw: Side; resolved: Side };

function parameters(c: Comparison, which: 'base' | 'head', operation: Operation): Map<string, Param> {
  const spec = which === 'base' ? c.base : c.head;
  const out = new Map<string, Param>();
  for (const owner of [operation.pathItem, operation.cursor]) {
    const list = valueAt(spec, { ...owner, path: [...owner.path, 'parameters'] });
    if (!Array.isArray(list)) continue;
    list.forEach((_, index) => {
      const raw: Side = { cursor: { file: owner.file, path: [...owner.path, 'parameters', index] }, value: list[index] };
      const resolved = c.resolve(which, raw);
      out.set(`${resolved.value?.in}:${resolved.value?.name}`, { raw, resolved });
    });
  }
  return out;
}

function describeParam(key: string): string {
  const [location, name] = key.split(':');
  return `${location} parameter \`${name}\``;
}

function compareAccess(c: Comparison, subject: Subject, base: Side, head: Side) {
  const before = normalizeAccess(base.value?.['x-access']);
  const after = normalizeAccess(head.value?.['x-access']);
  if (equal(before, after)) return;
  const sides = { base: child(base, 'x-access'), head: after ? child(head, 'x-access') : head, before: base.value?.['x-access'] ?? null, after: head.value?.['x-access'] ?? null };
  if (!before) return c.emit(subject, ['x-access'], 'access-declared', `access declared: ${describeAccess(after!)}`, sides);
  if (!after) return c.emit(subject, ['x-access'], 'access-undeclared', `access no longer declared (was ${describeAccess(before)})`, sides);
  const rank = (minimum: string) => ACCESS_MINIMUMS.indexOf(minimum as (typeof ACCESS_MINIMUMS)[number]);
  let rule: RuleId = 'access-changed';
  if (after.scope === 'public' && before.scope !== 'public') rule = 'access-looser';
  else if (before.scope === 'public' && after.scope !== 'public') rule = 'access-stricter';
  // Named rules add conditions or alternatives: only the same rules let the minimums be ranked.
  else if (before.scope === after.scope && equal(before.rules, after.rules) && rank(before.minimum) >= 0 && rank(after.minimum) >= 0) {
    rule = rank(after.minimum) > rank(before.minimum) ? 'access-stricter' : 'access-looser';
  }
  c.emit(subject, ['x-access'], rule, `access changed from ${describeAccess(before)} to ${describeAccess(after)}`, sides);
}

type Access = { scope: string; minimum: string; rules: string[] };

function normalizeAccess(value: unknown): Access | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { scope, minimum, rule } = value as Record<string, unknown>;
  const rules = rule === undefined || rule === null ? [] : (Array.isArray(rule) ? rule : [rule]).map(String).sort();
  return { scope: String(scope), minimum: minimum === undefined || minimum === null ? '' : String(minimum), rules };
}

export function describeAccess(access: Access): string {
  const who = access.scope === 'public' ? 'public (no token)' : access.minimum === 'authenticated' ? 'any authenticated user' : `\`${access.minimum}\` on the ${access.scope}`;
  return `${who}${access.rules.length ? ` (rule${access.rules.length > 1 ? 's' : ''} ${access.rules.map((rule) => `\`${rule}\``).join(', ')})` : ''}`;
}

/** The named access rules' meanings (`x-access-rules` in openapi.yaml): a changed meaning reaches every operation naming the rule. */
function compareAccessRules(c: Comparison, baseOps: Operation[], headOps: Operation[]) {
  const before: Json = (c.base.root.data as Json)['x-access-rules'] ?? {};
  const after: Json = (c.head.root.data as Json)['x-access-rules'] ?? {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[name] === after[name]) continue;
    const operations: ReachedOperation[] = [];
    for (const [spec, ops] of [
      [c.head, headOps],
      [c.base, baseOps],
    ] as const) {
      for (const op of ops) {
        const access = normalizeAccess((valueAt(spec, op.cursor) as Json | undefined)?.['x-access']);
        if (access?.rules.includes(name) && !operations.some((known) => known.key === op.key)) operations.push({ key: op.key, operationId: op.operationId, via: `x-access rule ${name}` });
      }
    }
    const subject: Subject = { at: '#', directions: new Set(), operations: operations.sort((a, b) => a.key.localeCompare(b.key)) };
    const side = (which: 'base' | 'head'): Side | undefined => {
      const value = (which === 'base' ? before : after)[name];
      return value === undefined ? undefined : { cursor: { file: ROOT_FILE, path: ['x-access-rules', name] }, value };
    };
    c.emit(subject, ['x-access-rules', name], 'description-changed', `meaning of the access rule \`${name}\` changed`, {
      base: side('base') ?? { cursor: { file: ROOT_FILE, path: ['x-access-rules'] }, value: undefined },
      head: side('head'),
      before: before[name] ?? null,
      after: after[name] ?? null,
    });
  }
}

function compareSecurity(c: Comparison, subject: Subject, base: Side, head: Side) {
  const before = effectiveSecurity(c.base, base.value);
  const after = effectiveSecurity(c.head, head.value);
  if (equal(before, after)) return;
  const sides = { base: 'security' in base.value ? child(base, 'security') : base, head: 'security' in head.value ? child(head, 'security') : head, before, after };
  const rule: RuleId = before.length === 0 ? 'security-added' : after.length === 0 ? 'security-removed' : 'security-changed';
  c.emit(subject, ['security'], rule, `security changed from ${before.join(', ') || 'none'} to ${after.join(', ') || 'none'}`, sides);
}

/** The security schemes an operation requires (empty: no credentials needed). */
function effectiveSecurity(spec: SpecSource, operation: Json): string[] {
  const requirements = (operation.security ?? (spec.root.data as Json).security ?? []) as Json[];
  if (requirements.some((requirement) => Object.keys(requirement).length === 0)) return [];
  return requirements.map((requirement) => Object.keys(requirement).sort().join('+')).sort();
}

// ---- components ---------------------------------------------------------------------------------------

type ComponentKind = 'schema' | 'parameter' | 'response' | 'requestBody' | 'header' | 'skip';

function componentKind(file: string): ComponentKind {
  const folder = /^components\/([^/]+)\//.exec(file)?.[1];
  switch (folder) {
    case 'parameters':
      return 'parameter';
    case 'responses':
      return 'response';
    case 'requestBodies':
      return 'requestBody';
    case 'headers':
      return 'header';
    case 'examples':
      return 'skip';
    default:
      return 'schema';
  }
}

function compareComponent(c: Comparison, file: string, baseReach: Reach, headReach: Reach) {
  const users = new Map<string, { key: string; operationId: string | undefined; via: string }>();
  const directions = new Set<Direction>();
  for (const reach of [headReach, baseReach]) {
    for (const usage of reach.get(file)?.values() ?? []) {
      for (const direction of usage.directions) directions.add(direction);
      if (!users.has(usage.operation.key)) users.set(usage.operation.key, { key: usage.operation.key, operationId: usage.operation.operationId, via: usage.via });
    }
  }
  const subject: Subject = { at: componentPointer(file), directions, operations: [...users.values()].sort((a, b) => a.key.localeCompare(b.key)) };
  const base: Side = { cursor: { file, path: [] }, value: c.base.files.get(file)!.data };
  const head: Side = { cursor: { file, path: [] }, value: c.head.files.get(file)!.data };
  const name = `\`${shortName(file)}\``;
  switch (componentKind(file)) {
    case 'schema':
      return c.schema(subject, [], base, head, name);
    case 'parameter':
      return c.parameter(subject, [], base, head, `parameter ${name}`);
    case 'response': {
      // A response component used under a 2xx status answers successful calls: removing one of its headers breaks them.
      const success = subject.operations.some((operation) => operation.via.startsWith('2'));
      return c.response(subject, [], base, head, `response ${name}`, success);
    }
    case 'requestBody':
      return requestBody(c, subject, base, head);
    case 'header':
      if (base.value?.schema && head.value?.schema) c.schema({ ...subject, directions: new Set(['response']) }, ['schema'], child(base, 'schema'), child(head, 'schema'), name);
      return c.prose(subject, [], base, head, name);
    case 'skip':
      return;
  }
}

// ---- entry point ----------------------------------------------------------------------------------------

export type SpecComparison = { changes: Change[]; baseVersion: string | undefined; headVersion: string | undefined };

/** Every change from `base` to `head`, in the order: operations, components, document. */
export function compareSpecs(base: SpecSource, head: SpecSource): SpecComparison {
  const c = new Comparison(base, head);
  const baseOps = listOperations(base);
  const headOps = listOperations(head);
  const baseByKey = new Map(baseOps.map((op) => [op.matchKey, op]));
  const headByKey = new Map(headOps.map((op) => [op.matchKey, op]));

  for (const op of baseOps) {
    const other = headByKey.get(op.matchKey);
    const subject: Subject = { at: `${op.key}#`, directions: new Set(), operations: [{ key: op.key, operationId: op.operationId, via: 'the operation itself' }] };
    if (!other) c.emit(subject, [], 'operation-removed', `${op.key} (${op.operationId}) removed`, { base: { cursor: op.cursor, value: undefined } });
    else compareOperation(c, op, other);
  }
  for (const op of headOps) {
    if (baseByKey.has(op.matchKey)) continue;
    const subject: Subject = { at: `${op.key}#`, directions: new Set(), operations: [{ key: op.key, operationId: op.operationId, via: 'the operation itself' }] };
    c.emit(subject, [], 'operation-added', `${op.key} (${op.operationId}) added`, { head: { cursor: op.cursor, value: undefined } });
  }

  const baseReach = computeReach(base, baseOps);
  const headReach = computeReach(head, headOps);
  const pathItemFiles = new Set([...baseOps, ...headOps].map((op) => op.pathItem.file));
  for (const file of head.files.keys()) {
    if (file === ROOT_FILE || pathItemFiles.has(file) || !base.files.has(file)) continue;
    compareComponent(c, file, baseReach, headReach);
  }

  const baseInfo: Json = (base.root.data as Json).info ?? {};
  const headInfo: Json = (head.root.data as Json).info ?? {};
  const document: Subject = { at: '#', directions: new Set(), operations: [] };
  const baseRoot: Side = { cursor: { file: ROOT_FILE, path: ['info'] }, value: baseInfo };
  const headRoot: Side = { cursor: { file: ROOT_FILE, path: ['info'] }, value: headInfo };
  if (baseInfo.version !== headInfo.version) {
    c.emit(document, ['info', 'version'], 'version-changed', `info.version changed from ${baseInfo.version} to ${headInfo.version}`, {
      base: child(baseRoot, 'version'),
      head: child(headRoot, 'version'),
      before: baseInfo.version ?? null,
      after: headInfo.version ?? null,
    });
  }
  c.prose(document, ['info'], baseRoot, headRoot, 'the API');
  compareAccessRules(c, baseOps, headOps);
  return { changes: c.changes, baseVersion: baseInfo.version, headVersion: headInfo.version };
}

// ---- helpers ----------------------------------------------------------------------------------------

const LIMITS = [
  ['maxLength', 'max'],
  ['maxItems', 'max'],
  ['maxProperties', 'max'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'max'],
  ['minLength', 'min'],
  ['minItems', 'min'],
  ['minProperties', 'min'],
  ['minimum', 'min'],
  ['exclusiveMinimum', 'min'],
  ['multipleOf', 'other'],
  ['uniqueItems', 'flag'],
] as const;

function limitNarrowed(kind: 'max' | 'min' | 'other' | 'flag', before: unknown, after: unknown): boolean {
  if (kind === 'flag') return after === true;
  if (kind === 'other') return after !== undefined;
  if (after === undefined) return false;
  if (before === undefined) return true;
  return kind === 'max' ? Number(after) < Number(before) : Number(after) > Number(before);
}

function child(side: Side, key: string | number): Side {
  return { cursor: { file: side.cursor.file, path: [...side.cursor.path, key] }, value: side.value?.[key] };
}

function typesOf(schema: Json): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type: string) => type !== 'null');
  return types.length ? new Set(types) : undefined;
}

function isNullable(schema: Json): boolean {
  if (Array.isArray(schema.type) ? schema.type.includes('null') : schema.type === 'null') return true;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[keyword]) && schema[keyword].some((branch: Json) => branch?.type === 'null' || branch?.const === null)) return true;
  }
  return false;
}

function isSchemaObject(value: unknown): boolean {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** The members of a composition, named by what they reference, their `const`, or their position. */
function branches(side: Side, keyword: 'oneOf' | 'anyOf' | 'allOf'): Map<string, Side> {
  const list = side.value?.[keyword];
  const out = new Map<string, Side>();
  if (!Array.isArray(list)) return out;
  list.forEach((branch: Json, index: number) => {
    if (branch?.type === 'null' || branch?.const === null) return;
    let label = String(index);
    if (typeof branch?.$ref === 'string') label = shortName(refId(side.cursor.file, branch.$ref));
    else if (branch && 'const' in branch) label = `const ${JSON.stringify(branch.const)}`;
    else if (typeof branch?.title === 'string') label = branch.title;
    while (out.has(label)) label += `#${index}`;
    out.set(label, child(child(side, keyword), index));
  });
  return out;
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
