import { inviteHandlers } from './invites.handlers.js';
import { defineArea } from '../area.js';

export const invitesArea = defineArea({
  name: 'invites',
  handlers: inviteHandlers,
  tables: ['link_invites'],
  transfer: 'none',
  purge: 'none',
  duplicate: 'none',
});
