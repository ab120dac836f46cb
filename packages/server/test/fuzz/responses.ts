// What the spec promises about an answer, checked with ajv independently of the server's own
// response validation: a declared status, the declared body for it (JSON valid against the schema,
// or no body), and the error shape with the status as its code.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument, SpecOperation } from '../../src/http/operations.js';

// ajv-formats is CommonJS with a default export: under NodeNext its callable is `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type Answer = { status: number; contentType: string | null; text: string };

const SPEC_KEY = 'openapi.json';
const JSON_MEDIA = 'application/json';

/** A JSON Pointer into the spec as a URI fragment (paths hold `/` and `{}`). */
const pointer = (...segments: string[]) =>
  `#/${segments.map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

export function createResponseChecker(spec: OpenApiDocument) {
  // strict off: the spec carries OpenAPI keywords (discriminator, example, x-…) that are not JSON Schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(spec as object, SPEC_KEY);
  const validators = new Map<string, ValidateFunction>();

  /** The response object for `status` and where it lives in the spec (following a shared response's $ref). */
  function declared(operation: SpecOperation, status: number): { response: Record<string, any>; at: string } | undefined {
    const entry = operation.definition.responses?.[String(status)];
    if (!entry) return undefined;
    if (typeof entry.$ref === 'string') {
      const segments = (entry.$ref as string).replace(/^#\//, '').split('/');
      const response = segments.reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
      return { response, at: pointer(...segments.map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))) };
    }
    return { response: entry, at: pointer('paths', operation.path, operation.method, 'responses', String(status)) };
  }

  function validatorFor(at: string): ValidateFunction {
    let validate = validators.get(at);
    if (!validate) {
      validate = ajv.compile({ $ref: `${SPEC_KEY}${at}${pointer('content', JSON_MEDIA, 'schema').slice(1)}` });
      validators.set(at, validate);
    }
    return validate;
  }

  /** What is wrong with `answer` to a request of `operation`: nothing when it keeps the spec's promise. */
  function problems(operation: SpecOperation, answer: Answer): string[] {
    if (answer.status >= 500) return [`answered ${answer.status}: ${answer.text.slice(0, 300)}`];
    const found = declared(operation, answer.status);
    if (!found) return [`answered ${answer.status}, which ${operation.operationId} does not declare: ${answer.text.slice(0, 300)}`];
    const content: Record<string, unknown> = found.response.content ?? {};
    if (!Object.keys(content).length) return answer.text === '' ? [] : [`answered ${answer.status} with a body, where the spec declares none`];
    if (!(JSON_MEDIA in content)) return []; // a download: its bytes are whatever was stored
    if (!answer.contentType?.startsWith(JSON_MEDIA)) return [`answered ${answer.status} as ${answer.contentType}, not JSON`];
    let body: any;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 300)}`];
    }
    const validate = validatorFor(found.at);
    const issues: string[] = [];
    if (!validate(body)) {
      issues.push(`answered ${answer.status} with a body the spec does not allow: ${ajv.errorsText(validate.errors)} — ${answer.text.slice(0, 300)}`);
    }
    if (answer.status >= 400 && body?.error?.code !== answer.status) issues.push(`error code ${body?.error?.code} is not the status ${answer.status}`);
    return issues;
  }

  return { problems };
}
