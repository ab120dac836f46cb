// How to call each operation in a matrix world: one entry per operationId (typed: an operation
// without a case fails `tsc`). A case only builds a valid request; the expected outcome comes from the
// access policy. Extra conditions of an operation (a target organization, a second sibling) are set
// up so that only the rule under test decides.
import type { OperationId } from '../../src/http/handler.js';
import { addMember, createCollection, createOrganizationWithAdmin, createSpace } from '../support/factories.js';
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
    const sibling = await createCollection(w.t, w.owner, w.organization);
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
};
