import { defineArea } from '../area.js';
import { linksHandlers } from './links.handlers.js';

/**
 * Links: what each stored document links to, extracted once (content/links/store.ts, called by the
 * content engine when it stores a new body). Rows belong to documents, which are shared by content
 * address within an organization: they go with their document by cascade (garbage collection), and
 * are extracted again in a target organization the first time its copy of a body is read (transfer).
 */
export const linksArea = defineArea({
  name: 'links',
  handlers: linksHandlers,
  tables: {
    documentLinks: { stays: 'A document’s links, with the document (shared by content address): extracted again in a target organization the first time its copy of a body is read' },
  },
});
