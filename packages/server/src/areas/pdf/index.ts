import { defineArea } from '../area.js';
import { pdfHandlers } from './pdf.handlers.js';

/**
 * Change-request PDFs. `revision_pdfs` is a cache: its rows go with their revision (cascade), and a
 * transferred or duplicated space renders its PDFs again when asked, so no transfer, purge or
 * duplicate step copies them.
 */
export const pdfArea = defineArea({
  name: 'pdf',
  handlers: pdfHandlers,
  tables: {
    revisionPdfs: {
      transfer: { dropped: 'A cache: a transferred space renders its PDFs again when asked' },
      duplicate: { dropped: 'A cache of change-request revisions, which stay with the original space' },
    },
  },
});
