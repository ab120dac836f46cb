// The SAML 2.0 protocol, service-provider side: the AuthnRequest sent with the HTTP-Redirect binding,
// and the checks of a response received with the HTTP-POST binding. node-saml builds the request and
// verifies signatures (with the provider's stored certificate); what it leaves to its caller — the
// issuer, an expiry to bound replay protection, subject confirmation times, the e-mail — is done here.
import { SAML, ValidateInResponseTo, type Profile, type SamlConfig } from '@node-saml/node-saml';
import { createPrivateKey, sign, X509Certificate } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { Config } from '../../config.js';
import { badRequest, invalidField } from '../../errors.js';
import type { Urls } from '../../urls.js';

/** Clock difference tolerated with identity providers when checking validity windows. */
export const CLOCK_SKEW_MS = 60_000;

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** This server as the service provider of one SAML provider. */
export type SamlServiceUrls = { entityID: string; acsURL: string; startURL: string };

/**
 * One entity ID per provider (its address, also the audience assertions must name), so an assertion
 * made for one provider is never accepted by another.
 */
export function samlServiceUrls(urls: Urls, organizationId: string, providerId: string): SamlServiceUrls {
  const entityID = urls.api(`/sso/orgs/${organizationId}/saml/${providerId}`);
  return { entityID, acsURL: `${entityID}/acs`, startURL: `${entityID}/start` };
}

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\r?\n[\s\S]+?\r?\n-----END CERTIFICATE-----$/;

/** One X.509 certificate in PEM (surrounding whitespace aside), as node:crypto parses it. */
export function isX509CertificatePem(text: string): boolean {
  const trimmed = text.trim();
  if (!PEM_CERTIFICATE.test(trimmed) || trimmed.split('-----BEGIN').length !== 2) return false;
  try {
    new X509Certificate(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * `relayState` as an absolute address when it is on this server's origin (absolute, or a path
 * resolved against PUBLIC_URL); anything else is a 400 naming `path`, so a sign-in never hands a token
 * to another site.
 */
export function sameOriginRelayState(config: Pick<Config, 'publicUrl'>, relayState: string, path: string): URL {
  const origin = new URL(config.publicUrl).origin;
  let url: URL;
  try {
    url = new URL(relayState, `${config.publicUrl}/`);
  } catch {
    throw invalidField(path, `must be an address on ${origin}`);
  }
  if (url.origin !== origin) throw invalidField(path, `must be an address on ${origin}`);
  return url;
}

export type SamlIdentityProvider = { entityId: string; ssoUrl: string; certificate: string };

function samlConfig(idp: SamlIdentityProvider, service: SamlServiceUrls): SamlConfig {
  return {
    entryPoint: idp.ssoUrl,
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    audience: service.entityID,
    // The PEM as node:crypto writes it: node-saml wants one strict PEM block.
    idpCert: new X509Certificate(idp.certificate.trim()).toString(),
    // Either the whole response or its assertion must be signed (node-saml then requires the other
    // signature only when the first is missing); an unsigned response is refused either way.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // Identity-provider-initiated sign-ins carry no InResponseTo; replays are refused by assertion id.
    validateInResponseTo: ValidateInResponseTo.never,
    // Asking for a specific authentication context makes some providers refuse stronger ones (MFA).
    disableRequestedAuthnContext: true,
  };
}

/** node-saml's protected AuthnRequest builder, made callable: the binding is encoded below. */
class AuthnRequests extends SAML {
  build(): Promise<string> {
    return this.generateAuthorizeRequestAsync(false, false);
  }
}

/**
 * The identity provider's address carrying a signed AuthnRequest (HTTP-Redirect binding, SAML
 * bindings §3.4.4.1): the signature covers `SAMLRequest=…&RelayState=…&SigAlg=…` exactly as those
 * bytes appear in the query, so a provider can check it against the raw query as the standard says.
 */
export async function authnRequestRedirect(
  idp: SamlIdentityProvider,
  service: SamlServiceUrls,
  servicePrivateKeyPem: Buffer,
  relayState: string | undefined,
): Promise<string> {
  const xml = await new AuthnRequests(samlConfig(idp, service)).build();
  const parts = [`SAMLRequest=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`];
  if (relayState !== undefined) parts.push(`RelayState=${encodeURIComponent(relayState)}`);
  parts.push(`SigAlg=${encodeURIComponent(RSA_SHA256)}`);
  const signed = parts.join('&');
  const signature = sign('sha256', Buffer.from(signed), createPrivateKey(servicePrivateKeyPem)).toString('base64');
  const target = new URL(idp.ssoUrl);
  target.hash = '';
  const base = target.href.replace(/\?$/, '');
  return `${base}${target.search ? '&' : '?'}${signed}&Signature=${encodeURIComponent(signature)}`;
}

/** What a verified assertion says, as signing in needs it. */
export type VerifiedAssertion = {
  /** The assertion's `ID`, for replay protection. */
  assertionId: string;
  /** Until when the assertion could be accepted (its latest NotOnOrAfter plus the clock skew). */
  acceptableUntil: Date;
  email: string;
  displayName: string | undefined;
};

const refused = (reason: string) => badRequest(`SAML response refused: ${reason}`);

const EMAIL_ATTRIBUTES = ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['displayName', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'name'];
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
// The `email` format of the API's User object (ajv-formats).
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const MAX_EMAIL_LENGTH = 320;
const MAX_NAME_LENGTH = 255;
const MAX_ASSERTION_ID_LENGTH = 256;

type XmlNode = { $?: Record<string, string | undefined>; [child: string]: unknown };

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function firstString(profile: Profile, names: string[]): string | undefined {
  for (const name of names) {
    const value = profile[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string' && text.trim()) return text.trim();
  }
  return undefined;
}

function timestamp(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw refused(`${what} is not a date`);
  return ms;
}

/**
 * Verifies a posted `SAMLResponse` for the identity provider and this service provider: signature
 * with the stored certificate, audience, validity window, issuer, subject confirmation, expiry; then
 * reads the e-mail. Any failure is a 400 saying why.
 */
export async function verifySamlResponse(idp: SamlIdentityProvider, service: SamlServiceUrls, samlResponse: string): Promise<VerifiedAssertion> {
  let profile: Profile | null;
  try {
    ({ profile } = await new SAML(samlConfig(idp, service)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw refused(error instanceof Error ? error.message : 'invalid response');
  }
  if (!profile) throw refused('no assertion');
  if (profile.issuer !== idp.entityId) throw refused(`the issuer is not the provider's entity ID`);

  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertionId || assertionId.length > MAX_ASSERTION_ID_LENGTH) throw refused('the assertion has no usable ID');

  // node-saml enforces Conditions' window; an expiry is required so that replay protection is bounded.
  const conditionsEnd = timestamp(children(assertion, 'Conditions')[0]?.$?.NotOnOrAfter, 'Conditions NotOnOrAfter');
  if (conditionsEnd === undefined) throw refused('the assertion has no expiry (Conditions NotOnOrAfter)');

  // Bearer subject confirmations must be current and meant for this service (node-saml checks them
  // only when it validates InResponseTo).
  const now = Date.now();
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation').flatMap((c) => children(c, 'SubjectConfirmationData'));
  let confirmationEnd = 0;
  if (confirmations.length) {
    const current = confirmations.filter((data) => {
      const notBefore = timestamp(data.$?.NotBefore, 'SubjectConfirmationData NotBefore');
      const notOnOrAfter = timestamp(data.$?.NotOnOrAfter, 'SubjectConfirmationData NotOnOrAfter');
      const recipient = data.$?.Recipient;
      return (
        (notBefore === undefined || now + CLOCK_SKEW_MS >= notBefore) &&
        (notOnOrAfter === undefined || now - CLOCK_SKEW_MS < notOnOrAfter) &&
        (recipient === undefined || recipient === service.acsURL)
      );
    });
    if (!current.length) throw refused('no subject confirmation is current and addressed to this service');
    confirmationEnd = Math.max(...current.map((data) => timestamp(data.$?.NotOnOrAfter, 'NotOnOrAfter') ?? 0));
  }

  const email = firstString(profile, EMAIL_ATTRIBUTES) ?? (profile.nameIDFormat === EMAIL_NAME_ID ? profile.nameID : undefined);
  if (!email || email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) throw refused('the assertion names no e-mail address');

  return {
    assertionId,
    acceptableUntil: new Date(Math.max(conditionsEnd, confirmationEnd) + CLOCK_SKEW_MS),
    email,
    displayName: firstString(profile, NAME_ATTRIBUTES)?.slice(0, MAX_NAME_LENGTH),
  };
}
