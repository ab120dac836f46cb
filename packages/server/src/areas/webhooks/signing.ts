// Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature` holds
// `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` for each signing secret,
// space-separated (two during a rotation's grace period), so any of the specification's verifiers
// accepts the delivery.
import { createHmac } from 'node:crypto';

export type SignedHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/** The three headers of a delivery of `body` (the exact bytes sent), signed with each of `keys`. */
export function signedHeaders(keys: readonly Buffer[], messageId: string, timestampSeconds: number, body: string): SignedHeaders {
  const content = `${messageId}.${timestampSeconds}.${body}`;
  const signatures = keys.map((key) => `v1,${createHmac('sha256', key).update(content).digest('base64')}`);
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': signatures.join(' ') };
}
