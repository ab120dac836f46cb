// Published addresses (docs/decisions.md, "Sites"): a site at `https://{hostname}` (the scheme of PUBLIC_URL) when it
// has a hostname whose DNS proved control (packages/server/src/areas/sites/hostnames.service.ts), else `{PUBLIC_URL}/s/{basename or site id}`; a section at `{site}/{section path}`, a
// site space at `{site}[/{section path}]/{site space path}` (addresses do not move when defaults
// change: the site's and a section's own address show their default). A share-link key completes
// an address as `?shareKey={key}`.
// Below the areas (their floor, packages/server/src/publication/): the sites area builds its own objects'
// addresses with these, and the spaces, collections and content areas show a space's published address
// (space-addresses.ts) without reaching the sites area, which builds on spaces and content.
import type { Urls } from '../urls.js';

export type AddressedSite = { id: string; hostname: string | null; hostnameVerifiedAt: Date | null; basename: string | null };

export function siteAddress(urls: Urls, site: AddressedSite): string {
  if (site.hostname && site.hostnameVerifiedAt) return `${new URL(urls.api('/')).protocol}//${site.hostname}`;
  return urls.api(`/s/${site.basename ?? site.id}`);
}

export function withShareKey(address: string, shareKey: string | undefined): string {
  return shareKey ? `${address}?shareKey=${encodeURIComponent(shareKey)}` : address;
}

export function sectionAddress(root: string, sectionPath: string): string {
  return `${root}/${sectionPath}`;
}

export function siteSpaceAddress(root: string, sectionPath: string | null, path: string): string {
  return sectionPath === null ? `${root}/${path}` : `${root}/${sectionPath}/${path}`;
}
