// `_social/{page address}.png`: the page's social image (site-social.ts), found as the page is (the
// same lookup, the same visitor's structure: who cannot read the page gets the site's 404). Its
// address carries the hash of what it shows (`?v=`): at the current hash it is cached for a year;
// any other `v` (or none) gets the current image, revalidated by its ETag.
import type { Response } from 'express';
import { findPage } from '../site-page.js';
import { socialImage } from '../site-social.js';
import { etagMatches, sendNotFound, type SiteEndpoint, type SiteVisit } from '../site-visit.js';

/** The segments of the page a `_social/….png` address names; undefined when the address is not one. */
function pageSegments(segments: readonly string[]): readonly string[] | undefined {
  const last = segments.at(-1);
  if (segments[0] !== '_social' || segments.length < 2 || !last?.endsWith('.png') || last.length === 4) return undefined;
  return [...segments.slice(1, -1), last.slice(0, -4)];
}

async function serveSocialImage(visit: SiteVisit, res: Response): Promise<void> {
  const visible = await visit.visible();
  const lookup = await findPage(visit, visible, pageSegments(visit.segments)!);
  if (lookup.kind !== 'page') return sendNotFound(visit, res, visible.structure);
  const { png, hash, etag: imageTag } = await socialImage(visit.app, visit, lookup.found);
  const scope = visit.restricted ? 'private' : 'public';
  const etag = `"${imageTag}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': visit.url.searchParams.get('v') === hash ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`,
    // Other sites show a public page's image in their previews.
    ...(visit.restricted ? {} : { 'Cross-Origin-Resource-Policy': 'cross-origin' }),
  };
  if (etagMatches(visit.req, etag)) {
    res.status(304).set(headers).end();
    return;
  }
  res.status(200).set({ ...headers, 'Content-Type': 'image/png' }).send(Buffer.from(png));
}

export const socialImageEndpoint: SiteEndpoint = {
  name: 'social-image',
  audience: 'visitor',
  matches: ({ segments }) => pageSegments(segments) !== undefined,
  serve: serveSocialImage,
};
