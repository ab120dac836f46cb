import { translationHandlers } from './translations.handlers.js';
import { defineArea } from '../area.js';

/** Translation settings: an organization's own rows, never tied to spaces or collections. */
export const translationsArea = defineArea({
  name: 'translations',
  handlers: translationHandlers,
  events: ['translation-settings.created', 'translation-settings.updated', 'translation-settings.deleted'],
  tables: {
    translationSettings: { stays: 'An organization’s own settings, never tied to spaces or collections' },
  },
});
