import { inviteHandlers } from './invites.handlers.js';
import { defineArea } from '../area.js';

export const invitesArea = defineArea({
  name: 'invites',
  handlers: inviteHandlers,
  events: ['invite.created', 'invite.updated', 'invite.deleted'],
  tables: {
    linkInvites: { stays: 'Invitations to join the organization' },
  },
});
