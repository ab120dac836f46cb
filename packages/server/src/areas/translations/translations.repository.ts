// Translation settings of an organization.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { TranslationSettingsTable } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type TranslationSettingsRow = Pick<Selectable<TranslationSettingsTable>, 'id' | 'title' | 'languages' | 'createdAt' | 'updatedAt'>;

const COLUMNS = ['t.id', 't.title', 't.languages', 't.createdAt', 't.updatedAt'] as const;

/** Every translation settings of the organization as `t`; callers add order and paging. */
export function translationSettingsQuery(db: Executor, organizationId: string) {
  return db.selectFrom('translationSettings as t').where('t.organizationId', '=', organizationId).select(COLUMNS);
}

export async function findTranslationSettings(db: Executor, organizationId: string, id: string): Promise<TranslationSettingsRow | undefined> {
  return translationSettingsQuery(db, organizationId).where('t.id', '=', id).executeTakeFirst();
}

export async function insertTranslationSettings(db: Executor, organizationId: string, values: { title: string; languages: string[] }): Promise<TranslationSettingsRow> {
  return db
    .insertInto('translationSettings')
    .values({ organizationId, id: newId(), title: values.title, languages: values.languages })
    .returning(['id', 'title', 'languages', 'createdAt', 'updatedAt'])
    .executeTakeFirstOrThrow();
}

/** Sets the title, and the languages when given; undefined when the settings do not exist. */
export async function updateTranslationSettings(
  db: Executor,
  organizationId: string,
  id: string,
  values: { title: string; languages?: string[] | undefined },
): Promise<TranslationSettingsRow | undefined> {
  return db
    .updateTable('translationSettings')
    .set({ title: values.title, ...(values.languages ? { languages: values.languages } : {}), updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returning(['id', 'title', 'languages', 'createdAt', 'updatedAt'])
    .executeTakeFirst();
}

export async function deleteTranslationSettings(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('translationSettings').where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
