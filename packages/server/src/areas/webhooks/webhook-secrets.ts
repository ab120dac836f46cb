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

/**
 * Opened secrets' key bytes, per webhook, for the sender's loop: opening one is an AES-GCM decryption
 * and the base64 decoding of its key, for each delivery otherwise. An entry is used only for the very
 * bytes it was opened from (a rotation seals the new secret with a fresh IV: any change of the secret
 * is a new version, and an altered one is opened, and refused, again); at most `limit` secrets are
 * kept, the least recently used dropped first.
 */
export type SecretCache = { keyBytes(secretsKey: Buffer, organizationId: string, webhookId: string, sealed: Buffer): Buffer };

export function createSecretCache(limit = 1024): SecretCache {
  const opened = new Map<string, { sealed: Buffer; key: Buffer }>();
  return {
    keyBytes(secretsKey, organizationId, webhookId, sealed) {
      // By the seal's random IV too: the current and the previous secret (a rotation's grace period) are two entries.
      const id = `${organizationId}/${webhookId}/${sealed.subarray(0, IV_BYTES).toString('base64')}`;
      const entry = opened.get(id);
      opened.delete(id);
      if (entry && entry.sealed.equals(sealed)) {
        opened.set(id, entry);
        return entry.key;
      }
      const key = secretKeyBytes(openSecret(secretsKey, organizationId, webhookId, sealed));
      if (opened.size >= limit) opened.delete(opened.keys().next().value!);
      opened.set(id, { sealed: Buffer.from(sealed), key });
      return key;
    },
  };
}
