// express-openapi-validator, configured once: requests are always validated against the bundled spec
// (never `ignoreUndocumented`), responses when `validateResponses` is on (tests and CI), and bearer
// security is enforced per operation before the input is validated.
import type { RequestHandler } from 'express';
import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerSecurityHandler } from '../auth/authenticate.js';
import type { OpenApiDocument } from './operations.js';

/**
 * express-openapi-validator finds a request's operation by compiling `pathToRegexp` for every route of
 * the spec on every request (O(routes) regex compilations per call, growing with the API). The
 * compiled patterns never change: memoize them on the module instance the validator uses.
 */
function memoizeRoutePatterns(): void {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const pathToRegexp = fromValidator('path-to-regexp') as { pathToRegexp: (path: string, options?: object) => unknown; memoized?: true };
  if (pathToRegexp.memoized) return;
  const compile = pathToRegexp.pathToRegexp;
  const cache = new Map<string, unknown>();
  pathToRegexp.pathToRegexp = (path, options) => {
    // The validator passes only these two flags; the key stays cheap (it is built ~100 times a request).
    const flags = options as { sensitive?: boolean; strict?: boolean } | undefined;
    const key = `${flags?.sensitive ? 1 : 0}${flags?.strict ? 1 : 0}${path}`;
    let compiled = cache.get(key);
    if (compiled === undefined) {
      compiled = compile(path, options);
      cache.set(key, compiled);
    }
    return compiled;
  };
  pathToRegexp.memoized = true;
}

/** Paths the server serves outside the spec (operations endpoints). */
export const UNDOCUMENTED_PATHS = /^\/(healthz|readyz|metrics)$/;

type Schema = Record<string, any>;

/**
 * ajv's `discriminator` keyword refuses `mapping`, which the spec keeps for readers and codegen. Each
 * branch states its tag as a `const`, which is all ajv needs, so the mapping is dropped for validation
 * after checking that it says the same as the consts.
 */
function withoutDiscriminatorMappings(spec: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(spec);
  const schemas: Record<string, Schema> = copy.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    const mapping = schema.discriminator?.mapping as Record<string, string> | undefined;
    if (!mapping) continue;
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

export function createValidator(spec: OpenApiDocument, options: { validateResponses: boolean; onResponseError?: (error: Error, body: unknown) => void }): RequestHandler[] {
  memoizeRoutePatterns();
  return OpenApiValidator.middleware({
    apiSpec: withoutDiscriminatorMappings(spec) as never,
    // The spec is linted in CI (Redocly); checking it again costs start-up time, so only with response validation (tests).
    validateApiSpec: options.validateResponses,
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
  }) as unknown as RequestHandler[];
}
