import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { keysetPage, newestFirst, organizationObjectsPage } from '../../db/pagination.js';
import { gone, notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { actorOf, recordEvent } from '../events/index.js';
import { toApiOpenAPISpec, toApiOpenAPISpecContent, toApiOpenAPISpecVersion } from './openapi-spec.mapper.js';
import {
  deleteSpec,
  findSpecBySlug,
  findVersion,
  findVersionBundle,
  findVersionFilesystem,
  specsQuery,
  versionsQuery,
  type OpenAPISpecRow,
} from './openapi-specs.repository.js';
import { createSpec, putSpec } from './openapi-specs.service.js';
import { verifyVersion } from './version-signature.js';

async function requireSpec(app: AppContext, organizationId: string, slug: string): Promise<OpenAPISpecRow> {
  const spec = await findSpecBySlug(app.db, organizationId, slug);
  if (!spec) throw notFound('OpenAPI spec');
  return spec;
}

/** The spec's latest version id; 404 while it has none. */
function latestVersionId(spec: OpenAPISpecRow): string {
  if (!spec.lastVersionId) throw notFound('OpenAPI spec version');
  return spec.lastVersionId;
}

async function readVersion(app: AppContext, organizationId: string, spec: OpenAPISpecRow, versionId: string) {
  const version = await findVersion(app.db, organizationId, spec.id, versionId);
  if (!version) throw notFound('OpenAPI spec version');
  return toApiOpenAPISpecVersion(organizationId, spec.slug, version, app.keys.openapiSignature, app.urls);
}

async function readContent(app: AppContext, organizationId: string, spec: OpenAPISpecRow, versionId: string) {
  const version = await findVersionFilesystem(app.db, organizationId, spec.id, versionId);
  if (!version) throw notFound('OpenAPI spec version');
  return toApiOpenAPISpecContent(organizationId, version, app.keys.openapiSignature, app.urls);
}

export const openAPISpecHandlers = {
  async listOpenAPISpecs({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await organizationObjectsPage(app.db, app.cursors, specsQuery(app.db, organizationId), { alias: 's', operation: 'listOpenAPISpecs', organizationId, request: query });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiOpenAPISpec(organizationId, row, access.role, app.urls)) } };
  },

  async createOpenAPISpec({ access, body, app }) {
    const row = await createSpec(app.db, app.jobs, access.organization.id, body.slug, body.source);
    return { status: 201, body: toApiOpenAPISpec(access.organization.id, row, access.role, app.urls) };
  },

  async getOpenAPISpecBySlug({ access, params, app }) {
    const spec = await requireSpec(app, access.organization.id, params.specSlug);
    return { status: 200, body: toApiOpenAPISpec(access.organization.id, spec, access.role, app.urls) };
  },

  async createOrUpdateOpenAPISpecBySlug({ access, params, body, app }) {
    const row = await putSpec(app.db, app.jobs, access.organization.id, params.specSlug, body.source);
    return { status: 200, body: toApiOpenAPISpec(access.organization.id, row, access.role, app.urls) };
  },

  async deleteOpenAPISpecBySlug({ caller, access, params, app }) {
    const organizationId = access.organization.id;
    await inTransaction(app.db, async (trx) => {
      const spec = await findSpecBySlug(trx, organizationId, params.specSlug);
      if (!spec || !(await deleteSpec(trx, organizationId, params.specSlug))) throw notFound('OpenAPI spec');
      const object = toApiOpenAPISpec(organizationId, spec, 'admin', app.urls);
      await recordEvent(trx, { type: 'openapi-spec.deleted', organizationId, actor: actorOf(caller, app.urls), data: { object } });
    });
    return { status: 205 };
  },

  async listOpenAPISpecVersions({ access, params, query, app }) {
    const organizationId = access.organization.id;
    const spec = await requireSpec(app, organizationId, params.specSlug);
    const page = await keysetPage(app.db, versionsQuery(app.db, organizationId, spec.id), {
      keys: newestFirst('v'),
      request: query,
      list: { operation: 'listOpenAPISpecVersions', within: spec.id },
      cursors: app.cursors,
    });
    const items = page.items.map((row) => toApiOpenAPISpecVersion(organizationId, spec.slug, row, app.keys.openapiSignature, app.urls));
    return { status: 200, body: { ...page, items } };
  },

  async getLatestOpenAPISpecVersion({ access, params, app }) {
    const spec = await requireSpec(app, access.organization.id, params.specSlug);
    return { status: 200, body: await readVersion(app, access.organization.id, spec, latestVersionId(spec)) };
  },

  async getLatestOpenAPISpecVersionContent({ access, params, app }) {
    const spec = await requireSpec(app, access.organization.id, params.specSlug);
    return { status: 200, body: await readContent(app, access.organization.id, spec, latestVersionId(spec)) };
  },

  async getOpenAPISpecVersionById({ access, params, app }) {
    const spec = await requireSpec(app, access.organization.id, params.specSlug);
    return { status: 200, body: await readVersion(app, access.organization.id, spec, params.versionId) };
  },

  async getOpenAPISpecVersionContentById({ access, params, app }) {
    const spec = await requireSpec(app, access.organization.id, params.specSlug);
    return { status: 200, body: await readContent(app, access.organization.id, spec, params.versionId) };
  },

  async downloadOpenAPISpecVersion({ params, app }) {
    const verified = verifyVersion(app.keys.openapiSignature, params.signature);
    if (verified.status === 'invalid') throw notFound('OpenAPI document');
    if (verified.status === 'expired') throw gone('This address has expired: read the version again for a fresh one');
    const { ticket } = verified;
    // The spec (and with it the version) may have been deleted since the address was made.
    const bundle = await findVersionBundle(app.db, ticket.organizationId, ticket.versionId);
    if (bundle === undefined) throw notFound('OpenAPI document');
    const maxAge = Math.max(0, ticket.expiresAt - Math.floor(Date.now() / 1000));
    return {
      status: 200,
      body: bundle as Record<string, unknown>,
      headers: {
        'Cache-Control': `private, max-age=${maxAge}`,
        // API reference pages on other origins load it; the signature is the only credential.
        'Access-Control-Allow-Origin': '*',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
      },
    };
  },
} satisfies AreaHandlers;
