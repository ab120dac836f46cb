// Bearer-token authentication. The middleware resolves the caller (one query: token and user); the
// validator's security handler then accepts or refuses each operation that requires a token, so a
// missing token answers 401 before any input is validated.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context.js';
import type { CachedToken } from './token-cache.js';
import { findTokenWithUser, touchToken } from './tokens.repository.js';
import type { UserRow } from './users.repository.js';
import { unauthorized } from '../errors.js';
import { hashToken, looksLikeToken } from './tokens.js';

export type Caller = {
  user: UserRow;
  tokenId: string;
  /**
   * The one organization the presented token may reach (a token issued through that organization's
   * SSO); null for an unscoped token. Enforced through auth/token-scope.ts only.
   */
  organizationScope: string | null;
  /** When the presented token expires (null: never); tokens it creates expire no later. */
  tokenExpiresAt: Date | null;
};

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      caller?: Caller;
      /** Why the presented token was refused; unset when no token was presented. */
      authProblem?: string;
    }
  }
}

const TOUCH_EVERY_MINUTES = 5;

export function resolveCaller(app: AppContext): RequestHandler {
  /** Sets the caller from the token found (or why it was refused). */
  const admit = (req: Request, found: CachedToken | undefined): void => {
    if (!found) {
      req.authProblem = 'Invalid bearer token';
      return;
    }
    if (found.token.expiresAt && found.token.expiresAt.getTime() <= Date.now()) {
      req.authProblem = 'Expired bearer token';
      return;
    }
    req.caller = { user: found.user, tokenId: found.token.id, organizationScope: found.token.organizationId, tokenExpiresAt: found.token.expiresAt };
    const last = found.token.lastUsedAt?.getTime() ?? 0;
    if (Date.now() - last > TOUCH_EVERY_MINUTES * 60_000) {
      // Mark it in the cached copy too, so the next requests do not write again.
      found.token.lastUsedAt = new Date();
      touchToken(app.db, found.token.id, TOUCH_EVERY_MINUTES).catch((err) => app.log.warn({ err }, 'could not record token use'));
    }
  };
  // Synchronous for a token this instance has cached (nearly every request): no promise to wait for.
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    if (!header) return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !looksLikeToken(match[1]!)) {
      req.authProblem = 'Malformed bearer token';
      return next();
    }
    const hash = hashToken(match[1]!);
    const hashHex = hash.toString('hex');
    const cached = app.tokens.get(hashHex);
    if (cached) {
      admit(req, cached);
      return next();
    }
    // Not known here: a lookup costs a query, which an address that spent its budget does not get
    // (http/rate-limit.ts). The request is charged afterwards, to the token found or to the address.
    app.rateLimits.refuseSpentAddress(req, res);
    const generation = app.tokens.generation;
    return findTokenWithUser(app.db, hash).then((found) => {
      if (found) app.tokens.set(hashHex, found, generation);
      admit(req, found);
      next();
    });
  };
}

/** express-openapi-validator security handler for `bearerAuth`. */
export function bearerSecurityHandler(req: Request): true {
  if (req.caller) return true;
  throw Object.assign(unauthorized(req.authProblem ?? 'Missing bearer token'), { status: 401 });
}
