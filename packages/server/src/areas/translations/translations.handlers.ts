import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { organizationObjectsPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import { normalizeLanguages } from './languages.js';
import { toApiTranslationSettings } from './translation-settings.mapper.js';
import {
  deleteTranslationSettings,
  findTranslationSettings,
  insertTranslationSettings,
  translationSettingsQuery,
  updateTranslationSettings,
  type TranslationSettingsRow,
} from './translations.repository.js';
import { actorOf, recordEvent } from '../events/index.js';

/** Records `type` for the settings in `trx` (the change's transaction), as an organization admin sees them. */
async function recordSettingsEvent(
  trx: Executor,
  app: AppContext,
  caller: Caller,
  type: 'translation-settings.created' | 'translation-settings.updated' | 'translation-settings.deleted',
  organizationId: string,
  row: TranslationSettingsRow,
) {
  await recordEvent(trx, { type, organizationId, actor: actorOf(caller, app.urls), data: { object: toApiTranslationSettings(organizationId, row, 'admin', app.urls) } });
}

export const translationHandlers = {
  async listTranslationSettings({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await organizationObjectsPage(app.db, app.cursors, translationSettingsQuery(app.db, organizationId), { alias: 't', operation: 'listTranslationSettings', organizationId, request: query });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTranslationSettings(organizationId, row, access.role, app.urls)) } };
  },

  async createTranslationSettings({ caller, access, body, app }) {
    const languages = normalizeLanguages(body.languages ?? [], '/body/languages');
    const row = await inTransaction(app.db, async (trx) => {
      const created = await insertTranslationSettings(trx, access.organization.id, { title: body.title, languages });
      await recordSettingsEvent(trx, app, caller, 'translation-settings.created', access.organization.id, created);
      return created;
    });
    return { status: 201, body: toApiTranslationSettings(access.organization.id, row, access.role, app.urls) };
  },

  async getTranslationSettings({ access, params, app }) {
    const row = await findTranslationSettings(app.db, access.organization.id, params.translationSettingsId);
    if (!row) throw notFound('Translation settings');
    return { status: 200, body: toApiTranslationSettings(access.organization.id, row, access.role, app.urls) };
  },

  async updateTranslationSettings({ caller, access, params, body, app }) {
    const languages = body.languages && normalizeLanguages(body.languages, '/body/languages');
    const row = await inTransaction(app.db, async (trx) => {
      const updated = await updateTranslationSettings(trx, access.organization.id, params.translationSettingsId, { title: body.title, languages });
      if (!updated) throw notFound('Translation settings');
      await recordSettingsEvent(trx, app, caller, 'translation-settings.updated', access.organization.id, updated);
      return updated;
    });
    return { status: 200, body: toApiTranslationSettings(access.organization.id, row, access.role, app.urls) };
  },

  async deleteTranslationSettings({ caller, access, params, app }) {
    await inTransaction(app.db, async (trx) => {
      const row = await findTranslationSettings(trx, access.organization.id, params.translationSettingsId);
      if (!row || !(await deleteTranslationSettings(trx, access.organization.id, params.translationSettingsId))) throw notFound('Translation settings');
      await recordSettingsEvent(trx, app, caller, 'translation-settings.deleted', access.organization.id, row);
    });
    return { status: 205 };
  },
} satisfies AreaHandlers;
