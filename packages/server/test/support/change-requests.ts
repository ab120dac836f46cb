// Change-request helpers for tests: create and write through the SDK, expected bodies, space counters.
import { expect } from 'vitest';
import type { components } from '@content-workspace/sdk';
import type { TestUser } from './factories.js';
import type { Change } from './content.js';
import type { TestServer } from './harness.js';
import { expectedUser } from './people.js';

type Schemas = components['schemas'];

/** Path parameters of a change request (by id, or by number as a string). */
export const crPath = (spaceId: string, changeRequestId: string | number) => ({ params: { path: { spaceId, changeRequestId: String(changeRequestId) } } });

/** Creates a change request as `user`; fails the test on any other status than 201. */
export async function createCr(user: TestUser, spaceId: string, body: Schemas['CreateChangeRequestRequest'] = {}): Promise<Schemas['ChangeRequest']> {
  const { data, error, response } = await user.client.POST('/v1/spaces/{spaceId}/change-requests', { params: { path: { spaceId } }, body });
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

/** Applies a batch to a change request as `user`; fails the test on any other status than 200. */
export async function editCr(user: TestUser, spaceId: string, changeRequestId: string, changes: Change[]): Promise<Schemas['ChangeRequestContentChangesResult']> {
  const { data, error, response } = await user.client.POST('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', { ...crPath(spaceId, changeRequestId), body: { changes } });
  if (response.status !== 200) throw new Error(`batch answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

/** Merges (or updates) as `user`; fails the test on any other status than 200. */
export async function mergeCr(user: TestUser, spaceId: string, changeRequestId: string, action: 'merge' | 'update' = 'merge'): Promise<Schemas['ChangeRequestMergeResult']> {
  const path = action === 'merge' ? '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge' : '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update';
  const { data, error, response } = await user.client.POST(path, crPath(spaceId, changeRequestId));
  if (response.status !== 200) throw new Error(`${action} answered ${response.status}: ${JSON.stringify(error)}`);
  return data!;
}

/** The whole ChangeRequest body expected for a request of `spaceId` created by `creator`. */
export function expectedChangeRequest(spaceId: string, creator: TestUser, values: Partial<Schemas['ChangeRequest']> & { id: string; number: number; revision: string }) {
  return {
    object: 'change-request',
    status: 'open',
    subject: '',
    createdBy: expectedUser(creator),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    revisionInitial: values.revision,
    comments: 0,
    outdated: false,
    urls: {
      location: `http://api.test/v1/spaces/${spaceId}/change-requests/${values.id}`,
      app: `http://app.test/s/${spaceId}/~/changes/${values.id}`,
    },
    ...values,
  };
}

/** The space's change-request counters, as GET /v1/spaces/{id} shows them. */
export async function counters(user: TestUser, spaceId: string) {
  const { data } = await user.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId } } });
  return { changeRequests: data!.changeRequests, open: data!.changeRequestsOpen, draft: data!.changeRequestsDraft };
}

/** The space's counters recomputed from the rows, to prove the stored ones exact. */
export async function countedFromRows(t: TestServer, spaceId: string) {
  const rows = await t.db.selectFrom('changeRequests').select('status').where('spaceId', '=', spaceId).execute();
  return { changeRequests: rows.length, open: rows.filter((r) => r.status === 'open').length, draft: rows.filter((r) => r.status === 'draft').length };
}
