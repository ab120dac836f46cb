// Decides an operation's declared access before its body is read: the path parameters are checked
// against their schemas (400), then the scope and the caller's standing resolved (404/403) — so a
// stranger's or a reader's 20 MB upload is refused without being read, its connection closed. The
// rules that need the body run later, in the dispatcher (access/resolve.ts).
import { Ajv, type ValidateFunction } from 'ajv';
import type { Request, RequestHandler } from 'express';
import type { AccessResolver, PendingAccess } from '../access/resolve.js';
import { badRequest } from '../errors.js';
import { listOperations, loadSpec, resolveRef, type JsonObject, type OpenApiDocument, type SpecOperation } from './operations.js';
import { matchedOperationKey } from './router.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's request type is extended by declaration merging
  namespace Express {
    interface Request {
      /** The operation's access, resolved before the body was read (completed by the dispatcher). */
      pendingAccess?: PendingAccess;
    }
  }
}

type OpenApiMatch = { openapi?: { pathParams?: Record<string, string> } };

/** The path parameters the validator decoded for the matched route. */
export function pathParamsOf(req: Request): Record<string, string> {
  return ((req as Request & OpenApiMatch).openapi?.pathParams ?? req.params) as Record<string, string>;
}

/** Whether a body is on its way (its length announced or chunked). */
export function hasPendingBody(req: Request): boolean {
  return req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
}

/** A validator of an operation's path parameters (all strings), from their schemas in the spec. */
function pathParameterValidator(ajv: Ajv, spec: OpenApiDocument, operation: SpecOperation): { names: string[]; validate: ValidateFunction } {
  const parameters = (operation.definition.parameters as JsonObject[]).map((parameter) => resolveRef(spec, parameter)).filter((parameter) => parameter.in === 'path');
  const properties = Object.fromEntries(parameters.map((parameter) => [parameter.name, resolveRef(spec, parameter.schema ?? {})]));
  return { names: Object.keys(properties), validate: ajv.compile({ type: 'object', properties }) };
}

export function createAccessGate(access: AccessResolver, operations: SpecOperation[] = listOperations()): RequestHandler {
  const spec = loadSpec();
  // Path parameters arrive as text: coerced like the validator does before checking their schemas.
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
  const byKey = new Map(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation]));
  const validators = new Map<string, ReturnType<typeof pathParameterValidator>>();

  return async (req, res, next) => {
    const key = matchedOperationKey(req);
    const operation = key === undefined ? undefined : byKey.get(key);
    if (!operation) return next();
    try {
      let check = validators.get(key!);
      if (!check) validators.set(key!, (check = pathParameterValidator(ajv, spec, operation)));
      const params = pathParamsOf(req);
      if (!check.validate(params)) {
        const issues = (check.validate.errors ?? []).map((error) => ({ path: `/path${error.instancePath}`, message: error.message ?? 'is invalid' }));
        throw badRequest(issues.map((issue) => `${issue.path} ${issue.message}`).join('; '), issues);
      }
      req.pendingAccess = await access.resolve(operation.operationId, req.caller, params);
      next();
    } catch (error) {
      // Refused before its body was read: close the connection rather than read what was sent.
      if (hasPendingBody(req)) res.setHeader('Connection', 'close');
      next(error);
    }
  };
}
