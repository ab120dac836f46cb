import type { OrganizationAccess } from '../../access/organization.js';
import type { Caller } from '../../auth/authenticate.js';
import type { Executor } from '../../db/database.js';
import { deleteSamlProvider, findSamlProvider, listActiveSamlProviders, samlProvidersQuery, type SamlProviderRow } from './saml.repository.js';
import { type TeamRow, teamsQuery } from '../teams/index.js';
import { keysetPage } from '../../db/pagination.js';
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

/** The provider as the API shows it, read back (after a write) with its default team. */
async function readProvider(db: Executor, access: OrganizationAccess, caller: Caller, id: string, urls: Urls) {
  const organizationId = access.organization.id;
  const row = await findSamlProvider(db, organizationId, id);
  if (!row) throw notFound('SAML provider');
  const teams = await defaultTeams(db, organizationId, caller.user.id, [row]);
  return toApiSamlProvider(organizationId, row, row.defaultTeamId ? teams.get(row.defaultTeamId) : undefined, access.role, urls);
}

export const samlHandlers = {
  async listSamlProviders({ caller, access, query, app }) {
    const organizationId = access.organization.id;
    const page = await keysetPage(app.db, samlProvidersQuery(app.db, organizationId), {
      keys: [
        { column: 'p.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 'p.id', direction: 'desc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listSamlProviders', within: organizationId },
      cursors: app.cursors,
    });
    const teams = await defaultTeams(app.db, organizationId, caller.user.id, page.items);
    const items = page.items.map((row) => toApiSamlProvider(organizationId, row, row.defaultTeamId ? teams.get(row.defaultTeamId) : undefined, access.role, app.urls));
    return { status: 200, body: { ...page, items } };
  },

  async createSamlProvider({ caller, access, body, app }) {
    const id = await createSamlProvider(app.db, access.organization.id, body);
    return { status: 201, body: await readProvider(app.db, access, caller, id, app.urls) };
  },

  async getSamlProviderById({ caller, access, params, app }) {
    return { status: 200, body: await readProvider(app.db, access, caller, params.samlProviderId, app.urls) };
  },

  async updateSamlProviderById({ caller, access, params, body, app }) {
    if (!(await changeSamlProvider(app.db, access.organization.id, params.samlProviderId, body))) throw notFound('SAML provider');
    return { status: 200, body: await readProvider(app.db, access, caller, params.samlProviderId, app.urls) };
  },

  async deleteSamlProviderById({ access, params, app }) {
    if (!(await deleteSamlProvider(app.db, access.organization.id, params.samlProviderId))) throw notFound('SAML provider');
    return { status: 204 };
  },

  async listSsoLoginOptions({ access, app }) {
    // Members only, guests and members disabled by SSO enforcement included (docs/decisions.md, SAML and SSO).
    const organizationId = access.organization.id;
    const rows = await listActiveSamlProviders(app.db, organizationId);
    return { status: 200, body: { items: rows.map((row) => toApiSsoLoginInfo(organizationId, row, app.urls)) } };
  },
} satisfies AreaHandlers;
