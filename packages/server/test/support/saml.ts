// A test SAML identity provider: responses signed (with xml-crypto, as real providers sign) by the
// committed fixture key, or by another key, with every field a test may want to get wrong.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignedXml } from 'xml-crypto';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

export const IDP_KEY = fixture('saml-idp.key.pem');
export const IDP_CERTIFICATE = fixture('saml-idp.cert.pem');
export const IDP_ENTITY_ID = 'https://idp.example.test/metadata';
export const IDP_SSO_URL = 'https://idp.example.test/sso';

/** A key the provider's certificate does not belong to. */
export const OTHER_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export type ResponseOptions = {
  /** The service provider's entity ID (audience) and ACS address, from `service` of the SAML provider. */
  service: { entityID: string; acsURL: string };
  email?: string;
  /** Put the e-mail in the NameID only (emailAddress format), not in an attribute. */
  emailInNameIdOnly?: boolean;
  displayName?: string;
  issuer?: string;
  audience?: string;
  assertionId?: string;
  /** Validity of Conditions and of the subject confirmation, relative to now (ms); default −1 min … +5 min. */
  notBeforeMs?: number;
  notOnOrAfterMs?: number;
  /** Omit Conditions' NotOnOrAfter. */
  noExpiry?: boolean;
  /** What is signed: the assertion (default), the whole response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  key?: string;
};

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The XML of a `samlp:Response` with one assertion. */
export function samlResponseXml(options: ResponseOptions): string {
  const email = options.email ?? 'someone@example.com';
  const issuer = escape(options.issuer ?? IDP_ENTITY_ID);
  const notBefore = iso(options.notBeforeMs ?? -60_000);
  const notOnOrAfter = iso(options.notOnOrAfterMs ?? 300_000);
  const assertionId = options.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
  const attributes = [
    ...(options.emailInNameIdOnly ? [] : [['email', email]]),
    ...(options.displayName ? [['displayName', options.displayName]] : []),
  ];
  const attributeStatement = attributes.length
    ? `<saml:AttributeStatement>${attributes
        .map(([name, value]) => `<saml:Attribute Name="${name}"><saml:AttributeValue>${escape(value!)}</saml:AttributeValue></saml:Attribute>`)
        .join('')}</saml:AttributeStatement>`
    : '';
  const conditionsEnd = options.noExpiry ? '' : ` NotOnOrAfter="${notOnOrAfter}"`;
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}" Destination="${escape(options.service.acsURL)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escape(options.service.acsURL)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}"${conditionsEnd}>` +
    `<saml:AudienceRestriction><saml:Audience>${escape(options.audience ?? options.service.entityID)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s1"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    attributeStatement +
    `</saml:Assertion></samlp:Response>`
  );
}

/** Signs the element (Response or Assertion) with an enveloped RSA-SHA256 signature after its Issuer. */
function signElement(xml: string, element: 'Response' | 'Assertion', key: string): string {
  const signer = new SignedXml({
    privateKey: key,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  const target = `//*[local-name(.)='${element}']`;
  signer.addReference({
    xpath: target,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** A base64 `SAMLResponse` as an identity provider posts it. */
export function samlResponse(options: ResponseOptions): string {
  let xml = samlResponseXml(options);
  const sign = options.sign ?? 'assertion';
  if (sign === 'assertion') xml = signElement(xml, 'Assertion', options.key ?? IDP_KEY);
  if (sign === 'response') xml = signElement(xml, 'Response', options.key ?? IDP_KEY);
  return Buffer.from(xml).toString('base64');
}
