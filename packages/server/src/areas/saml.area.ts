import { samlHandlers } from '../routes/saml.routes.js';
import { ssoHandlers } from '../routes/sso.routes.js';
import { defineArea } from './area.js';

/** SAML identity providers and signing in through them. */
export const samlArea = defineArea({
  name: 'saml',
  handlers: { ...samlHandlers, ...ssoHandlers },
  tables: ['saml_providers', 'saml_consumed_assertions'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
});
