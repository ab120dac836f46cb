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
    const key = `${path}\u0000${JSON.stringify(options ?? {})}`;
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

export function createValidator(spec: OpenApiDocument, options: { validateResponses: boolean; onResponseError?: (error: Error, body: unknown) => void }): RequestHandler[] {
  memoizeRoutePatterns();
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(spec) as never,
    validateApiSpec: true,
    // coerceTypes applies to bodies: off, so `{"title": 42}` is a 400 (parameters are always coerced from strings).
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, removeAdditional: false, allErrors: true },
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
