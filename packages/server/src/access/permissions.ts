// Permissions objects: what the caller may do, from their roles (docs/design/access-model.md, "Permissions objects"). The one place that
// turns roles into these booleans.
import type { components } from '@content-workspace/contract';
import { roleAtLeast, type Role } from './roles.js';

/** A member's organization role: a role, `null` for a guest; `undefined` for a non-member. */
export type OrganizationRole = Role | null | undefined;

export function organizationPermissions(role: OrganizationRole): components['schemas']['OrganizationPermissions'] {
  const member = role !== undefined;
  const admin = role === 'admin';
  return {
    view: member,
    admin,
    ownTeam: admin,
    createContent: roleAtLeast(role, 'create'),
    createOpenAPISpec: roleAtLeast(role, 'create'),
    viewBilling: admin,
    listMembers: member && role !== null,
    listTeams: member && role !== null,
    listIntegrations: admin,
  };
}

/** Permissions on a space for the caller's effective role `role` on it. */
export function spacePermissions(role: Role | null): components['schemas']['SpacePermissions'] {
  return SPACE_PERMISSIONS.get(role)!;
}

// Six roles (and none): the objects are built once and shared (lists map hundreds of spaces).
const SPACE_PERMISSIONS = new Map(
  ([null, 'read', 'comment', 'edit', 'review', 'create', 'admin'] as Array<Role | null>).map((role) => [role, Object.freeze(buildSpacePermissions(role))]),
);

function buildSpacePermissions(role: Role | null): components['schemas']['SpacePermissions'] {
  return {
    view: roleAtLeast(role, 'read'),
    access: roleAtLeast(role, 'read'),
    comment: roleAtLeast(role, 'comment'),
    edit: roleAtLeast(role, 'edit'),
    triggerGitSync: roleAtLeast(role, 'edit'),
    review: roleAtLeast(role, 'review'),
    merge: roleAtLeast(role, 'review'),
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
  };
}

/** Permissions on a collection for the caller's effective role `role` on it. */
export function collectionPermissions(role: Role | null): components['schemas']['CollectionPermissions'] {
  return {
    view: roleAtLeast(role, 'read'),
    create: roleAtLeast(role, 'create'),
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
  };
}

/** Permissions on a team for a caller with organization role `role` and role `teamRole` in the team. */
export function teamPermissions(role: OrganizationRole, teamRole: 'owner' | 'member' | null): components['schemas']['TeamPermissions'] {
  return {
    view: role != null,
    admin: role === 'admin' || teamRole === 'owner',
  };
}

/** Permissions on a team member entry for a caller with organization role `role`. */
export function teamMemberEntryPermissions(role: OrganizationRole): components['schemas']['TeamMemberEntry']['permissions'] {
  return { view: role != null };
}

/**
 * Permissions on a comment or reply for a caller with effective role `role` on its space, who is or is
 * not its author. The access rules of the comment operations decide with these too.
 */
export function commentPermissions(role: Role | null, isAuthor: boolean): components['schemas']['CommentPermissions'] {
  return {
    view: roleAtLeast(role, 'comment'),
    edit: isAuthor,
    reply: roleAtLeast(role, 'comment'),
    delete: isAuthor || role === 'admin',
  };
}

/** Permissions on a site (and its structure) for a caller with organization role `role`. */
export function sitePermissions(role: OrganizationRole): components['schemas']['SitePermissions'] {
  const admin = role === 'admin';
  return { view: roleAtLeast(role, 'read'), edit: admin, publish: admin, delete: admin };
}

/** Permissions on an OpenAPI spec: members view, `create` and above edit (as `createOpenAPISpec`). */
export function openAPISpecPermissions(role: OrganizationRole): components['schemas']['OpenAPISpecPermissions'] {
  return { view: role != null, edit: roleAtLeast(role, 'create') };
}

/** Permissions on translation settings: members view, admins edit. */
export function translationSettingsPermissions(role: OrganizationRole): components['schemas']['TranslationSettingsPermissions'] {
  return { view: role != null, edit: role === 'admin' };
}

/** Permissions on a custom field definition: members view, admins edit. */
export function customFieldPermissions(role: OrganizationRole): components['schemas']['CustomFieldPermissions'] {
  return { view: role != null, edit: role === 'admin' };
}
