// A change request's content as a PDF: the signed address (`GET .../pdf`), and the address served
// (`GET /pdf/{signature}`, outside /v1: the signature is the credential, like a file download).
import { gone, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { pdfAddress, pdfOf, readPdfAddress, type PdfSubject } from './pdf.service.js';
import { findPdfSubject } from './pdf.repository.js';

export const pdfHandlers = {
  async getChangeRequestPdf({ access: { space, changeRequest }, query, app }) {
    const subject: PdfSubject = {
      organizationId: space.organizationId,
      spaceId: space.id,
      spaceTitle: space.title,
      changeRequestId: changeRequest.id,
      number: changeRequest.number,
      subject: changeRequest.subject,
    };
    const options = { page: query.page, only: query.only ?? false };
    // Rendered (or found) now, so a PDF that cannot be made fails here rather than at its address.
    await pdfOf(app, subject, changeRequest.revisionId, options);
    return { status: 200, body: { url: pdfAddress(app, subject, changeRequest.revisionId, options) } };
  },

  async downloadChangeRequestPdf({ params, app }) {
    const ticket = readPdfAddress(app, params.signature);
    if (ticket.status === 'invalid') throw notFound('PDF');
    if (ticket.status === 'expired') throw gone('This PDF address has expired: ask for the PDF again for a fresh one');
    // The space may have been deleted (or moved to another organization) since the address was made.
    const subject = await findPdfSubject(app.db, ticket.spaceId, ticket.changeRequestId);
    if (!subject) throw notFound('PDF');
    const pdf = await pdfOf(app, subject, ticket.revisionId, ticket.options);
    const maxAge = Math.max(0, ticket.expiresAt - Math.floor(Date.now() / 1000));
    return {
      status: 200,
      raw: { contentType: 'application/pdf', data: pdf },
      headers: {
        'Content-Disposition': `inline; filename="change-request-${subject.number}.pdf"`,
        'Cache-Control': `private, max-age=${maxAge}`,
        // Browsers show PDFs with a viewer that a `sandbox` policy would block; the PDF holds no script.
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      },
    };
  },
} satisfies AreaHandlers;
