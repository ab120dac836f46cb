// SAML providers of an organization, and the assertion ids they signed that were already accepted.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Role, SamlProvidersTable } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type SamlProviderRow = Pick<
  Selectable<SamlProvidersTable>,
  'id' | 'label' | 'entityId' | 'ssoUrl' | 'certificate' | 'defaultTeamId' | 'defaultRole' | 'active' | 'createdAt'
>;

/** The fields a create or an update sets (undefined: unchanged). */
export type SamlProviderValues = {
  label?: string;
  entityId?: string | null;
  ssoUrl?: string | null;
  certificate?: string | null;
  defaultTeamId?: string | null;
  defaultRole?: Role | null;
};

const PROVIDER_COLUMNS = [
  'p.id',
  'p.label',
  'p.entityId',
  'p.ssoUrl',
  'p.certificate',
  'p.defaultTeamId',
  'p.defaultRole',
  'p.active',
  'p.createdAt',
] as const;

/** Every provider of the organization as `p`; callers add order and paging. */
export function samlProvidersQuery(db: Executor, organizationId: string) {
  return db.selectFrom('samlProviders as p').where('p.organizationId', '=', organizationId).select(PROVIDER_COLUMNS);
}

export async function findSamlProvider(db: Executor, organizationId: string, id: string): Promise<SamlProviderRow | undefined> {
  return samlProvidersQuery(db, organizationId).where('p.id', '=', id).executeTakeFirst();
}

export async function insertSamlProvider(db: Executor, organizationId: string, values: SamlProviderValues & { label: string }): Promise<string> {
  const id = newId();
  await db
    .insertInto('samlProviders')
    .values({ organizationId, id, ...values })
    .execute();
  return id;
}

/** Sets the given fields; false when the provider does not exist. */
export async function updateSamlProvider(db: Executor, organizationId: string, id: string, values: SamlProviderValues): Promise<boolean> {
  const result = await db
    .updateTable('samlProviders')
    .set({ ...values, updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteSamlProvider(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('samlProviders').where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The organization's active providers, newest first. */
export async function listActiveSamlProviders(db: Executor, organizationId: string): Promise<Array<{ id: string; label: string }>> {
  return db
    .selectFrom('samlProviders')
    .select(['id', 'label'])
    .where('organizationId', '=', organizationId)
    .where('active', '=', true)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export type ActiveSamlProviderRow = {
  id: string;
  organizationId: string;
  label: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  defaultTeamId: string | null;
  defaultRole: Role | null;
  /** The organization's `emailDomains` (lowercase). */
  emailDomains: string[];
};

/** The provider when it is active, with its organization's e-mail domains: what signing in needs. */
export async function findActiveSamlProvider(db: Executor, organizationId: string, id: string): Promise<ActiveSamlProviderRow | undefined> {
  const row = await db
    .selectFrom('samlProviders as p')
    .innerJoin('organizations as o', 'o.id', 'p.organizationId')
    .select(['p.id', 'p.organizationId', 'p.label', 'p.entityId', 'p.ssoUrl', 'p.certificate', 'p.defaultTeamId', 'p.defaultRole', 'o.emailDomains'])
    .where('p.organizationId', '=', organizationId)
    .where('p.id', '=', id)
    .where('p.active', '=', true)
    .executeTakeFirst();
  // `active` guarantees the three columns are set.
  return row as ActiveSamlProviderRow | undefined;
}

/**
 * Records that an assertion was accepted; false when it already was (a replay). Expired rows of the
 * organization go first: the assertions they stood for are refused as expired anyway.
 */
export async function recordConsumedAssertion(
  db: Executor,
  values: { organizationId: string; providerId: string; assertionId: string; expiresAt: Date },
): Promise<boolean> {
  await db.deleteFrom('samlConsumedAssertions').where('organizationId', '=', values.organizationId).where('expiresAt', '<', sql<Date>`now()`).execute();
  const result = await db
    .insertInto('samlConsumedAssertions')
    .values(values)
    .onConflict((oc) => oc.columns(['organizationId', 'providerId', 'assertionId']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
