// Webhook signing secrets. The server signs with the secret itself (unlike API tokens, it cannot keep a
// hash), so it is stored sealed: AES-256-GCM under the `webhookSecrets` server key (keys.ts), with the
// webhook's organization and id as associated data, so a sealed secret cannot be read from a copy of
// the webhooks table alone, nor moved to another webhook's row (docs/decisions.md, Events and webhooks).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The Standard Webhooks form: `whsec_` and the base64 of the key bytes (32 random bytes here). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a `whsec_…` secret, as the signature's HMAC uses them. */
export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const associatedData = (organizationId: string, webhookId: string) => Buffer.from(`webhook:${organizationId}:${webhookId}`);

/** `iv ‖ ciphertext ‖ tag` of the secret. */
export function sealSecret(key: Buffer, organizationId: string, webhookId: string, secret: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(organizationId, webhookId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]);
}

/** The secret sealed by sealSecret for this webhook; throws when it was sealed for another or altered. */
export function openSecret(key: Buffer, organizationId: string, webhookId: string, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(associatedData(organizationId, webhookId));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
