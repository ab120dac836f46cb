// How to call each operation in a matrix world: one entry per operationId (typed: an operation
// without a case fails `tsc`). A case only builds a valid request; the expected outcome comes from the
// access policy. Extra conditions of an operation (a target organization, a second sibling) are set
// up so that only the rule under test decides.
import type { OperationId } from '../../src/http/handler.js';
import { addMember, createCollection, createMember, createOrganizationWithAdmin, createSamlProvider, createSpace, createTeam, grant } from '../support/factories.js';
import { samlResponse } from '../support/saml.js';
import { zip } from '../support/zip.js';
import { postComment, postReply } from '../../src/areas/comments/comments.service.js';
import { checkedMarkdown } from '../../src/areas/comments/reactions.js';
import { addSection, addSiteSpace, createGroup, createSite, publish } from '../support/sites.js';
import { processSpec } from '../../src/areas/openapi-specs/openapi-specs.service.js';
import type { World } from './world.js';

type Answer = { response: Response; error?: unknown };
export type MatrixCase = (world: World) => Promise<Answer>;

const org = (w: World) => ({ params: { path: { organizationId: w.organization.id } } });
const space = (w: World) => ({ params: { path: { spaceId: w.space.id } } });
const collection = (w: World) => ({ params: { path: { collectionId: w.collection.id } } });

/** A second organization the caller administers (a transfer target). */
async function targetOrganization(w: World) {
  const target = await createOrganizationWithAdmin(w.t);
  await addMember(w.t, target.organization, w.caller, 'admin');
  return target.organization;
}

export const matrixCases: Record<OperationId, MatrixCase> = {
  getAuthenticatedUser: (w) => w.caller.client.GET('/v1/user'),
  getUserById: (w) => w.caller.client.GET('/v1/users/{userId}', { params: { path: { userId: w.caller.user.id } } }),
  listUserTokens: (w) => w.caller.client.GET('/v1/user/tokens'),
  createUserToken: (w) => w.caller.client.POST('/v1/user/tokens', { body: { label: 'matrix' } }),
  deleteUserToken: async (w) => {
    const { data } = await w.caller.client.POST('/v1/user/tokens', { body: { label: 'doomed' } });
    return w.caller.client.DELETE('/v1/user/tokens/{tokenId}', { params: { path: { tokenId: data!.id } } });
  },
  listOrganizations: (w) => w.caller.client.GET('/v1/orgs'),
  createOrganization: (w) => w.caller.client.POST('/v1/orgs', { body: { title: 'Matrix' } }),
  listOrganizationsForEmailDomain: (w) => w.caller.client.GET('/v1/email-domains/{emailDomain}/orgs', { params: { path: { emailDomain: 'example.com' } } }),
  getOrganizationById: (w) => w.caller.client.GET('/v1/orgs/{organizationId}', org(w)),
  updateOrganizationById: (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}', { ...org(w), body: { title: 'Renamed' } }),

  listCollectionsInOrganization: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/collections', org(w)),
  createCollection: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/collections', { ...org(w), body: {} }),
  getCollectionById: (w) => w.caller.client.GET('/v1/collections/{collectionId}', collection(w)),
  updateCollectionById: (w) => w.caller.client.PATCH('/v1/collections/{collectionId}', { ...collection(w), body: { title: 'Renamed' } }),
  deleteCollectionById: (w) => w.caller.client.DELETE('/v1/collections/{collectionId}', collection(w)),
  listSpacesInCollection: (w) => w.caller.client.GET('/v1/collections/{collectionId}/spaces', collection(w)),
  moveCollection: async (w) => {
    const sibling = await createCollection(w.t, w.owner, w.organization, { parent: w.collection.parentCollectionId ? { id: w.collection.parentCollectionId } : null });
    return w.caller.client.POST('/v1/collections/{collectionId}/move', { ...collection(w), body: { position: { after: { type: 'collection', collection: sibling.id } } } });
  },
  transferCollection: async (w) =>
    w.caller.client.POST('/v1/collections/{collectionId}/transfer', { ...collection(w), body: { organization: (await targetOrganization(w)).id } }),

  listSpacesInOrganization: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/spaces', org(w)),
  createSpace: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/spaces', { ...org(w), body: {} }),
  getSpaceById: (w) => w.caller.client.GET('/v1/spaces/{spaceId}', space(w)),
  updateSpaceById: (w) => w.caller.client.PATCH('/v1/spaces/{spaceId}', { ...space(w), body: { title: 'Renamed' } }),
  deleteSpaceById: (w) => w.caller.client.DELETE('/v1/spaces/{spaceId}', space(w)),
  restoreSpace: async (w) => {
    await w.owner.client.DELETE('/v1/spaces/{spaceId}', space(w));
    return w.caller.client.POST('/v1/spaces/{spaceId}/restore', space(w));
  },
  moveSpace: async (w) => {
    const sibling = await createSpace(w.t, w.owner, w.organization, { parent: w.collection });
    return w.caller.client.POST('/v1/spaces/{spaceId}/move', { ...space(w), body: { position: { after: { type: 'space', space: sibling.id } } } });
  },
  transferSpace: async (w) => w.caller.client.POST('/v1/spaces/{spaceId}/transfer', { ...space(w), body: { organization: (await targetOrganization(w)).id } }),

  duplicateSpace: (w) => w.caller.client.POST('/v1/spaces/{spaceId}/duplicate', space(w)),
  getSpaceContent: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/content', space(w)),
  listSpacePages: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/content/pages', space(w)),
  getSpacePageById: async (w) => {
    const { pageId } = await seedContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}', { params: { path: { spaceId: w.space.id, pageId } } });
  },
  getSpacePageByPath: async (w) => {
    await seedContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/content/path/{pagePath}', { params: { path: { spaceId: w.space.id, pagePath: 'matrix' } } });
  },
  listSpaceFiles: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/content/files', space(w)),
  getSpaceFileById: async (w) => {
    const { fileId } = await seedContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: { spaceId: w.space.id, fileId } } });
  },
  getSpaceRevisionById: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/revisions/{revisionId}', { params: { path: { spaceId: w.space.id, revisionId: w.space.headRevisionId } } }),
  applySpaceContentChanges: (w) =>
    w.caller.client.POST('/v1/spaces/{spaceId}/content', { ...space(w), body: { changes: [{ type: 'insert_page', title: 'Written by the caller' }] } }),
  downloadFile: async (w) => {
    const { fileId } = await seedContent(w);
    const { data } = await w.owner.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}', { params: { path: { spaceId: w.space.id, fileId } } });
    const signature = new URL(data!.downloadURL).pathname.split('/').pop()!;
    return w.caller.client.GET('/files/{signature}', { params: { path: { signature } }, parseAs: 'blob' });
  },

  importSpaceContent: (w) => w.caller.client.POST('/v1/spaces/{spaceId}/content/import', { ...space(w), body: importBody() }),
  importChangeRequestContent: async (w) =>
    w.caller.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', { ...(await changeRequestOf(w)), body: importBody() }),
  getChangeRequestPdf: async (w) => {
    const { params } = await changeRequestWithContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', { params });
  },
  downloadChangeRequestPdf: async (w) => {
    const { params } = await changeRequestWithContent(w);
    const { data } = await w.owner.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', { params });
    const signature = new URL(data!.url).pathname.split('/').pop()!;
    return w.caller.client.GET('/pdf/{signature}', { params: { path: { signature } }, parseAs: 'blob' });
  },

  listChangeRequests: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests', space(w)),
  createChangeRequest: (w) => w.caller.client.POST('/v1/spaces/{spaceId}/change-requests', { ...space(w), body: { subject: 'By the caller' } }),
  getChangeRequestById: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', await changeRequestOf(w)),
  updateChangeRequestById: async (w) =>
    w.caller.client.PATCH('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', { ...(await changeRequestOf(w)), body: { subject: 'Renamed' } }),
  mergeChangeRequest: async (w) => w.caller.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge', await changeRequestOf(w)),
  updateChangeRequestFromSpace: async (w) => w.caller.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update', await changeRequestOf(w)),
  getChangeRequestContent: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', await changeRequestOf(w)),
  applyChangeRequestContentChanges: async (w) =>
    w.caller.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
      ...(await changeRequestOf(w)),
      body: { changes: [{ type: 'insert_page', title: 'Written by the caller' }] },
    }),
  listChangeRequestPages: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', await changeRequestOf(w)),
  getChangeRequestPageById: async (w) => {
    const { params, pageId } = await changeRequestWithContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', { params: { path: { ...params.path, pageId } } });
  },
  listChangeRequestFiles: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', await changeRequestOf(w)),
  getChangeRequestFileById: async (w) => {
    const { params, fileId } = await changeRequestWithContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}', { params: { path: { ...params.path, fileId } } });
  },

  listCommentsInSpace: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/comments', space(w)),
  postCommentInSpace: (w) => w.caller.client.POST('/v1/spaces/{spaceId}/comments', { ...space(w), body: { body: { markdown: 'By the caller' } } }),
  getCommentInSpace: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/comments/{commentId}', await commentOf(w, 'space', 'owner')),
  updateCommentInSpace: async (w) => w.caller.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}', { ...(await commentOf(w, 'space', 'owner')), body: { resolved: true } }),
  deleteCommentInSpace: async (w) => w.caller.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}', await commentOf(w, 'space', 'caller')),
  listCommentRepliesInSpace: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies', await commentOf(w, 'space', 'owner')),
  postCommentReplyInSpace: async (w) =>
    w.caller.client.POST('/v1/spaces/{spaceId}/comments/{commentId}/replies', { ...(await commentOf(w, 'space', 'owner')), body: { body: { markdown: 'Reply' } } }),
  getCommentReplyInSpace: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', await replyOf(w, 'space', 'owner')),
  updateCommentReplyInSpace: async (w) =>
    w.caller.client.PUT('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', { ...(await replyOf(w, 'space', 'owner')), body: { addedReactions: ['👍'] } }),
  deleteCommentReplyInSpace: async (w) => w.caller.client.DELETE('/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}', await replyOf(w, 'space', 'caller')),

  listCommentsInChangeRequest: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', await changeRequestOf(w)),
  postCommentInChangeRequest: async (w) =>
    w.caller.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments', { ...(await changeRequestOf(w)), body: { body: { markdown: 'By the caller' } } }),
  getCommentInChangeRequest: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', await commentOf(w, 'cr', 'owner')),
  updateCommentInChangeRequest: async (w) =>
    w.caller.client.PUT('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', { ...(await commentOf(w, 'cr', 'owner')), body: { resolved: true } }),
  deleteCommentInChangeRequest: async (w) => w.caller.client.DELETE('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}', await commentOf(w, 'cr', 'caller')),
  listCommentRepliesInChangeRequest: async (w) =>
    w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', await commentOf(w, 'cr', 'owner')),
  postCommentReplyInChangeRequest: async (w) =>
    w.caller.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies', {
      ...(await commentOf(w, 'cr', 'owner')),
      body: { body: { markdown: 'Reply' } },
    }),
  getCommentReplyInChangeRequest: async (w) =>
    w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', await replyOf(w, 'cr', 'owner')),
  updateCommentReplyInChangeRequest: async (w) =>
    w.caller.client.PUT('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', {
      ...(await replyOf(w, 'cr', 'owner')),
      body: { addedReactions: ['👍'] },
    }),
  deleteCommentReplyInChangeRequest: async (w) =>
    w.caller.client.DELETE('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}', await replyOf(w, 'cr', 'caller')),
  searchSpaceContent: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/search', { params: { path: { spaceId: w.space.id }, query: { query: 'matrix' } } }),
  searchOrganizationContent: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/search', { params: { path: { organizationId: w.organization.id }, query: { query: 'matrix' } } }),
  listSpaceLinks: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/links', space(w)),
  listSpacePageLinks: async (w) => {
    const { pageId } = await seedContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/content/page/{pageId}/links', { params: { path: { spaceId: w.space.id, pageId } } });
  },
  listSpaceFileBacklinks: async (w) => {
    const { fileId } = await seedContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', { params: { path: { spaceId: w.space.id, fileId } } });
  },
  listChangeRequestLinks: async (w) => w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links', await changeRequestOf(w)),
  listChangeRequestPageLinks: async (w) => {
    const { params, pageId } = await changeRequestWithContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', { params: { path: { ...params.path, pageId } } });
  },
  listChangeRequestFileBacklinks: async (w) => {
    const { params, fileId } = await changeRequestWithContent(w);
    return w.caller.client.GET('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks', { params: { path: { ...params.path, fileId } } });
  },

  listSpacePermissions: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/permissions', space(w)),
  grantSpacePermission: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    return w.caller.client.POST('/v1/spaces/{spaceId}/permissions', { ...space(w), body: { user: member.user.id, role: 'edit' } });
  },
  updateSpaceUserPermission: async (w) => {
    const member = await grantedMember(w, 'space');
    return w.caller.client.PATCH('/v1/spaces/{spaceId}/permissions/users/{userId}', { params: { path: { spaceId: w.space.id, userId: member.user.id } }, body: { role: 'review' } });
  },
  revokeSpaceUserPermission: async (w) => {
    const member = await grantedMember(w, 'space');
    return w.caller.client.DELETE('/v1/spaces/{spaceId}/permissions/users/{userId}', { params: { path: { spaceId: w.space.id, userId: member.user.id } } });
  },
  updateSpaceTeamPermission: async (w) => {
    const team = await grantedTeam(w, 'space');
    return w.caller.client.PATCH('/v1/spaces/{spaceId}/permissions/teams/{teamId}', { params: { path: { spaceId: w.space.id, teamId: team.id } }, body: { role: 'review' } });
  },
  revokeSpaceTeamPermission: async (w) => {
    const team = await grantedTeam(w, 'space');
    return w.caller.client.DELETE('/v1/spaces/{spaceId}/permissions/teams/{teamId}', { params: { path: { spaceId: w.space.id, teamId: team.id } } });
  },
  listCollectionPermissions: (w) => w.caller.client.GET('/v1/collections/{collectionId}/permissions', collection(w)),
  grantCollectionPermission: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    return w.caller.client.POST('/v1/collections/{collectionId}/permissions', { ...collection(w), body: { user: member.user.id, role: 'edit' } });
  },
  updateCollectionUserPermission: async (w) => {
    const member = await grantedMember(w, 'collection');
    return w.caller.client.PATCH('/v1/collections/{collectionId}/permissions/users/{userId}', { params: { path: { collectionId: w.collection.id, userId: member.user.id } }, body: { role: 'review' } });
  },
  revokeCollectionUserPermission: async (w) => {
    const member = await grantedMember(w, 'collection');
    return w.caller.client.DELETE('/v1/collections/{collectionId}/permissions/users/{userId}', { params: { path: { collectionId: w.collection.id, userId: member.user.id } } });
  },
  updateCollectionTeamPermission: async (w) => {
    const team = await grantedTeam(w, 'collection');
    return w.caller.client.PATCH('/v1/collections/{collectionId}/permissions/teams/{teamId}', { params: { path: { collectionId: w.collection.id, teamId: team.id } }, body: { role: 'review' } });
  },
  revokeCollectionTeamPermission: async (w) => {
    const team = await grantedTeam(w, 'collection');
    return w.caller.client.DELETE('/v1/collections/{collectionId}/permissions/teams/{teamId}', { params: { path: { collectionId: w.collection.id, teamId: team.id } } });
  },

  listOrganizationMembers: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/members', org(w)),
  getOrganizationMember: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/members/{userId}', ownerMember(w)),
  updateOrganizationMember: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    return w.caller.client.PATCH('/v1/orgs/{organizationId}/members/{userId}', { ...memberOf(w, member.user.id), body: { role: 'comment' } });
  },
  removeOrganizationMember: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberOf(w, member.user.id));
  },
  setOrganizationMemberSso: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    return w.caller.client.POST('/v1/orgs/{organizationId}/members/{userId}/sso', memberOf(w, member.user.id));
  },
  listOrganizationMemberSpaces: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/members/{userId}/spaces', ownerMember(w)),
  listOrganizationMemberTeams: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/members/{userId}/teams', ownerMember(w)),
  pingOrganization: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/ping', org(w)),

  listTeams: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/teams', org(w)),
  createTeam: (w) => w.caller.client.PUT('/v1/orgs/{organizationId}/teams', { ...org(w), body: { title: 'Matrix team' } }),
  getTeamById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/teams/{teamId}', teamOf(w, await createTeam(w.t, w.organization))),
  updateTeamById: async (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}/teams/{teamId}', { ...teamOf(w, await createTeam(w.t, w.organization)), body: { title: 'Renamed' } }),
  deleteTeamById: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}', teamOf(w, await createTeam(w.t, w.organization))),
  listTeamMembers: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', teamOf(w, await createTeam(w.t, w.organization))),
  updateTeamMembers: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    return w.caller.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members', { ...teamOf(w, await createTeam(w.t, w.organization)), body: { add: [member.user.id] } });
  },
  putTeamMember: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    const team = await createTeam(w.t, w.organization);
    return w.caller.client.PUT('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', {
      params: { path: { organizationId: w.organization.id, teamId: team.id, userId: member.user.id } },
      body: { role: 'member' },
    });
  },
  removeTeamMember: async (w) => {
    const member = await createMember(w.t, w.organization, 'read');
    const team = await createTeam(w.t, w.organization, [member]);
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', {
      params: { path: { organizationId: w.organization.id, teamId: team.id, userId: member.user.id } },
    });
  },

  listLinkInvites: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/link-invites', org(w)),
  createLinkInvite: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/link-invites', { ...org(w), body: { role: 'read' } }),
  getLinkInviteById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/link-invites/{inviteId}', await inviteOf(w)),
  updateLinkInviteById: async (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}/link-invites/{inviteId}', { ...(await inviteOf(w)), body: { role: 'edit' } }),
  deleteLinkInviteById: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/link-invites/{inviteId}', await inviteOf(w)),
  joinWithLinkInvite: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/link-invites/{inviteId}/join', await inviteOf(w)),
  joinOrganizationByEmailDomain: async (w) => {
    await w.t.db.updateTable('organizations').set({ emailDomains: [w.caller.user.email.split('@')[1]!] }).where('id', '=', w.organization.id).execute();
    return w.caller.client.POST('/v1/orgs/{organizationId}/join', org(w));
  },

  listSamlProviders: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/saml', org(w)),
  createSamlProvider: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/saml', { ...org(w), body: { label: 'Matrix' } }),
  getSamlProviderById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', await samlProviderOf(w)),
  updateSamlProviderById: async (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}/saml/{samlProviderId}', { ...(await samlProviderOf(w)), body: { label: 'Renamed' } }),
  deleteSamlProviderById: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', await samlProviderOf(w)),
  listSsoLoginOptions: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sso', org(w)),
  // Public: a browser with no token; the calls are valid (the provider active, the response signed).
  startSamlLogin: async (w) => w.t.client().GET('/sso/orgs/{organizationId}/saml/{samlProviderId}/start', { ...(await samlProviderOf(w)), redirect: 'manual' }),
  consumeSamlResponse: async (w) => {
    const provider = await samlProviderOf(w);
    const { data } = await w.owner.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', provider);
    return w.t.client().POST('/sso/orgs/{organizationId}/saml/{samlProviderId}/acs', {
      ...provider,
      body: { SAMLResponse: samlResponse({ service: data!.service, email: w.owner.user.email }) },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
  },

  listSites: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites', org(w)),
  createSite: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites', { ...org(w), body: { title: 'Matrix', spaces: [w.space.id] } }),
  getSiteById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', await siteOf(w)),
  updateSiteById: async (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...(await siteOf(w)), body: { title: 'Renamed' } }),
  deleteSiteById: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}', await siteOf(w)),
  publishSite: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', await siteOf(w)),
  unpublishSite: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/unpublish', await siteOf(w)),
  // The harness's DNS server refuses every question: the check answers 200 with the claim still pending.
  verifySiteHostname: async (w) => {
    const site = await siteOf(w);
    await w.owner.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...site, body: { hostname: `docs-${site.params.path.siteId.toLowerCase()}.matrix.test` } });
    return w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/hostname/verify', site);
  },
  getSiteAdaptiveSchema: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', await siteOf(w)),
  updateSiteAdaptiveSchema: async (w) =>
    w.caller.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', {
      ...(await siteOf(w)),
      body: { jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { beta: { type: 'boolean' } }, additionalProperties: false } },
    }),
  // Any authenticated caller reads a published public site.
  getPublishedContentSite: async (w) => {
    const site = await siteOf(w);
    await publish(w.owner.client, w.organization.id, site.params.path.siteId);
    return w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/published', site);
  },
  getSiteCustomization: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/customization', await siteOf(w)),
  updateSiteCustomization: async (w) => w.caller.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/customization', { ...(await siteOf(w)), body: { title: 'Matrix docs' } }),
  listSiteShareLinks: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/share-links', await siteOf(w)),
  createSiteShareLink: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...(await siteOf(w)), body: { label: 'Matrix' } }),
  deleteSiteShareLink: async (w) => {
    const site = await siteOf(w);
    const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...site, body: { label: 'Doomed' } });
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}', { params: { path: { ...site.params.path, shareLinkId: data!.id } } });
  },
  listSiteRedirects: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects', await siteOf(w)),
  createSiteRedirect: async (w) =>
    w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...(await siteOf(w)), body: { source: '/matrix-old', target: { kind: 'url', url: 'https://example.com/matrix' } } }),
  getSiteRedirect: async (w) => {
    const site = await siteOf(w);
    const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...site, body: { source: '/matrix-get', target: { kind: 'url', url: 'https://example.com/get' } } });
    return w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', { params: { path: { ...site.params.path, siteRedirectId: data!.id } } });
  },
  updateSiteRedirect: async (w) => {
    const site = await siteOf(w);
    const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...site, body: { source: '/matrix-patch', target: { kind: 'url', url: 'https://example.com/patch' } } });
    return w.caller.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', { params: { path: { ...site.params.path, siteRedirectId: data!.id } }, body: { permanent: false } });
  },
  deleteSiteRedirect: async (w) => {
    const site = await siteOf(w);
    const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...site, body: { source: '/matrix-delete', target: { kind: 'url', url: 'https://example.com/delete' } } });
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}', { params: { path: { ...site.params.path, siteRedirectId: data!.id } } });
  },
  upsertSiteRedirects: async (w) =>
    w.caller.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/redirects/bulk', { ...(await siteOf(w)), body: { redirects: [{ source: '/matrix-bulk', target: { kind: 'url', url: 'https://example.com/bulk' } }] } }),
  getSiteRedirectBySource: async (w) => {
    const site = await siteOf(w);
    await w.owner.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/redirects', { ...site, body: { source: '/matrix-lookup', target: { kind: 'url', url: 'https://example.com/lookup' } } });
    return w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/redirect', { params: { path: site.params.path, query: { source: '/matrix-lookup' } } });
  },
  listSiteFeedback: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', await siteOf(w)),
  getSiteInsights: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', await siteOf(w)),
  getSiteVisitorAuth: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', await siteOf(w)),
  updateSiteVisitorAuth: async (w) => w.caller.client.PUT('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth', { ...(await siteOf(w)), body: { fallbackURL: 'https://example.com/login' } }),
  rotateSiteVisitorAuthSecret: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/visitor-auth/secret', await siteOf(w)),

  listSiteSections: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/sections', await siteOf(w)),
  addSiteSection: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...(await siteOf(w)), body: { spaceId: w.space.id, title: 'Matrix' } }),
  updateSiteSection: async (w) => {
    const { site, section } = await sectionOf(w);
    return w.caller.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { ...site.params.path, siteSectionId: section.id } }, body: { title: 'Renamed' } });
  },
  deleteSiteSection: async (w) => {
    const { site, section } = await sectionOf(w);
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', { params: { path: { ...site.params.path, siteSectionId: section.id } } });
  },
  moveSiteSection: async (w) => {
    const { site, section } = await sectionOf(w);
    const other = await addSection(w.owner.client, w.organization.id, site.params.path.siteId, w.space.id, 'Other');
    return w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move', {
      params: { path: { ...site.params.path, siteSectionId: section.id } },
      body: { position: { after: { type: 'site-section', siteSection: other.id } } },
    });
  },
  listSiteSectionGroups: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', await siteOf(w)),
  createSiteSectionGroup: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...(await siteOf(w)), body: { title: 'Matrix' } }),
  updateSiteSectionGroup: async (w) => {
    const { site, group } = await groupOf(w);
    return w.caller.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', { params: { path: { ...site.params.path, siteSectionGroupId: group.id } }, body: { title: 'Renamed' } });
  },
  deleteSiteSectionGroup: async (w) => {
    const { site, group } = await groupOf(w);
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', { params: { path: { ...site.params.path, siteSectionGroupId: group.id } } });
  },
  addSiteSectionToGroup: async (w) => {
    const { site, group, section } = await groupOf(w);
    return w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections', {
      params: { path: { ...site.params.path, siteSectionGroupId: group.id } },
      body: { sectionId: section.id },
    });
  },
  removeSiteSectionFromGroup: async (w) => {
    const { site, section } = await sectionOf(w);
    const group = await createGroup(w.owner.client, w.organization.id, site.params.path.siteId, 'Matrix', [section.id]);
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}', {
      params: { path: { ...site.params.path, siteSectionGroupId: group.id, siteSectionId: section.id } },
    });
  },
  moveSiteSectionGroup: async (w) => {
    const { site, group, section } = await groupOf(w);
    return w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move', {
      params: { path: { ...site.params.path, siteSectionGroupId: group.id } },
      body: { position: { before: { type: 'site-section', id: section.id } } },
    });
  },
  listSiteSpaces: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', await siteOf(w)),
  addSiteSpace: async (w) => {
    const site = await createSite(w.owner.client, w.organization.id);
    return w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { params: { path: { organizationId: w.organization.id, siteId: site.id } }, body: { spaceId: w.space.id } });
  },
  updateSiteSpace: async (w) => {
    const { site, siteSpace } = await siteSpaceOf(w);
    return w.caller.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', { params: { path: { ...site.params.path, siteSpaceId: siteSpace.id } }, body: { path: 'renamed' } });
  },
  deleteSiteSpace: async (w) => {
    const { site, siteSpace } = await siteSpaceOf(w);
    return w.caller.client.DELETE('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', { params: { path: { ...site.params.path, siteSpaceId: siteSpace.id } } });
  },
  moveSiteSpace: async (w) => {
    const { site, siteSpace } = await siteSpaceOf(w);
    const other = await createSpace(w.t, w.owner, w.organization);
    const sibling = await addSiteSpace(w.owner.client, w.organization.id, site.params.path.siteId, other.id);
    return w.caller.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move', {
      params: { path: { ...site.params.path, siteSpaceId: siteSpace.id } },
      body: { position: { after: { type: 'site-space', siteSpace: sibling.id } } },
    });
  },

  listOpenAPISpecs: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/openapi', org(w)),
  createOpenAPISpec: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/openapi', { ...org(w), body: { slug: 'matrix', source: { text: MATRIX_SPEC } } }),
  getOpenAPISpecBySlug: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', await openAPISpecOf(w)),
  createOrUpdateOpenAPISpecBySlug: (w) =>
    w.caller.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { params: { path: { organizationId: w.organization.id, specSlug: 'matrix' } }, body: { source: { text: MATRIX_SPEC } } }),
  deleteOpenAPISpecBySlug: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/openapi/{specSlug}', await openAPISpecOf(w)),
  listOpenAPISpecVersions: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions', await openAPISpecOf(w, { processed: true })),
  getLatestOpenAPISpecVersion: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', await openAPISpecOf(w, { processed: true })),
  getLatestOpenAPISpecVersionContent: async (w) =>
    w.caller.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content', await openAPISpecOf(w, { processed: true })),
  getOpenAPISpecVersionById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}', await openAPIVersionOf(w)),
  getOpenAPISpecVersionContentById: async (w) =>
    w.caller.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content', await openAPIVersionOf(w)),
  // Public: the signed address is the credential.
  downloadOpenAPISpecVersion: async (w) => {
    const { data } = await w.owner.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest', await openAPISpecOf(w, { processed: true }));
    return w.t.client().GET('/openapi/{signature}', { params: { path: { signature: new URL(data!.url).pathname.split('/').pop()! } } });
  },

  listTranslationSettings: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/translations', org(w)),
  createTranslationSettings: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/translations', { ...org(w), body: { title: 'Matrix', languages: ['fr'] } }),
  getTranslationSettings: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/translations/{translationSettingsId}', await translationSettingsOf(w)),
  updateTranslationSettings: async (w) =>
    w.caller.client.PUT('/v1/orgs/{organizationId}/translations/{translationSettingsId}', { ...(await translationSettingsOf(w)), body: { title: 'Renamed' } }),
  deleteTranslationSettings: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/translations/{translationSettingsId}', await translationSettingsOf(w)),

  listOrganizationCustomFields: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/custom-fields', org(w)),
  createOrganizationCustomField: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...org(w), body: { name: 'matrix', type: 'text' } }),
  getOrganizationCustomFieldByName: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/custom-fields/{fieldName}', await customFieldOf(w)),
  updateOrganizationCustomField: async (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}/custom-fields/{fieldName}', { ...(await customFieldOf(w)), body: { title: 'Matrix' } }),
  deleteOrganizationCustomField: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/custom-fields/{fieldName}', await customFieldOf(w)),
  listEvents: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/events', org(w)),
  getEventById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/events/{eventId}', await eventOf(w)),
  listWebhooks: (w) => w.caller.client.GET('/v1/orgs/{organizationId}/webhooks', org(w)),
  createWebhook: (w) => w.caller.client.POST('/v1/orgs/{organizationId}/webhooks', { ...org(w), body: { url: 'https://hooks.example.com/matrix' } }),
  getWebhookById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}', await webhookOf(w)),
  updateWebhookById: async (w) => w.caller.client.PATCH('/v1/orgs/{organizationId}/webhooks/{webhookId}', { ...(await webhookOf(w)), body: { description: 'Matrix' } }),
  deleteWebhookById: async (w) => w.caller.client.DELETE('/v1/orgs/{organizationId}/webhooks/{webhookId}', await webhookOf(w)),
  rotateWebhookSecret: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/secret', { ...(await webhookOf(w)), body: {} }),
  pingWebhook: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', await webhookOf(w)),
  listWebhookDeliveries: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries', await webhookOf(w)),
  getWebhookDeliveryById: async (w) => w.caller.client.GET('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{webhookDeliveryId}', await deliveryOf(w)),
  redeliverWebhookDelivery: async (w) => w.caller.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{webhookDeliveryId}/redeliver', await deliveryOf(w)),

  getSpaceCustomFields: (w) => w.caller.client.GET('/v1/spaces/{spaceId}/custom-fields', space(w)),
  updateSpaceCustomFields: async (w) => {
    await customFieldOf(w);
    return w.caller.client.PATCH('/v1/spaces/{spaceId}/custom-fields', { ...space(w), body: { values: { matrix: { value: 'set' } } } });
  },
};

const MATRIX_SPEC = 'openapi: 3.1.0\ninfo: {title: Matrix, version: 1.0.0}\npaths: {}\n';

/** The owner's spec `matrix` (a text source), processed into a version when asked. */
async function openAPISpecOf(w: World, options: { processed?: boolean } = {}) {
  const path = { params: { path: { organizationId: w.organization.id, specSlug: 'matrix' } } };
  const { data } = await w.owner.client.PUT('/v1/orgs/{organizationId}/openapi/{specSlug}', { ...path, body: { source: { text: MATRIX_SPEC } } });
  if (options.processed) await processSpec(w.t.context, w.organization.id, data!.id);
  return path;
}

async function openAPIVersionOf(w: World) {
  const path = await openAPISpecOf(w, { processed: true });
  const { data } = await w.owner.client.GET('/v1/orgs/{organizationId}/openapi/{specSlug}', path);
  return { params: { path: { ...path.params.path, versionId: data!.lastVersion! } } };
}

async function translationSettingsOf(w: World) {
  const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/translations', { ...org(w), body: { title: 'Matrix' } });
  return { params: { path: { organizationId: w.organization.id, translationSettingsId: data!.id } } };
}

/** The owner's text field `matrix`. */
async function customFieldOf(w: World) {
  await w.owner.client.POST('/v1/orgs/{organizationId}/custom-fields', { ...org(w), body: { name: 'matrix', type: 'text' } });
  return { params: { path: { organizationId: w.organization.id, fieldName: 'matrix' } } };
}

const memberOf = (w: World, userId: string) => ({ params: { path: { organizationId: w.organization.id, userId } } });
const ownerMember = (w: World) => memberOf(w, w.owner.user.id);
const teamOf = (w: World, team: { id: string }) => ({ params: { path: { organizationId: w.organization.id, teamId: team.id } } });

async function samlProviderOf(w: World) {
  const provider = await createSamlProvider(w.t, w.organization);
  return { params: { path: { organizationId: w.organization.id, samlProviderId: provider.id } } };
}

/** A page (slug `matrix`) and a file in the world's space, written by its owner. */
/** An import that needs no network: a one-page archive sent inline. */
const importBody = () => ({ source: 'zip' as const, base64: zip([{ name: 'README.md', data: '# Imported by the matrix\n' }]).toString('base64') });

async function seedContent(w: World): Promise<{ pageId: string; fileId: string }> {
  const { data } = await w.owner.client.POST('/v1/spaces/{spaceId}/content', {
    ...space(w),
    body: {
      changes: [
        { type: 'insert_page', title: 'Matrix', slug: 'matrix', ref: 'page', markdown: 'Hello' },
        { type: 'insert_file', name: 'matrix.txt', contentType: 'text/plain', base64: Buffer.from('matrix').toString('base64'), ref: 'file' },
      ],
    },
  });
  return { pageId: data!.refs.page!, fileId: data!.refs.file! };
}

/** An open change request of the world's space, created by its owner (so the caller is not its author). */
async function changeRequestOf(w: World) {
  const { data } = await w.owner.client.POST('/v1/spaces/{spaceId}/change-requests', { ...space(w), body: { subject: 'Matrix' } });
  return { params: { path: { spaceId: w.space.id, changeRequestId: data!.id } } };
}

/** A change request with a page and a file written to it by the owner. */
async function changeRequestWithContent(w: World) {
  const changeRequest = await changeRequestOf(w);
  const { data } = await w.owner.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
    ...changeRequest,
    body: {
      changes: [
        { type: 'insert_page', title: 'Matrix', ref: 'page', markdown: 'Hello' },
        { type: 'insert_file', name: 'matrix.txt', contentType: 'text/plain', base64: Buffer.from('matrix').toString('base64'), ref: 'file' },
      ],
    },
  });
  return { ...changeRequest, pageId: data!.refs.page!, fileId: data!.refs.file! };
}

/** An event of the world's organization (its space's update, by the owner). */
async function eventOf(w: World) {
  await w.owner.client.PATCH('/v1/spaces/{spaceId}', { ...space(w), body: { title: 'Matrix event' } });
  const { data } = await w.owner.client.GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId: w.organization.id }, query: { type: ['space.updated'] } } });
  return { params: { path: { organizationId: w.organization.id, eventId: data!.items[0]!.id } } };
}

/** A webhook of the world's organization (by its owner). */
async function webhookOf(w: World) {
  const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/webhooks', { ...org(w), body: { url: 'https://hooks.example.com/matrix' } });
  return { params: { path: { organizationId: w.organization.id, webhookId: data!.id } } };
}

/** A delivery (a ping) of a webhook of the world's organization. */
async function deliveryOf(w: World) {
  const webhook = await webhookOf(w);
  const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/webhooks/{webhookId}/ping', webhook);
  return { params: { path: { ...webhook.params.path, webhookDeliveryId: data!.id } } };
}

async function inviteOf(w: World) {
  const { data } = await w.owner.client.POST('/v1/orgs/{organizationId}/link-invites', { ...org(w), body: { role: 'read' } });
  return { params: { path: { organizationId: w.organization.id, inviteId: data!.id } } };
}

/** A member holding a grant on the world's space or collection. */
async function grantedMember(w: World, kind: 'space' | 'collection') {
  const member = await createMember(w.t, w.organization, 'read');
  await grant(w.t, { kind, item: kind === 'space' ? w.space : w.collection }, { user: member }, 'comment');
  return member;
}

/** A team holding a grant on the world's space or collection. */
async function grantedTeam(w: World, kind: 'space' | 'collection') {
  const team = await createTeam(w.t, w.organization);
  await grant(w.t, { kind, item: kind === 'space' ? w.space : w.collection }, { team }, 'comment');
  return team;
}

/**
 * A comment of the world's space (or of a change request of it), posted by its owner or — written
 * directly, as the caller may have no role to post — by the caller, for the rules that admit authors.
 */
async function commentOf(w: World, family: 'space' | 'cr', author: 'owner' | 'caller') {
  const changeRequestId = family === 'cr' ? (await changeRequestOf(w)).params.path.changeRequestId : null;
  const context = { organizationId: w.organization.id, spaceId: w.space.id, changeRequestId, headRevisionId: w.space.headRevisionId };
  const body = { markdown: 'Matrix' };
  const checked = await checkedMarkdown(w.t.context.parsing, body.markdown, '/body/body/markdown');
  const { comment } = await postComment(w.t.db, w.t.context.caches, context, (author === 'owner' ? w.owner : w.caller).user.id, { body }, w.t.context.parsing, checked);
  // One shape for both families (a path without {changeRequestId} ignores it).
  const path = { spaceId: w.space.id, commentId: comment.id, changeRequestId: changeRequestId ?? '' };
  return { params: { path }, context, comment };
}

/** A reply by the owner or the caller to an owner's comment. */
async function replyOf(w: World, family: 'space' | 'cr', author: 'owner' | 'caller') {
  const { params, context, comment } = await commentOf(w, family, 'owner');
  const checked = await checkedMarkdown(w.t.context.parsing, 'Matrix reply', '/body/body/markdown');
  const reply = await postReply(w.t.db, context, comment, (author === 'owner' ? w.owner : w.caller).user.id, checked);
  return { params: { path: { ...params.path, commentReplyId: reply.id } } };
}

/** A site of the world's organization (by its owner) holding the world's space at its root. */
async function siteOf(w: World) {
  const site = await createSite(w.owner.client, w.organization.id, { title: 'Matrix site', spaces: [w.space.id] });
  return { params: { path: { organizationId: w.organization.id, siteId: site.id } } };
}

async function sectionOf(w: World) {
  const site = await createSite(w.owner.client, w.organization.id, { title: 'Matrix site' });
  const section = await addSection(w.owner.client, w.organization.id, site.id, w.space.id, 'Matrix');
  return { site: { params: { path: { organizationId: w.organization.id, siteId: site.id } } }, section };
}

async function groupOf(w: World) {
  const { site, section } = await sectionOf(w);
  const group = await createGroup(w.owner.client, w.organization.id, site.params.path.siteId, 'Matrix');
  return { site, group, section };
}

async function siteSpaceOf(w: World) {
  const site = await siteOf(w);
  const { data } = await w.owner.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', site);
  return { site, siteSpace: data!.items[0]! };
}
