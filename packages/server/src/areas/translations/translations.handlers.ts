import { keysetPage } from '../../db/pagination.js';
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
} from './translations.repository.js';

export const translationHandlers = {
  async listTranslationSettings({ access, query, app }) {
    const organizationId = access.organization.id;
    const page = await keysetPage(app.db, translationSettingsQuery(app.db, organizationId), {
      keys: [
        { column: 't.createdAt', direction: 'desc', value: (row) => row.createdAt },
        { column: 't.id', direction: 'desc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listTranslationSettings', within: organizationId },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: page.items.map((row) => toApiTranslationSettings(organizationId, row, access.role, app.urls)) } };
  },

  async createTranslationSettings({ access, body, app }) {
    const languages = normalizeLanguages(body.languages ?? [], '/body/languages');
    const row = await insertTranslationSettings(app.db, access.organization.id, { title: body.title, languages });
    return { status: 201, body: toApiTranslationSettings(access.organization.id, row, access.role, app.urls) };
  },

  async getTranslationSettings({ access, params, app }) {
    const row = await findTranslationSettings(app.db, access.organization.id, params.translationSettingsId);
    if (!row) throw notFound('Translation settings');
    return { status: 200, body: toApiTranslationSettings(access.organization.id, row, access.role, app.urls) };
  },

  async updateTranslationSettings({ access, params, body, app }) {
    const languages = body.languages && normalizeLanguages(body.languages, '/body/languages');
    const row = await updateTranslationSettings(app.db, access.organization.id, params.translationSettingsId, { title: body.title, languages });
    if (!row) throw notFound('Translation settings');
    return { status: 200, body: toApiTranslationSettings(access.organization.id, row, access.role, app.urls) };
  },

  async deleteTranslationSettings({ access, params, app }) {
    if (!(await deleteTranslationSettings(app.db, access.organization.id, params.translationSettingsId))) throw notFound('Translation settings');
    return { status: 205 };
  },
} satisfies AreaHandlers;
