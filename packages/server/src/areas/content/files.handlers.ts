// The signed file download (`GET /files/{signature}`, outside /v1): no bearer token, the signature is
// the credential. Forged or altered: 404, as for any absent file; genuine but expired: 410.
import { findLiveSpaceOrganization } from '../spaces/index.js';
import { gone, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { verifyDownload } from '../../content/download-signature.js';

export const fileHandlers = {
  async downloadFile({ params, app }) {
    const verified = verifyDownload(app.keys.fileSignature, params.signature);
    if (verified.status === 'invalid') throw notFound('File');
    if (verified.status === 'expired') throw gone('This download address has expired: read the file again for a fresh one');
    const { ticket } = verified;
    // The space may have been deleted (or moved to another organization) since the address was made.
    const organizationId = await findLiveSpaceOrganization(app.db, ticket.spaceId);
    const bytes = organizationId === undefined ? undefined : await app.blobs.get(app.db, organizationId, ticket.blobHash);
    if (!bytes) throw notFound('File');
    const maxAge = Math.max(0, ticket.expiresAt - Math.floor(Date.now() / 1000));
    return {
      status: 200,
      raw: { contentType: ticket.contentType, data: bytes },
      headers: {
        'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(ticket.name)}`,
        'Cache-Control': `private, max-age=${maxAge}`,
        ETag: `"${ticket.blobHash}"`,
        // Served bytes are user content: never let them run as a page of this origin.
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
      },
    };
  },
} satisfies AreaHandlers;
