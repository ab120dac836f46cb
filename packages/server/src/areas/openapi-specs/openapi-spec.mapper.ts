import type { OrganizationRole } from '../../access/permissions.js';
import { permissions } from '../permissions-objects.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import type { OpenAPISpecRow, VersionRow } from './openapi-specs.repository.js';
import { signVersion } from './version-signature.js';

/** The spec as a caller with organization role `role` sees it; unset fields are absent. */
export function toApiOpenAPISpec(organizationId: string, row: OpenAPISpecRow, role: OrganizationRole, urls: Urls): Schemas['OpenAPISpec'] {
  return {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    slug: row.slug,
    ...(row.sourceUrl !== null ? { sourceURL: row.sourceUrl } : {}),
    processingState: row.processingState,
    ...(row.lastVersionId !== null ? { lastVersion: row.lastVersionId } : {}),
    ...(row.lastProcessedAt !== null ? { lastProcessedAt: row.lastProcessedAt.toISOString() } : {}),
    ...(row.lastProcessErrorCode !== null ? { lastProcessErrorCode: row.lastProcessErrorCode, lastProcessErrors: row.lastProcessErrors ?? [] } : {}),
    permissions: permissions().openAPISpec(role),
    urls: {
      location: urls.api(`/v1/orgs/${organizationId}/openapi/${row.slug}`),
      app: urls.app(`/o/${organizationId}/openapi/${row.slug}`),
    },
  };
}

/** Where a version's bundled document is served: a signed address on this server. */
export function versionDocumentUrl(organizationId: string, versionId: string, key: Buffer, urls: Urls): string {
  return urls.api(`/openapi/${signVersion(key, { organizationId, versionId })}`);
}

export function toApiOpenAPISpecVersion(organizationId: string, slug: string, row: VersionRow, key: Buffer, urls: Urls): Schemas['OpenAPISpecVersion'] {
  return {
    object: 'openapi-spec-version',
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    url: versionDocumentUrl(organizationId, row.id, key, urls),
    urls: { location: urls.api(`/v1/orgs/${organizationId}/openapi/${slug}/versions/${row.id}`) },
  };
}

export function toApiOpenAPISpecContent(
  organizationId: string,
  version: { id: string; filesystem: Schemas['OpenAPISpecFilesystem'] },
  key: Buffer,
  urls: Urls,
): Schemas['OpenAPISpecContent'] {
  return { filesystem: version.filesystem, url: versionDocumentUrl(organizationId, version.id, key, urls) };
}
