import type { CollectionRow } from '../../access/standing.repository.js';
import { permissions } from '../permissions-objects.js';
import type { Role } from '../../access/roles.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';

export type ApiCollection = Schemas['Collection'];

/** The collection as a caller with effective role `role` sees it. */
export function toApiCollection(collection: CollectionRow, role: Role | null, urls: Urls): ApiCollection {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parentCollectionId ? { parent: collection.parentCollectionId } : {}),
    defaultLevel: collection.defaultLevel,
    urls: { location: urls.api(`/v1/collections/${collection.id}`), app: urls.app(`/c/${collection.id}`) },
    permissions: permissions().collection(collection, role),
  };
}
