import type { OrganizationRole } from '../../access/permissions.js';
import { permissions } from '../permissions-objects.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import type { TranslationSettingsRow } from './translations.repository.js';

export function toApiTranslationSettings(organizationId: string, row: TranslationSettingsRow, role: OrganizationRole, urls: Urls): Schemas['TranslationSettings'] {
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages: row.languages,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    permissions: permissions().translationSettings(role),
    urls: { location: urls.api(`/v1/orgs/${organizationId}/translations/${row.id}`) },
  };
}
