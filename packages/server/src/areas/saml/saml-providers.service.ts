// Creating and changing SAML providers: the checks the schema cannot express (an X.509 certificate,
// an http(s) address that parses, a team of the organization), then one write in a transaction that
// keeps the default team locked so it cannot be deleted meanwhile.
import type { components } from '@content-workspace/contract';
import { isX509CertificatePem } from './saml.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { lockPrincipal } from '../permissions/index.js';
import { findSamlProvider, insertSamlProvider, updateSamlProvider, type SamlProviderValues } from './saml.repository.js';
import { invalidField } from '../../errors.js';

type CreateBody = components['schemas']['CreateSamlProviderRequest'];
type UpdateBody = components['schemas']['UpdateSamlProviderRequest'];

function isHttpAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The body's fields as columns (absent fields stay undefined: unchanged); 400 naming an invalid one. */
function providerValues(body: CreateBody | UpdateBody): SamlProviderValues {
  const { certificate, ssoURL } = body;
  if (typeof certificate === 'string' && !isX509CertificatePem(certificate)) {
    throw invalidField('/body/certificate', 'must be one X.509 certificate in PEM (-----BEGIN CERTIFICATE-----)');
  }
  if (typeof ssoURL === 'string' && !isHttpAddress(ssoURL)) throw invalidField('/body/ssoURL', 'must be an http or https address');
  const values: SamlProviderValues = {};
  if (body.label !== undefined) values.label = body.label;
  if (body.entityID !== undefined) values.entityId = body.entityID;
  if (certificate !== undefined) values.certificate = certificate === null ? null : certificate.trim();
  if (ssoURL !== undefined) values.ssoUrl = ssoURL;
  if (body.defaultTeam !== undefined) values.defaultTeamId = body.defaultTeam;
  if (body.defaultRole !== undefined) values.defaultRole = body.defaultRole;
  return values;
}

async function requireTeam(trx: Executor, organizationId: string, teamId: string | null | undefined): Promise<void> {
  if (teamId && !(await lockPrincipal(trx, organizationId, { kind: 'team', id: teamId }))) {
    throw invalidField('/body/defaultTeam', 'must be a team of the organization');
  }
}

export async function createSamlProvider(db: Executor, organizationId: string, body: CreateBody): Promise<string> {
  const values = providerValues(body);
  return inTransaction(db, async (trx) => {
    await requireTeam(trx, organizationId, values.defaultTeamId);
    return insertSamlProvider(trx, organizationId, { ...values, label: body.label });
  });
}

/** False when the provider does not exist. */
export async function changeSamlProvider(db: Executor, organizationId: string, id: string, body: UpdateBody): Promise<boolean> {
  const values = providerValues(body);
  return inTransaction(db, async (trx) => {
    // An unknown provider is a 404 whatever the body says.
    if (!(await findSamlProvider(trx, organizationId, id))) return false;
    await requireTeam(trx, organizationId, values.defaultTeamId);
    return updateSamlProvider(trx, organizationId, id, values);
  });
}
