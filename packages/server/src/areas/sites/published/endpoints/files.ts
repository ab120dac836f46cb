// `_files/{spaceId}/{fileId}`: a file of a space the visitor sees on the site, at the space's head. The
// authors' bytes are never a page of the site's origin: raster images open in the browser, anything
// else downloads, and nothing they hold runs (FILE_CSP).
import type { Response } from 'express';
import { loadFileTree } from '../../../../content/tree-store.js';
import { siteSpacesOf } from '../site-navigation.js';
import { FILE_CSP, opensInline } from '../site-responses.js';
import { etagMatches, ID, sendNotFound, type SiteEndpoint, type SiteVisit } from '../site-visit.js';

/** Answers the file at `_files/{spaceId}/{fileId}`; false when the visitor has none there. */
async function serveFile(visit: SiteVisit, res: Response): Promise<boolean> {
  const { app, state, segments } = visit;
  const [, spaceId, fileId] = segments;
  if (!spaceId || !fileId || segments.length !== 3 || !ID.test(spaceId) || !ID.test(fileId)) return false;
  const { structure } = await visit.visible();
  if (!siteSpacesOf(structure).some((item) => item.siteSpace.spaceId === spaceId)) return false;
  const head = state.heads.get(spaceId);
  const file = head && (await loadFileTree(app.db, app.caches, state.site.organizationId, head.filesRoot)).items.get(fileId);
  if (!file) return false;
  const etag = `"${file.blobHash}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': visit.restricted ? 'private, no-cache' : 'public, no-cache',
    // Files are the authors' bytes: never a page of this origin.
    'Content-Security-Policy': FILE_CSP,
    'Content-Disposition': `${opensInline(file.contentType) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  };
  if (etagMatches(visit.req, etag)) {
    res.status(304).set(headers).end();
    return true;
  }
  const bytes = await app.blobs.get(app.db, state.site.organizationId, file.blobHash);
  if (!bytes) return false;
  res.status(200).set({ ...headers, 'Content-Type': file.contentType }).send(bytes);
  return true;
}

export const filesEndpoint: SiteEndpoint = {
  name: 'files',
  audience: 'visitor',
  matches: ({ segments }) => segments[0] === '_files',
  async serve(visit, res) {
    if (!(await serveFile(visit, res))) sendNotFound(visit, res, (await visit.visible()).structure);
  },
};
