// Permissions objects: what the caller may do, each boolean the answer of the operation it stands for
// (docs/design/access-model.md, "Permissions objects"), decided by access/permitted.ts from that operation's `x-access` through the same
// minimum and rules the gate enforces — so a boolean can never say true where the operation answers 403
// (a locked space's `edit` and `merge`, a disabled member's `createContent`). No query: lists compute
// them in bulk from the rows and roles they read.
import type { components } from '@content-workspace/contract';
import type { MembershipRow, OrganizationRow } from './standing.repository.js';
import { roleAtLeast, type Role } from './roles.js';
import { permitted, type OperationName, type PermissionSubject } from './permitted.js';
import type { AccessRuleRegistry } from './rules.js';
import type { CollectionAccess, SpaceAccess } from './scopes.js';

type Schemas = components['schemas'];

/** A member's organization role: a role, `null` for a guest; `undefined` for a non-member. */
export type OrganizationRole = Role | null | undefined;

/** The operation each boolean of a permissions object stands for (and the body it is asked with, when a rule reads one). */
type Sources<P> = { readonly [K in keyof P]: Source };

export const ORGANIZATION_PERMISSIONS = {
  view: 'getOrganizationById', admin: 'updateOrganizationById', ownTeam: 'createTeam',
  // At the top level, where the organization role decides (inside a collection, the collection's `create`).
  createContent: 'createSpace',
  createOpenAPISpec: 'createOpenAPISpec', listMembers: 'listOrganizationMembers', listTeams: 'listTeams',
  // A self-hosted server has no billing operation: billing is the organization's admins' (as changing it);
  // its integrations are its identity providers.
  viewBilling: 'updateOrganizationById', listIntegrations: 'listSamlProviders',
} as const satisfies Sources<Schemas['OrganizationPermissions']>;

export const SPACE_PERMISSIONS = {
  view: 'getSpaceById', access: 'getSpaceContent', admin: 'updateSpaceById', viewInviteLinks: 'listSpacePermissions',
  // A Git sync writes the space's content.
  edit: 'applySpaceContentChanges', triggerGitSync: 'applySpaceContentChanges',
  comment: 'postCommentInSpace', merge: 'mergeChangeRequest', review: 'updateChangeRequestById',
} as const satisfies Sources<Schemas['SpacePermissions']>;

export const COLLECTION_PERMISSIONS = { view: 'getCollectionById', admin: 'updateCollectionById', viewInviteLinks: 'listCollectionPermissions' } as const satisfies Sources<Omit<Schemas['CollectionPermissions'], 'create'>>;

export const TEAM_PERMISSIONS = { view: 'getTeamById', admin: 'updateTeamMembers' } as const satisfies Sources<Schemas['TeamPermissions']>;
export const TEAM_MEMBER_ENTRY_PERMISSIONS = { view: 'listTeamMembers' } as const satisfies Sources<Schemas['TeamMemberEntry']['permissions']>;

export const COMMENT_PERMISSIONS = {
  view: 'getCommentInSpace',
  edit: ['updateCommentInSpace', { body: { markdown: '' } }],
  reply: 'postCommentReplyInSpace',
  delete: 'deleteCommentInSpace',
} as const satisfies Sources<Schemas['CommentPermissions']>;

export const SITE_PERMISSIONS = { view: 'getSiteById', edit: 'updateSiteById', publish: 'publishSite', delete: 'deleteSiteById' } as const satisfies Sources<Schemas['SitePermissions']>;
export const OPENAPI_SPEC_PERMISSIONS = { view: 'getOpenAPISpecBySlug', edit: 'createOrUpdateOpenAPISpecBySlug' } as const satisfies Sources<Schemas['OpenAPISpecPermissions']>;
export const TRANSLATION_SETTINGS_PERMISSIONS = { view: 'getTranslationSettings', edit: 'updateTranslationSettings' } as const satisfies Sources<
  Schemas['TranslationSettingsPermissions']
>;
export const CUSTOM_FIELD_PERMISSIONS = { view: 'getOrganizationCustomFieldByName', edit: 'updateOrganizationCustomField' } as const satisfies Sources<
  Schemas['CustomFieldPermissions']
>;

/** The role `create-in-parent` requires on a parent collection (areas/spaces/placement.service.ts). */
export const createInParentRole: Role = 'create';

type Source = OperationName | readonly [OperationName, unknown];

function evaluate<K extends string>(rules: AccessRuleRegistry, sources: Readonly<Record<K, Source>>, subject: PermissionSubject): Record<K, boolean> {
  const result = {} as Record<K, boolean>;
  for (const [name, source] of Object.entries(sources) as Array<[K, Source]>) {
    const [operationId, body] = typeof source === 'string' ? [source, undefined] : source;
    result[name] = permitted(rules, operationId, { ...subject, body });
  }
  return result;
}

/**
 * A member's standing in an organization, as the gate reads it: their membership (undefined for a
 * non-member) and whether the organization enforces SSO.
 */
export type OrganizationStanding = { organization: Pick<OrganizationRow, 'sso'>; membership: MembershipRow | undefined };

/**
 * The standing of a caller who reached an object only enabled members read (sites, specs, settings and
 * fields are behind `sso-enforced` reads): their role decides.
 */
const enabledMember = (role: OrganizationRole): OrganizationStanding => ({
  organization: { sso: false },
  membership: role === undefined ? undefined : { role, sso: false },
});

const organizationSubject = (standing: OrganizationStanding): PermissionSubject => ({
  access: { organization: standing.organization as OrganizationRow, membership: standing.membership!, role: standing.membership === undefined ? undefined : standing.membership.role } as never,
});

export type Permissions = ReturnType<typeof createPermissions>;

/** The permissions objects, decided by the access rules of `rules` (the registry the gate uses: areas/index.ts). */
export function createPermissions(rules: AccessRuleRegistry) {
  return {
    organization: (standing: OrganizationStanding): Schemas['OrganizationPermissions'] =>
      evaluate(rules, ORGANIZATION_PERMISSIONS, organizationSubject(standing)),

    space: (space: SpaceAccess['space'], role: Role | null): Schemas['SpacePermissions'] =>
      evaluate(rules, SPACE_PERMISSIONS, { access: { space, role: role! } }),

    collection: (collection: CollectionAccess['collection'], role: Role | null): Schemas['CollectionPermissions'] => {
      const result = evaluate(rules, COLLECTION_PERMISSIONS, { access: { collection, role: role! } });
      // Creating inside it (`createSpace`/`createCollection` with it as `parent`): the `create-in-parent`
      // rule asks this collection for `createInParentRole` (placement.service.ts requireTargetParent).
      return { ...result, create: result.view && roleAtLeast(role, createInParentRole) };
    },

    team: (role: OrganizationRole, team: { callerTeamRole: 'owner' | 'member' | null }): Schemas['TeamPermissions'] =>
      evaluate(rules, TEAM_PERMISSIONS, { ...organizationSubject(enabledMember(role)), loaded: team }),

    teamMemberEntry: (role: OrganizationRole): Schemas['TeamMemberEntry']['permissions'] =>
      evaluate(rules, TEAM_MEMBER_ENTRY_PERMISSIONS, organizationSubject(enabledMember(role))),

    /** On a comment or reply (its `postedBy`) of a space where the caller's role is `role`. */
    comment: (userId: string, role: Role | null, commentOrReply: { postedBy: string }): Schemas['CommentPermissions'] =>
      evaluate(rules, COMMENT_PERMISSIONS, { userId, access: { role: role! }, loaded: { comment: commentOrReply } }),

    site: (role: OrganizationRole): Schemas['SitePermissions'] => evaluate(rules, SITE_PERMISSIONS, organizationSubject(enabledMember(role))),

    openAPISpec: (role: OrganizationRole): Schemas['OpenAPISpecPermissions'] =>
      evaluate(rules, OPENAPI_SPEC_PERMISSIONS, organizationSubject(enabledMember(role))),

    translationSettings: (role: OrganizationRole): Schemas['TranslationSettingsPermissions'] =>
      evaluate(rules, TRANSLATION_SETTINGS_PERMISSIONS, organizationSubject(enabledMember(role))),

    customField: (role: OrganizationRole): Schemas['CustomFieldPermissions'] =>
      evaluate(rules, CUSTOM_FIELD_PERMISSIONS, organizationSubject(enabledMember(role))),
  };
}
