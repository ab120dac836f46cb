// Permissions objects: what the caller may do, each boolean the answer of the operation it stands for
// (docs/design/access-model.md, "Permissions objects"), decided by access/permitted.ts from that operation's `x-access` through the same
// minimum and rules the gate enforces — so a boolean can never say true where the operation answers 403
// (a locked space's `edit` and `merge`, a disabled member's `createContent`). No query: lists compute
// them in bulk from the rows and roles they read. Each object is compiled once (its operations'
// declarations and rules looked up once) and, but for a comment's (its author is any user), decided once
// per distinct input — the role and the few row fields its rules read — then shared: a 100-item page
// asks the rules a handful of times, not 900 (bench/permissions.ts).
import type { components } from '@content-workspace/contract';
import type { MembershipRow, OrganizationRow } from './standing.repository.js';
import { roleAtLeast, type Role } from './roles.js';
import { compilePermitted, type OperationName, type PermissionSubject } from './permitted.js';
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

/** A permissions object's sources compiled: one decision per boolean, each operation's access looked up once. */
function compile<K extends string>(rules: AccessRuleRegistry, sources: Readonly<Record<K, Source>>): (subject: PermissionSubject) => Record<K, boolean> {
  const decisions = (Object.entries(sources) as Array<[K, Source]>).map(([name, source]) => {
    const [operationId, body] = typeof source === 'string' ? [source, undefined] : source;
    return { name, body, decide: compilePermitted(rules, operationId) };
  });
  return (subject) => {
    const result = {} as Record<K, boolean>;
    for (const { name, body, decide } of decisions) result[name] = decide(subject, body);
    return result;
  };
}

/**
 * Objects decided once per key and shared (frozen: no caller may change another's). The key must name
 * every input the rules read: `keyed` makes any other field of a row throw when a rule reads it.
 */
function once<A extends unknown[], R extends object>(keyOf: (...args: A) => string, decide: (...args: A) => R): (...args: A) => R {
  const decided = new Map<string, R>();
  return (...args) => {
    const key = keyOf(...args);
    let result = decided.get(key);
    if (result === undefined) decided.set(key, (result = Object.freeze(decide(...args))));
    return result;
  };
}

/**
 * `row` as the rules may read it when their answer is shared by every row of the same key: reading one
 * of its fields not in `fields` throws (add the field to the object's key), so a shared answer never
 * hides a field it depended on. Used only when an object is first decided for a key.
 */
function keyed<T extends object>(row: T, fields: readonly string[], what: string): T {
  const refuse = (target: T, field: string | symbol) => {
    if (typeof field === 'string' && !fields.includes(field) && Object.hasOwn(target, field)) {
      throw new Error(`A permissions rule read ${what}.${field}, which the permissions object's key leaves out (access/permissions.ts)`);
    }
  };
  return new Proxy(row, {
    get(target, field, receiver) {
      refuse(target, field);
      return Reflect.get(target, field, receiver) as unknown;
    },
    has(target, field) {
      refuse(target, field);
      return Reflect.has(target, field);
    },
  });
}

/** A role as part of a key: a role, `guest` (null) or `none` (undefined). */
const roleKey = (role: OrganizationRole): string => (role === undefined ? 'none' : (role ?? 'guest'));

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
  const organization = compile(rules, ORGANIZATION_PERMISSIONS);
  const space = compile(rules, SPACE_PERMISSIONS);
  const collection = compile(rules, COLLECTION_PERMISSIONS);
  const team = compile(rules, TEAM_PERMISSIONS);
  const teamMemberEntry = compile(rules, TEAM_MEMBER_ENTRY_PERMISSIONS);
  const comment = compile(rules, COMMENT_PERMISSIONS);
  const site = compile(rules, SITE_PERMISSIONS);
  const openAPISpec = compile(rules, OPENAPI_SPEC_PERMISSIONS);
  const translationSettings = compile(rules, TRANSLATION_SETTINGS_PERMISSIONS);
  const customField = compile(rules, CUSTOM_FIELD_PERMISSIONS);
  /** An object of an organization's enabled members (see `enabledMember`): the role decides alone. */
  const byRole = <R extends object>(decide: (subject: PermissionSubject) => R) => once((role: OrganizationRole) => roleKey(role), (role) => decide(organizationSubject(enabledMember(role))));

  return {
    organization: once(
      (standing: OrganizationStanding) => `${standing.organization.sso}|${standing.membership === undefined ? 'none' : `${roleKey(standing.membership.role)}|${standing.membership.sso}`}`,
      (standing): Schemas['OrganizationPermissions'] =>
        organization(
          organizationSubject({
            organization: keyed(standing.organization, ['sso'], 'organization'),
            membership: standing.membership && keyed(standing.membership, ['role', 'sso'], 'membership'),
          }),
        ),
    ),

    space: once(
      (row: SpaceAccess['space'], role: Role | null) => `${roleKey(role)}|${row.editMode}`,
      (row, role): Schemas['SpacePermissions'] => space({ access: { space: keyed(row, ['editMode'], 'space'), role: role! } }),
    ),

    collection: once(
      (_row: CollectionAccess['collection'], role: Role | null) => roleKey(role),
      (row, role): Schemas['CollectionPermissions'] => {
        const result = collection({ access: { collection: keyed(row, [], 'collection'), role: role! } });
        // Creating inside it (`createSpace`/`createCollection` with it as `parent`): the `create-in-parent`
        // rule asks this collection for `createInParentRole` (placement.service.ts requireTargetParent).
        return { ...result, create: result.view && roleAtLeast(role, createInParentRole) };
      },
    ),

    team: once(
      (role: OrganizationRole, row: { callerTeamRole: 'owner' | 'member' | null }) => `${roleKey(role)}|${row.callerTeamRole}`,
      (role, row): Schemas['TeamPermissions'] => team({ ...organizationSubject(enabledMember(role)), loaded: keyed(row, ['callerTeamRole'], 'team') }),
    ),

    teamMemberEntry: byRole((subject): Schemas['TeamMemberEntry']['permissions'] => teamMemberEntry(subject)),

    /** On a comment or reply (its `postedBy`) of a space where the caller's role is `role` (decided each time: its author is any user). */
    comment: (userId: string, role: Role | null, commentOrReply: { postedBy: string }): Schemas['CommentPermissions'] =>
      comment({ userId, access: { role: role! }, loaded: { comment: commentOrReply } }),

    site: byRole((subject): Schemas['SitePermissions'] => site(subject)),
    openAPISpec: byRole((subject): Schemas['OpenAPISpecPermissions'] => openAPISpec(subject)),
    translationSettings: byRole((subject): Schemas['TranslationSettingsPermissions'] => translationSettings(subject)),
    customField: byRole((subject): Schemas['CustomFieldPermissions'] => customField(subject)),
  };
}
