import { organizationHandlers } from './organizations.handlers.js';
import { defineArea } from '../area.js';

export const organizationsArea = defineArea({
  name: 'organizations',
  handlers: organizationHandlers,
  tables: { organizations: { stays: 'The organization itself' } },
  events: ['organization.created', 'organization.updated'],
  conflicts: { organizations_hostname_key: 'This hostname was taken meanwhile' },
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { bootstrap, ensureUser, hasAnyUser, issueToken } from './bootstrap.js';
export { emailDomainOf } from './organizations.service.js';
