import { samlHandlers } from './saml.handlers.js';
import { ssoHandlers } from './sso.handlers.js';
import { defineArea } from '../area.js';

/** SAML identity providers and signing in through them. */
export const samlArea = defineArea({
  name: 'saml',
  handlers: { ...samlHandlers, ...ssoHandlers },
  tables: ['saml_providers', 'saml_consumed_assertions'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
});
