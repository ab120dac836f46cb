// Which site a request may be for, decided from the request alone (no query): its Host when that is no
// hostname of the server itself, or its path under `{PUBLIC_URL}/s/{name}/…`. Whatever decides more
// (does the site exist, may this visitor see it) costs a query, asked only once the request was
// charged to its address, or found within its budget (site-charge.ts).
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';
import type { Caches } from '../../../caches.js';
import type { Config } from '../../../config.js';
import { hostAddress, pathAddress } from '../sites.repository.js';

export type SiteTarget = {
  /** `path`: below `{PUBLIC_URL}/s/`; `host`: on a custom hostname. */
  via: 'path' | 'host';
  /** What the site is looked up by (`path:…`, `host:…`); null when the name cannot be a site's. */
  address: string | null;
  /** The site's address path ('' on its own hostname, `/s/{name}` below PUBLIC_URL). */
  root: string;
  /** The decoded path segments below the site's root; null when the path is malformed. */
  segments: string[] | null;
};

const MAX_SEGMENTS = 64;
const SITE_NAME = /^[A-Za-z0-9-]{1,100}$/;
const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

function segmentsOf(path: string): string[] | null {
  const raw = path.split('/').filter((segment) => segment !== '');
  if (raw.length > MAX_SEGMENTS) return null;
  try {
    return raw.map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}

/**
 * The hostnames of the server itself: PUBLIC_URL's, APP_URL's and the configured aliases
 * (`SERVER_HOSTNAMES`). No site may claim one, and a request on one is never a site's.
 */
export function serverHostnames(config: Pick<Config, 'publicUrl' | 'appUrl' | 'sites'>): ReadonlySet<string> {
  return new Set([new URL(config.publicUrl).hostname, new URL(config.appUrl).hostname, ...config.sites.serverHostnames].map((host) => host.toLowerCase()));
}

/** Whether `host` has the shape of a site's hostname (three labels or more; no IP address). */
export const isSiteHostnameShape = (host: string) => HOSTNAME.test(host) && !ipaddr.isValid(host);

/**
 * Hosts that named no site a moment ago (the `siteUnknownHosts` cache): odd Host headers do not cost a
 * query each. Remembered for UNKNOWN_HOST_TTL_MS, so a hostname verified on another instance answers
 * there within that time; on this one at once (forgetUnknownHost).
 */
const UNKNOWN_HOST_TTL_MS = 10_000;

export const rememberUnknownHost = (caches: Caches, address: string) => caches.siteUnknownHosts.set(address, true, UNKNOWN_HOST_TTL_MS);

export const recentlyUnknown = (caches: Caches, address: string) => caches.siteUnknownHosts.get(address) !== undefined;

/** A hostname just verified here answers at once on this instance (others within UNKNOWN_HOST_TTL_MS). */
export const forgetUnknownHost = (caches: Caches, hostname: string) => caches.siteUnknownHosts.delete(hostAddress(hostname));

/** The custom hostname `req` may be for: a Host of a site's shape that is none of the server's own. */
export function hostTarget(req: Request, ownHosts: ReadonlySet<string>): (SiteTarget & { address: string }) | undefined {
  const host = (req.hostname ?? '').toLowerCase();
  if (!host || ownHosts.has(host) || !isSiteHostnameShape(host)) return undefined;
  return { via: 'host', address: hostAddress(host), root: '', segments: segmentsOf(req.path) };
}

/**
 * The site below `{PUBLIC_URL}/s/` that `req` is for: any such path is a site request, an unknown or
 * malformed name included (answered like any absent site, never by the API).
 */
export function pathTarget(req: Request): SiteTarget | undefined {
  if (!req.path.startsWith('/s/')) return undefined;
  const segments = segmentsOf(req.path);
  const name = segments?.[1];
  if (!segments || name === undefined) return { via: 'path', address: null, root: '/s', segments: null };
  return { via: 'path', address: SITE_NAME.test(name) ? pathAddress(name) : null, root: `/s/${name}`, segments: segments.slice(2) };
}
