import { organizationHandlers } from './organizations.handlers.js';
import { defineArea } from '../area.js';

export const organizationsArea = defineArea({
  name: 'organizations',
  handlers: organizationHandlers,
  tables: ['organizations'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
  events: ['organization.created', 'organization.updated'],
  conflicts: { organizations_hostname_key: 'This hostname was taken meanwhile' },
});
