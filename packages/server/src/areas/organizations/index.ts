import { organizationHandlers } from './organizations.handlers.js';
import { defineArea } from '../area.js';

export const organizationsArea = defineArea({
  name: 'organizations',
  handlers: organizationHandlers,
  tables: { organizations: { stays: 'The organization itself' } },
  events: ['organization.created', 'organization.updated'],
  conflicts: { organizations_hostname_key: 'This hostname was taken meanwhile' },
});
