// Who may see a published site, and as whom (issue 20, "Audience rules"): decided per request from the
// address and the site's cookies, before anything of the site is read.
//
// - unpublished: absent (404) for everyone; `public` and `unlisted`: open.
// - `share-link`: a key of one of the site's share links, from `?shareKey=` (then kept in an HttpOnly
//   cookie scoped to the site's path, and the address reloaded without it) or from that cookie, checked
//   on every request against the stored hashes in constant time: a revoked key is absent at once.
// - `visitor-auth`: a JWT signed with the site's secret (HS256 only, `exp` required), from
//   `?jwt_token=` (then kept in an HttpOnly cookie until it expires) or from that cookie; without a valid
//   one, a redirect to the site's fallback login URL with `location=` the requested address. Its claims
//   are the visitor's signed claims (any site with a secret accepts one for adaptive content).
// - unsigned claims from `visitor.<name>` query parameters (kept in a cookie of their own), under
//   `visitor.claims.unsigned`: they choose adaptive content, never access.
// - agents (`.md`, `llms.txt`, the site's MCP server: endpoints that take `credentials: 'request'`) keep
//   no cookies and follow no reload: for them the key and the token count for the request that carries
//   them, from the address as above, or from headers — the share key in `X-Share-Key`, the visitor's
//   token as `Authorization: Bearer` — and nothing is set.
import type { Request } from 'express';
import { errors as joseErrors, jwtVerify } from 'jose';
import { shareKeyMatches } from '../audience.js';
import type { Visitor } from '../condition.js';
import type { PublishedSiteRow } from './published.repository.js';

export const COOKIES = { share: 'cw_site_share', visitor: 'cw_site_visitor', claims: 'cw_site_claims' } as const;
/** The header an agent sends a share link's key in. */
export const SHARE_KEY_HEADER = 'x-share-key';

export type SetCookie = { name: string; value: string; maxAgeSeconds: number };

export type Admission =
  /** `shareKey`: on a share-link site, the key that opened it (for links an agent follows: llms.txt). */
  | { kind: 'admit'; visitor: Visitor; restricted: boolean; shareKey?: string }
  /** A credential or claims came in the address: kept in cookies, and the address reloaded without them. */
  | { kind: 'reload'; cookies: SetCookie[]; query: URLSearchParams }
  | { kind: 'login'; fallbackUrl: string | null }
  | { kind: 'absent' };

const MAX_TOKEN = 8192;
const MAX_SHARE_KEY = 256;
const MAX_UNSIGNED_CLAIMS = 32;
const MAX_CLAIMS_COOKIE = 2048;
const THIRTY_DAYS = 30 * 24 * 3600;
/**
 * The visitor cookie lives until the token's `exp`, at most 400 days (the longest browsers keep a cookie,
 * RFC 6265bis): a validly signed token may carry any `exp`, and one past what a Date can hold made the
 * cookie's date invalid — a 500 (issue 25, F9). The token itself is still checked on every request.
 */
export const MAX_VISITOR_COOKIE_SECONDS = 400 * 24 * 3600;
const CLAIM_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** The request's cookies (the first of each name). */
export function readCookies(req: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A value that is not valid percent-encoding is no credential.
    }
  }
  return cookies;
}

type VisitorToken = { ok: true; claims: Record<string, unknown>; exp: number } | { ok: false };

/** A visitor's JWT checked against the site's secret: HS256 only, signature, `exp` required, `nbf` honoured. */
export async function verifySiteToken(secret: string, token: string): Promise<VisitorToken> {
  if (token.length > MAX_TOKEN) return { ok: false };
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], requiredClaims: ['exp'] });
    return { ok: true, claims: payload as Record<string, unknown>, exp: payload.exp! };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return { ok: false };
    throw error;
  }
}

/** `"true"`/`"false"` and decimal numbers read as such; anything else stays text. */
function claimValue(raw: string): string | number | boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?(0|[1-9]\d{0,14})(\.\d{1,6})?$/.test(raw)) return Number(raw);
  return raw.slice(0, 256);
}

/** Unsigned claims from `visitor.a.b=value` parameters, merged over `base`; undefined when none is valid. */
function unsignedClaimsFrom(query: URLSearchParams, base: Record<string, unknown>): Record<string, unknown> | undefined {
  const claims = structuredClone(base);
  let count = 0;
  for (const [key, raw] of query) {
    if (!key.startsWith('visitor.')) continue;
    const path = key.slice('visitor.'.length).split('.');
    if (path.length > 4 || path.some((name) => !CLAIM_NAME.test(name) || FORBIDDEN_NAMES.has(name))) continue;
    if (++count > MAX_UNSIGNED_CLAIMS) break;
    let target = claims;
    for (const name of path.slice(0, -1)) {
      const next = target[name];
      target = (target[name] = next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
    }
    target[path.at(-1)!] = claimValue(raw);
  }
  return count > 0 ? claims : undefined;
}

function readUnsignedCookie(value: string | undefined): Record<string, unknown> {
  if (!value || value.length > MAX_CLAIMS_COOKIE * 2) return {};
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    // Only plain data made by unsignedClaimsFrom is taken back (JSON.parse makes no prototypes).
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const withoutParameters = (query: URLSearchParams, drop: (key: string) => boolean) => new URLSearchParams([...query].filter(([key]) => !drop(key)));

/**
 * Whether the request may see the site, and the visitor it sees it as. `shareKeyHashes`: the site's
 * keys as stored now (read in the request's own statement, so a revoked key is refused at once).
 */
export async function admit(site: PublishedSiteRow, shareKeyHashes: readonly Buffer[], req: Request, query: URLSearchParams, credentials: 'browser' | 'request' = 'browser'): Promise<Admission> {
  if (!site.published) return { kind: 'absent' };
  const cookies = readCookies(req);
  const set: SetCookie[] = [];
  const perRequest = credentials === 'request';
  // A share-link site is absent to a visitor without one of its keys, whatever else the address carries
  // (issue 25, F8: `?visitor.x=` used to answer a 303 with cookies before the key was asked for).
  const keyParam = query.get('shareKey');
  const keyHeader = perRequest ? singleHeader(req, SHARE_KEY_HEADER) : undefined;
  const shareKey = keyParam ?? keyHeader ?? cookies.get(COOKIES.share) ?? '';
  if (site.visibility === 'share-link' && !keyOpens(shareKeyHashes, shareKey)) return { kind: 'absent' };

  // Credentials and claims in the address are taken once, then the address is reloaded without them
  // (they stay out of history, bookmarks and referrers); an agent's count for its request alone.
  const tokenParam = query.get('jwt_token');
  const unsignedParam = unsignedClaimsFrom(query, readUnsignedCookie(cookies.get(COOKIES.claims)));
  if (!perRequest && (keyParam !== null || tokenParam !== null || unsignedParam)) {
    if (keyParam !== null && site.visibility === 'share-link') set.push({ name: COOKIES.share, value: keyParam, maxAgeSeconds: THIRTY_DAYS });
    if (tokenParam !== null && site.visitorAuthSecret) {
      const token = await verifySiteToken(site.visitorAuthSecret, tokenParam);
      if (!token.ok) {
        if (site.visibility === 'visitor-auth') return { kind: 'login', fallbackUrl: site.visitorAuthFallbackUrl };
      } else {
        set.push({ name: COOKIES.visitor, value: tokenParam, maxAgeSeconds: visitorCookieSeconds(token.exp) });
      }
    }
    if (unsignedParam) {
      const encoded = Buffer.from(JSON.stringify(unsignedParam)).toString('base64url');
      if (encoded.length <= MAX_CLAIMS_COOKIE) set.push({ name: COOKIES.claims, value: encoded, maxAgeSeconds: THIRTY_DAYS });
    }
    return { kind: 'reload', cookies: set, query: withoutParameters(query, (key) => key === 'shareKey' || key === 'jwt_token' || key.startsWith('visitor.')) };
  }

  let signed: Record<string, unknown> = {};
  const givenToken = perRequest ? (bearerOf(req) ?? tokenParam ?? cookies.get(COOKIES.visitor)) : cookies.get(COOKIES.visitor);
  if (site.visitorAuthSecret && givenToken) {
    const token = await verifySiteToken(site.visitorAuthSecret, givenToken);
    if (token.ok) signed = token.claims;
    else if (site.visibility === 'visitor-auth') return { kind: 'login', fallbackUrl: site.visitorAuthFallbackUrl };
  }
  if (site.visibility === 'visitor-auth' && (!site.visitorAuthSecret || !givenToken)) return { kind: 'login', fallbackUrl: site.visitorAuthFallbackUrl };
  return {
    kind: 'admit',
    visitor: { claims: { ...signed, unsigned: (perRequest ? unsignedParam : undefined) ?? readUnsignedCookie(cookies.get(COOKIES.claims)) } },
    restricted: site.visibility === 'share-link' || site.visibility === 'visitor-auth',
    ...(site.visibility === 'share-link' ? { shareKey } : {}),
  };
}

/** A header given once (a repeated one is no credential). */
function singleHeader(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The token of `Authorization: Bearer …`. */
function bearerOf(req: Request): string | undefined {
  const match = /^Bearer +([^\s]+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** Seconds until `exp` (epoch seconds), whole, between 1 and MAX_VISITOR_COOKIE_SECONDS. */
export function visitorCookieSeconds(exp: number, now = Date.now()): number {
  const left = Math.floor(exp - now / 1000);
  return Number.isFinite(left) ? Math.min(MAX_VISITOR_COOKIE_SECONDS, Math.max(1, left)) : MAX_VISITOR_COOKIE_SECONDS;
}

function keyOpens(hashes: readonly Buffer[], key: string): boolean {
  if (key.length === 0 || key.length > MAX_SHARE_KEY) return false;
  return shareKeyMatches(key, hashes);
}
