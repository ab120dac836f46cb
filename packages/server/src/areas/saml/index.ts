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
  conflicts: { saml_providers_organization_id_default_team_id_fkey: 'The default team was deleted meanwhile' },
});
