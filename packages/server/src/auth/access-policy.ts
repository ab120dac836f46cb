// Who may call each operation (DESIGN.md §6), one entry per operationId: the source of docs/access.md
// and of the authorization matrix tests. Typed by operationId, so an operation added to the spec
// without an entry here fails `tsc`. Handlers enforce these rules (auth/access.ts,
// auth/organization-access.ts); the matrix checks that they do.
import type { OperationId } from '../http/handler.js';
import type { Role } from './roles.js';

export type AccessRule =
  /** Any authenticated user; what they see is limited to their own data or what they may see. */
  | { scope: 'authenticated' }
  /** No bearer token: the request carries its own credential (a signature, a SAML response). */
  | { scope: 'public' }
  /** The caller's organization role: `member` includes guests, `non-guest` excludes them. */
  | { scope: 'organization'; minimum: 'member' | 'non-guest' | Role }
  /** The caller's effective role on the space (or the collection) named in the path. */
  | { scope: 'space'; minimum: Role }
  | { scope: 'collection'; minimum: Role };

export type AccessPolicyEntry = AccessRule & {
  /** What the rule does not say by itself (extra conditions, self-service exceptions). */
  note?: string;
  /**
   * Acts beyond any one organization: refused (403) to a token scoped to one organization (issued
   * through its SSO). Enforced by the dispatcher (auth/token-scope.ts).
   */
  personal?: true;
};

export const accessPolicy: Record<OperationId, AccessPolicyEntry> = {
  getAuthenticatedUser: { scope: 'authenticated' },
  getUserById: { scope: 'authenticated', note: 'only users sharing an organization with the caller (else 404)' },
  listUserTokens: { scope: 'authenticated', personal: true, note: 'the caller’s own tokens' },
  createUserToken: { scope: 'authenticated', personal: true, note: 'never wider or longer-lived than the calling token' },
  deleteUserToken: { scope: 'authenticated', personal: true, note: 'the caller’s own tokens (others: 404)' },
  listOrganizations: { scope: 'authenticated', note: 'organizations the caller is a member of' },
  createOrganization: { scope: 'authenticated', personal: true, note: 'the caller becomes its admin' },
  listOrganizationsForEmailDomain: { scope: 'authenticated', note: 'only organizations the caller may see' },
  getOrganizationById: { scope: 'organization', minimum: 'member' },
  updateOrganizationById: { scope: 'organization', minimum: 'admin' },

  listCollectionsInOrganization: { scope: 'organization', minimum: 'member', note: 'lists the collections the caller can read' },
  createCollection: { scope: 'organization', minimum: 'create', note: 'inside a collection: `create` on it instead' },
  getCollectionById: { scope: 'collection', minimum: 'read' },
  updateCollectionById: { scope: 'collection', minimum: 'admin' },
  deleteCollectionById: { scope: 'collection', minimum: 'admin' },
  listSpacesInCollection: { scope: 'collection', minimum: 'read', note: 'lists the spaces the caller can read' },
  moveCollection: { scope: 'collection', minimum: 'admin', note: 'and `create` on the target collection (or the `create` organization role for the top level)' },
  transferCollection: { scope: 'collection', minimum: 'admin', note: 'and `admin` in the target organization, `create` on a target collection' },

  listSpacesInOrganization: { scope: 'organization', minimum: 'member', note: 'lists the spaces the caller can read' },
  createSpace: { scope: 'organization', minimum: 'create', note: 'inside a collection: `create` on it instead' },
  getSpaceById: { scope: 'space', minimum: 'read' },
  updateSpaceById: { scope: 'space', minimum: 'admin' },
  deleteSpaceById: { scope: 'space', minimum: 'admin' },
  restoreSpace: { scope: 'space', minimum: 'admin', note: 'on a space deleted less than 7 days ago' },
  moveSpace: { scope: 'space', minimum: 'admin', note: 'and `create` on the target collection (or the `create` organization role for the top level)' },
  transferSpace: { scope: 'space', minimum: 'admin', note: 'and `admin` in the target organization, `create` on a target collection' },

  duplicateSpace: { scope: 'collection', minimum: 'create', note: 'on the space’s parent collection (the `create` organization role at the top level), and `read` on the space' },

  getSpaceContent: { scope: 'space', minimum: 'read' },
  listSpacePages: { scope: 'space', minimum: 'read' },
  getSpacePageById: { scope: 'space', minimum: 'read' },
  getSpacePageByPath: { scope: 'space', minimum: 'read' },
  listSpaceFiles: { scope: 'space', minimum: 'read' },
  getSpaceFileById: { scope: 'space', minimum: 'read' },
  getSpaceRevisionById: { scope: 'space', minimum: 'read' },
  applySpaceContentChanges: { scope: 'space', minimum: 'edit', note: 'refused (403) while the space is `locked`' },
  downloadFile: { scope: 'public', note: 'the signed address is the credential; it expires' },

  listChangeRequests: { scope: 'space', minimum: 'read' },
  createChangeRequest: { scope: 'space', minimum: 'edit' },
  getChangeRequestById: { scope: 'space', minimum: 'read' },
  updateChangeRequestById: { scope: 'space', minimum: 'review', note: 'or the change request’s author (with any role on the space); a forbidden status move: 409' },
  mergeChangeRequest: { scope: 'space', minimum: 'review', note: 'refused (403) while the space is `locked`; `archived`/`merged` change requests: 409' },
  updateChangeRequestFromSpace: { scope: 'space', minimum: 'edit', note: 'refused (403) while the space is `locked`; `archived`/`merged` change requests: 409' },
  getChangeRequestContent: { scope: 'space', minimum: 'read' },
  applyChangeRequestContentChanges: { scope: 'space', minimum: 'edit', note: 'refused (403) while the space is `locked`; `archived`/`merged` change requests: 409' },
  listChangeRequestPages: { scope: 'space', minimum: 'read' },
  getChangeRequestPageById: { scope: 'space', minimum: 'read' },
  listChangeRequestFiles: { scope: 'space', minimum: 'read' },
  getChangeRequestFileById: { scope: 'space', minimum: 'read' },

  listSpacePermissions: { scope: 'space', minimum: 'admin' },
  grantSpacePermission: { scope: 'space', minimum: 'admin' },
  updateSpaceUserPermission: { scope: 'space', minimum: 'admin' },
  revokeSpaceUserPermission: { scope: 'space', minimum: 'admin' },
  updateSpaceTeamPermission: { scope: 'space', minimum: 'admin' },
  revokeSpaceTeamPermission: { scope: 'space', minimum: 'admin' },
  listCollectionPermissions: { scope: 'collection', minimum: 'admin' },
  grantCollectionPermission: { scope: 'collection', minimum: 'admin' },
  updateCollectionUserPermission: { scope: 'collection', minimum: 'admin' },
  revokeCollectionUserPermission: { scope: 'collection', minimum: 'admin' },
  updateCollectionTeamPermission: { scope: 'collection', minimum: 'admin' },
  revokeCollectionTeamPermission: { scope: 'collection', minimum: 'admin' },

  listOrganizationMembers: { scope: 'organization', minimum: 'non-guest' },
  getOrganizationMember: { scope: 'organization', minimum: 'non-guest', note: 'a guest may read their own record' },
  updateOrganizationMember: { scope: 'organization', minimum: 'admin', note: 'demoting the last admin: 409' },
  removeOrganizationMember: { scope: 'organization', minimum: 'admin', note: 'any member may remove themself (leave), unless the last admin: 409' },
  setOrganizationMemberSso: { scope: 'organization', minimum: 'admin' },
  listOrganizationMemberSpaces: { scope: 'organization', minimum: 'admin', note: 'a member may read their own' },
  listOrganizationMemberTeams: { scope: 'organization', minimum: 'admin', note: 'a member may read their own' },
  pingOrganization: { scope: 'organization', minimum: 'member' },

  listTeams: { scope: 'organization', minimum: 'non-guest' },
  createTeam: { scope: 'organization', minimum: 'admin' },
  getTeamById: { scope: 'organization', minimum: 'non-guest' },
  updateTeamById: { scope: 'organization', minimum: 'admin' },
  deleteTeamById: { scope: 'organization', minimum: 'admin' },
  listTeamMembers: { scope: 'organization', minimum: 'non-guest' },
  updateTeamMembers: { scope: 'organization', minimum: 'admin', note: 'or the team’s owner' },
  putTeamMember: { scope: 'organization', minimum: 'admin', note: 'or the team’s owner' },
  removeTeamMember: { scope: 'organization', minimum: 'admin', note: 'or the team’s owner' },

  listLinkInvites: { scope: 'organization', minimum: 'admin' },
  createLinkInvite: { scope: 'organization', minimum: 'admin' },
  getLinkInviteById: { scope: 'organization', minimum: 'admin' },
  updateLinkInviteById: { scope: 'organization', minimum: 'admin' },
  deleteLinkInviteById: { scope: 'organization', minimum: 'admin' },
  joinWithLinkInvite: { scope: 'authenticated', note: 'holding the invite id; refused (403) when the organization turned invite links off' },
  joinOrganizationByEmailDomain: { scope: 'authenticated', note: 'with an e-mail domain listed in the organization’s `emailDomains` (else 404)' },

  listSamlProviders: { scope: 'organization', minimum: 'admin' },
  createSamlProvider: { scope: 'organization', minimum: 'admin' },
  getSamlProviderById: { scope: 'organization', minimum: 'admin' },
  updateSamlProviderById: { scope: 'organization', minimum: 'admin' },
  deleteSamlProviderById: { scope: 'organization', minimum: 'admin' },
  listSsoLoginOptions: { scope: 'organization', minimum: 'member', note: 'members disabled by SSO enforcement included: how to sign in' },
  startSamlLogin: { scope: 'public', note: 'a browser starting to sign in; the provider must be `active`' },
  consumeSamlResponse: { scope: 'public', note: 'a SAML response signed with the provider’s certificate, for an e-mail the organization may sign in (else 403)' },
};

/** A rule in words, for docs/access.md. */
export function describeRule(rule: AccessPolicyEntry): string {
  switch (rule.scope) {
    case 'authenticated':
      return rule.personal ? 'any authenticated user, with a personal (unscoped) token' : 'any authenticated user';
    case 'public':
      return 'no token (own credential)';
    case 'organization':
      return rule.minimum === 'member' ? 'organization member (guests included)' : rule.minimum === 'non-guest' ? 'organization member, not a guest' : `organization role ≥ \`${rule.minimum}\``;
    case 'space':
      return `\`${rule.minimum}\` on the space`;
    case 'collection':
      return `\`${rule.minimum}\` on the collection`;
  }
}
