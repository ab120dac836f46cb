import { defineArea } from '../area.js';
import { importHandlers } from './import.handlers.js';

/** Content import: writes through the content engine (revisions, objects), so it owns no table. */
export const importArea = defineArea({
  name: 'import',
  handlers: importHandlers,
  tables: {},
  events: ['import.finished'],
});
