import { samlHandlers } from './saml.handlers.js';
import { ssoHandlers } from './sso.handlers.js';
import { defineArea } from '../area.js';

const IDENTITY = 'The organization’s identity providers (and their replay protection)';

/** SAML identity providers and signing in through them. */
export const samlArea = defineArea({
  name: 'saml',
  handlers: { ...samlHandlers, ...ssoHandlers },
  events: ['saml-provider.created', 'saml-provider.updated', 'saml-provider.deleted'],
  tables: { samlProviders: { stays: IDENTITY }, samlConsumedAssertions: { stays: IDENTITY } },
  conflicts: { saml_providers_organization_id_default_team_id_fkey: 'The default team was deleted meanwhile' },
});
