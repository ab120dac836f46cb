// express-openapi-validator, configured once (its route lookup is patched to compile the route table
// once: patches/express-openapi-validator@5.6.2.patch): requests are always validated against the bundled spec
// (never `ignoreUndocumented`), responses when `validateResponses` is on (tests and CI), and bearer
// security is enforced per operation before the input is validated.
import type { Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerSecurityHandler } from '../auth/authenticate.js';
import { hasPendingBody } from './access-gate.js';
import { listOperations, resolveRef, type JsonObject, type OpenApiDocument } from './operations.js';
import { pipeline } from './pipeline.js';
import { matchedOperationKey } from './router.js';

/** Paths the server serves outside the spec (operations endpoints). */
export const UNDOCUMENTED_PATHS = /^\/(healthz|readyz|metrics)$/;

type Schema = JsonObject;

/**
 * ajv's `discriminator` keyword refuses `mapping`, which the spec keeps for readers and codegen. Each
 * branch states its tag as a `const`, which is all ajv needs, so the mapping is dropped for validation
 * after checking that it says the same as the consts. The keyword passes anything that is not an
 * object (`[1, null]` as a list of changes), so a discriminated schema must say `type: object`.
 */
function withoutDiscriminatorMappings(spec: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(spec);
  const schemas: Record<string, Schema> = copy.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    const mapping = schema.discriminator?.mapping as Record<string, string> | undefined;
    if (!mapping) continue;
    if (schema.type !== 'object') throw new Error(`${name}: a schema with a discriminator must declare \`type: object\``);
    for (const [tag, ref] of Object.entries(mapping)) {
      const target = schemas[ref.replace('#/components/schemas/', '')];
      if (target?.properties?.[schema.discriminator.propertyName]?.const !== tag) {
        throw new Error(`${name}: discriminator mapping "${tag}" does not match the const of ${ref}`);
      }
    }
    delete schema.discriminator.mapping;
  }
  return copy;
}

/**
 * The validator in its two halves: `match` finds the request's operation (`req.openapi`) and checks
 * its bearer token (401) without reading the body; `validate` checks the whole request (and, in tests,
 * the response). Between them the server decides access and reads the body (app.ts).
 */
export type Validator = {
  match: RequestHandler[];
  validate: RequestHandler[];
  /**
   * Compiles every operation's request validators, one per macrotask (the validator compiles an
   * operation's on its first request otherwise); resolves with how many it compiled.
   */
  compileAhead: () => Promise<number>;
};

const MATCHING = new Set(['pathParamsMiddleware', 'metadataMiddleware', 'securityMiddleware']);
/** The library's steps that check the request (the response's, when on, always run). */
const REQUEST_CHECKS = new Set(['multipartMiddleware', 'requestMiddleware']);

/**
 * Operations (`GET /v1/spaces/{spaceId}`) that a request can call with its path alone: no request
 * body, path parameters of type string, and otherwise only optional scalar query parameters without
 * a default. The path
 * parameters are checked against the same schemas by the access gate before the validator's request
 * check (http/access-gate.ts), and strings are not coerced: for a request with no query string and no
 * body, the request check has nothing left to check, require or change, and is skipped (it was a
 * twentieth of a read's CPU).
 */
export function pathOnlyOperations(spec: OpenApiDocument): Set<string> {
  const resolve = (node: JsonObject) => resolveRef(spec, node);
  const keys = new Set<string>();
  for (const operation of listOperations(spec)) {
    if (operation.definition.requestBody) continue;
    const parameters = (operation.definition.parameters as JsonObject[]).map(resolve);
    // A string the gate's ajv checks as the validator's would (a `format` it may not know keeps the check).
    const givenByPath = (parameter: JsonObject) => {
      const schema = resolve(parameter.schema ?? {});
      return parameter.in === 'path' && schema.type === 'string' && schema.format === undefined;
    };
    // Optional, scalar and without a default: absent, the check (whose ajv fills in defaults) adds nothing to `req.query`.
    const optionalQuery = (parameter: JsonObject) => {
      const schema = resolve(parameter.schema ?? {});
      return parameter.in === 'query' && parameter.required !== true && SCALARS.has(schema.type) && schema.default === undefined;
    };
    if (parameters.every((parameter) => givenByPath(parameter) || optionalQuery(parameter))) {
      keys.add(`${operation.method.toUpperCase()} ${operation.path}`);
    }
  }
  return keys;
}

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/** Whether the request gives nothing but its path (see pathOnlyOperations). */
const givesOnlyItsPath = (req: Request) => req.originalUrl.indexOf('?') === -1 && !hasPendingBody(req);

export function createValidator(
  spec: OpenApiDocument,
  options: {
    validateResponses: boolean;
    onResponseError?: (error: Error, body: unknown) => void;
    /**
     * Check the document against the OpenAPI meta-schema first (compiling the meta-schema is a second of
     * start-up). Off for servers, tests' included: the bundled spec is checked once, by
     * src/http/validator.test.ts, and linted by Redocly (`pnpm spec:lint`).
     */
    validateApiSpec?: boolean;
  },
): Validator {
  const middlewares = OpenApiValidator.middleware({
    apiSpec: withoutDiscriminatorMappings(spec) as never,
    validateApiSpec: options.validateApiSpec ?? false,
    // `coerceTypes` here applies to JSON bodies only (the validator always coerces path and query
    // parameters, which arrive as text). Bodies are typed already, and coercion inside a nullable
    // `oneOf` turned `null` into `""` before the null branch was tried.
    // `discriminator`: a `oneOf` with a discriminator (content batch changes) is checked against the one
    // branch its `type` selects, so a bad change reports that branch's issues rather than every branch's.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, removeAdditional: false, allErrors: true, discriminator: true },
    validateResponses: options.validateResponses
      ? {
          removeAdditional: false,
          allErrors: true,
          onError: (error, body) => {
            options.onResponseError?.(error, body);
            throw error;
          },
        }
      : false,
    validateSecurity: { handlers: { bearerAuth: bearerSecurityHandler } },
    ignorePaths: UNDOCUMENTED_PATHS,
    ignoreUndocumented: false,
    $refParser: { mode: 'bundle' },
  }) as unknown as RequestHandler[] & { compileRequestValidators: () => Promise<number> };
  const match = middlewares.filter((middleware) => MATCHING.has(middleware.name));
  // The validator's own order: path parameters, metadata (the route), security, then the rest.
  if (match.length !== MATCHING.size || middlewares.slice(0, MATCHING.size).some((middleware) => !MATCHING.has(middleware.name))) {
    throw new Error('express-openapi-validator changed its middleware order: revisit createValidator');
  }
  const checks = middlewares.slice(MATCHING.size);
  if (checks.some((middleware) => !REQUEST_CHECKS.has(middleware.name) && middleware.name !== 'responseMiddleware')) {
    throw new Error('express-openapi-validator has a middleware createValidator does not know: revisit it');
  }
  const checkRequest = pipeline(checks.filter((middleware) => REQUEST_CHECKS.has(middleware.name)));
  const pathOnly = pathOnlyOperations(spec);
  const validateRequest: RequestHandler = (req, res, next) => {
    const key = matchedOperationKey(req);
    if (key !== undefined && pathOnly.has(key) && givesOnlyItsPath(req)) return next();
    return checkRequest(req, res, next);
  };
  return {
    match,
    validate: [validateRequest, ...checks.filter((middleware) => !REQUEST_CHECKS.has(middleware.name))],
    compileAhead: () => middlewares.compileRequestValidators(),
  };
}
