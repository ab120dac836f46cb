import { inviteHandlers } from './invites.handlers.js';
import { defineArea } from '../area.js';

export const invitesArea = defineArea({
  name: 'invites',
  handlers: inviteHandlers,
  tables: {
    linkInvites: { stays: 'Invitations to join the organization' },
  },
});
