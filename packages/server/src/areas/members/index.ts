import { memberHandlers } from './members.handlers.js';
import { defineArea } from '../area.js';

/** Members belong to their organization: they never move with a space. */
export const membersArea = defineArea({
  name: 'members',
  handlers: memberHandlers,
  tables: {
    organizationMembers: { stays: 'Members belong to their organization: they never move with a space' },
  },
  events: ['member.added', 'member.role-changed', 'member.removed', 'member.updated'],
});

// What other areas use of this one: the only names they may import (eslint.config.js, boundaries).
export { toApiMember } from './member.mapper.js';
export { findMember, insertMemberIfAbsent, lockMembers, lockMembership, memberRole, updateMember } from './members.repository.js';
export { joinOrganization } from './members.service.js';
