import type { OrganizationAccess } from '../../access/organization.js';
import type { Caller } from '../../auth/authenticate.js';
import type { OrganizationRole } from '../../access/permissions.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { actorOf, recordEvent } from '../events/index.js';
import { deleteSamlProvider, findSamlProvider, listActiveSamlProviders, samlProvidersQuery, type SamlProviderRow } from './saml.repository.js';
import { type TeamRow, teamsQuery } from '../teams/index.js';
import { organizationObjectsPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import type { Urls } from '../../urls.js';
import { toApiSamlProvider, toApiSsoLoginInfo } from './saml-provider.mapper.js';
import { changeSamlProvider, createSamlProvider } from './saml-providers.service.js';

/** The default teams of `rows`, in one query for a whole page. */
async function defaultTeams(db: Executor, organizationId: string, callerId: string, rows: SamlProviderRow[]): Promise<Map<string, TeamRow>> {
  const ids = [...new Set(rows.map((row) => row.defaultTeamId).filter((id): id is string => id !== null))];
  if (!ids.length) return new Map();
  const teams = await teamsQuery(db, organizationId, callerId).where('t.id', 'in', ids).execute();
  return new Map(teams.map((team) => [team.id, team]));
}

/** The provider as a caller with organization role `role` sees it, read back (after a write) with its default team. */
async function readProvider(db: Executor, organizationId: string, role: OrganizationRole, callerId: string, id: string, urls: Urls) {
  const row = await findSamlProvider(db, organizationId, id);
  if (!row) throw notFound('SAML provider');
  const teams = await defaultTeams(db, organizationId, callerId, [row]);
  return toApiSamlProvider(organizationId, row, row.defaultTeamId ? teams.get(row.defaultTeamId) : undefined, role, urls);
}

/**
 * Runs `change` (answering the provider's id) and records `type` with the provider after it, as an
 * organization admin sees it, in one transaction; answers the provider as the caller sees it.
 */
async function changeRecorded(
  app: AppContext,
  access: OrganizationAccess,
  caller: Caller,
  type: 'saml-provider.created' | 'saml-provider.updated',
  change: (trx: Executor) => Promise<string>,
) {
  const organizationId = access.organization.id;
  return inTransaction(app.db, async (trx) => {
    const id = await change(trx);
    const read = (role: OrganizationRole) => readProvider(trx, organizationId, role, caller.user.id, id, app.urls);
    await recordEvent(trx, { type, organizationId, actor: actorOf(caller, app.urls), data: { object: await read('admin') } });
    return read(access.role);
  });
}

export const samlHandlers = {
  async listSamlProviders({ caller, access, query, app }) {
    const organizationId = access.organization.id;
    const page = await organizationObjectsPage(app.db, app.cursors, samlProvidersQuery(app.db, organizationId), { alias: 'p', operation: 'listSamlProviders', organizationId, request: query });
    const teams = await defaultTeams(app.db, organizationId, caller.user.id, page.items);
    const items = page.items.map((row) => toApiSamlProvider(organizationId, row, row.defaultTeamId ? teams.get(row.defaultTeamId) : undefined, access.role, app.urls));
    return { status: 200, body: { ...page, items } };
  },

  async createSamlProvider({ caller, access, body, app }) {
    const provider = await changeRecorded(app, access, caller, 'saml-provider.created', (trx) => createSamlProvider(trx, access.organization.id, body));
    return { status: 201, body: provider };
  },

  async getSamlProviderById({ caller, access, params, app }) {
    return { status: 200, body: await readProvider(app.db, access.organization.id, access.role, caller.user.id, params.samlProviderId, app.urls) };
  },

  async updateSamlProviderById({ caller, access, params, body, app }) {
    const provider = await changeRecorded(app, access, caller, 'saml-provider.updated', async (trx) => {
      if (!(await changeSamlProvider(trx, access.organization.id, params.samlProviderId, body))) throw notFound('SAML provider');
      return params.samlProviderId;
    });
    return { status: 200, body: provider };
  },

  async deleteSamlProviderById({ caller, access, params, app }) {
    const organizationId = access.organization.id;
    await inTransaction(app.db, async (trx) => {
      const before = await readProvider(trx, organizationId, 'admin', caller.user.id, params.samlProviderId, app.urls);
      if (!(await deleteSamlProvider(trx, organizationId, params.samlProviderId))) throw notFound('SAML provider');
      await recordEvent(trx, { type: 'saml-provider.deleted', organizationId, actor: actorOf(caller, app.urls), data: { object: before } });
    });
    return { status: 204 };
  },

  async listSsoLoginOptions({ access, app }) {
    // Members only, guests and members disabled by SSO enforcement included (docs/decisions.md, SAML and SSO).
    const organizationId = access.organization.id;
    const rows = await listActiveSamlProviders(app.db, organizationId);
    return { status: 200, body: { items: rows.map((row) => toApiSsoLoginInfo(organizationId, row, app.urls)) } };
  },
} satisfies AreaHandlers;
