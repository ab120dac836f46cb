// Rate limits of the API (docs/decisions.md, "Rate limits"): each token has its budget per window, and each client address
// has one for the requests that carry no valid token (anonymous, malformed, unknown, expired). Before a
// token this instance has not cached yet costs a database lookup, its address is checked (see
// auth/authenticate.ts): an address whose budget is spent is refused without the lookup, so a flood of
// made-up tokens stops at the address's limit; a token the lookup finds is charged to itself only.
//
// Counters are shared by every instance through the database (rate-limit-store.ts). Every limited
// response carries `X-RateLimit-Limit/Remaining/Reset` (reset in epoch seconds) and the IETF draft's
// `RateLimit-Policy` and `RateLimit`; a refusal is a 429 with `Retry-After`. The health endpoints are
// mounted before this middleware and are never limited.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import ipaddr from 'ipaddr.js';
import type pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { tooManyRequests } from '../errors.js';
import type { Logger } from '../logger.js';
import { deleteEndedRateLimits } from './rate-limits.repository.js';
import { SharedCounter, type Decision } from './rate-limit-store.js';

/** How often pending hits are written (one statement per policy) and ended windows forgotten. */
const FLUSH_MS = 500;
/** Store rows of ended windows are deleted this long after they ended, every few minutes. */
const DELETE_ENDED_EVERY_MS = 5 * 60_000;

/** A limit and its header values that never change (built once: they are sent on every response). */
type Policy = { counter: SharedCounter; name: string; limit: string; header: string };

export class RateLimits {
  readonly enabled: boolean;
  private readonly token?: Policy;
  private readonly address?: Policy;
  private readonly feedback?: Policy;
  private timer?: NodeJS.Timeout;
  private lastDelete = Date.now();

  constructor(
    config: Config['rateLimit'],
    pool: pg.Pool,
    private readonly db: Database,
    private readonly log: Logger,
  ) {
    this.enabled = config.enabled;
    if (!this.enabled) return;
    const policy = (name: string, limit: number, windowSeconds = config.windowSeconds): Policy => ({
      name,
      counter: new SharedCounter(name, limit, windowSeconds * 1000, db, pool, log),
      limit: String(limit),
      header: `"${name}";q=${limit};w=${windowSeconds}`,
    });
    this.token = policy('token', config.perToken);
    this.address = policy('address', config.perAddress);
    this.feedback = policy('feedback', config.feedbackPerHour, 3600);
    this.timer = setInterval(() => void this.background(), FLUSH_MS).unref();
  }

  /** Charges the request to its token: to be called once the caller is known. */
  chargeToken(req: Request, res: Response, tokenId: string): void | Promise<void> {
    return this.charge(this.token!, tokenId, req, res);
  }

  /** Charges the request to its client address (once per request). */
  chargeAddress(req: Request, res: Response): void | Promise<void> {
    return this.charge(this.address!, addressOf(req), req, res);
  }

  /** Charges a published page's feedback to its client address (on top of the request's own charge). */
  chargeFeedback(req: Request, res: Response): void | Promise<void> {
    if (!this.enabled) return;
    return this.charge(this.feedback!, addressOf(req), req, res);
  }

  /**
   * Throws the 429 when the request's client address has spent its budget, without charging it: before a
   * token lookup, whose request is charged afterwards to the token it finds or else to the address.
   */
  refuseSpentAddress(req: Request, res: Response): void {
    if (!this.enabled) return;
    const refusal = this.address!.counter.refusal(addressOf(req));
    if (refusal) answer(this.address!, refusal, req, res);
  }

  /** Stops the background work and writes the pending hits, waiting a second at most (shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
    await Promise.race([this.flush().catch(() => {}), late]);
    clearTimeout(timer);
  }

  /** Writes every pending hit now (shutdown; tests that compare instances). */
  async flush(): Promise<void> {
    if (!this.enabled) return;
    await Promise.all([this.token!.counter.flush(), this.address!.counter.flush(), this.feedback!.counter.flush()]);
  }

  private async background(): Promise<void> {
    try {
      await Promise.all([this.token!.counter.flushInBackground(), this.address!.counter.flushInBackground(), this.feedback!.counter.flushInBackground()]);
      if (Date.now() - this.lastDelete >= DELETE_ENDED_EVERY_MS) {
        this.lastDelete = Date.now();
        await deleteEndedRateLimits(this.db, DELETE_ENDED_EVERY_MS);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'rate limit background work failed');
    }
  }

  private charge(policy: Policy, key: string, req: Request, res: Response): void | Promise<void> {
    const decision = policy.counter.hit(key);
    if (decision instanceof Promise) return decision.then((settled) => answer(policy, settled, req, res));
    answer(policy, decision, req, res);
  }
}

/** Sets the headers of `decision`; throws the 429 when it refuses. */
function answer(policy: Policy, decision: Decision, req: Request, res: Response): void {
  const seconds = Math.max(0, Math.ceil((decision.resetAt - Date.now()) / 1000));
  res.setHeader('X-RateLimit-Limit', policy.limit);
  res.setHeader('X-RateLimit-Remaining', decision.remaining);
  res.setHeader('X-RateLimit-Reset', Math.ceil(decision.resetAt / 1000));
  res.setHeader('RateLimit-Policy', policy.header);
  res.setHeader('RateLimit', `"${policy.name}";r=${decision.remaining};t=${seconds}`);
  if (decision.allowed) return;
  // Refused before its body was read: close the connection rather than read the body to keep it alive.
  if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) res.setHeader('Connection', 'close');
  throw tooManyRequests(Math.max(1, seconds));
}

const addressOf = (req: Request) => clientAddressKey(req.ip ?? req.socket.remoteAddress ?? '');

/**
 * The key of a client address: IPv4 as is (also when written as IPv4-mapped IPv6), IPv6 by its /64, the
 * smallest network a single client is normally given (counting single IPv6 addresses would let one
 * client use 2^64 budgets).
 */
export function clientAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

/** Charges every request that reaches it: to its token once authenticated, else to its address. */
export function rateLimit(limits: RateLimits): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!limits.enabled) return next();
    const charged = req.caller ? limits.chargeToken(req, res, req.caller.tokenId) : limits.chargeAddress(req, res);
    if (charged) return charged.then(() => next());
    next();
  };
}
