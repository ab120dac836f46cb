// express-openapi-validator, configured once: requests are always validated against the bundled spec
// (never `ignoreUndocumented`), responses when `validateResponses` is on (tests and CI), and bearer
// security is enforced per operation before the input is validated.
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerSecurityHandler } from '../auth/authenticate.js';
import type { OpenApiDocument } from './operations.js';

/** Paths the server serves outside the spec (operations endpoints). */
export const UNDOCUMENTED_PATHS = /^\/(healthz|readyz|metrics)$/;

export function createValidator(spec: OpenApiDocument, options: { validateResponses: boolean; onResponseError?: (error: Error, body: unknown) => void }): RequestHandler[] {
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
