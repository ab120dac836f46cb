// webhooks.verify / unwrap against deliveries signed here with node:crypto, the way the Standard
// Webhooks specification says (the server's own deliveries are verified in the server's tests, with
// the specification's published verifier and with this one).
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ContentWorkspaceError, webhooks, WebhookVerificationError, type WebhookEvent } from '../src/index.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const other = `whsec_${randomBytes(32).toString('base64')}`;

const event = {
  object: 'event',
  id: 'Ev3ntIdOfTwentyChars',
  type: 'space.updated',
  createdAt: '2026-11-28T10:15:02.113Z',
  organization: 'Org1dOfTwentyCharsXY',
  space: 'Sp4ceIdOfTwentyChars',
  actor: { type: 'system' },
  data: { object: { id: 'Sp4ceIdOfTwentyChars', title: 'Handbook' } },
};
const body = JSON.stringify(event);

function sign(keys: string[], id: string, timestamp: number, payload: string) {
  return keys.map((key) => `v1,${createHmac('sha256', Buffer.from(key.slice(6), 'base64')).update(`${id}.${timestamp}.${payload}`).digest('base64')}`).join(' ');
}

function headers(options: { keys?: string[]; timestamp?: number; payload?: string } = {}) {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return { 'webhook-id': event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(options.keys ?? [secret], event.id, timestamp, options.payload ?? body) };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(error).toBeInstanceOf(ContentWorkspaceError);
  return (error as WebhookVerificationError).reason;
}

describe('webhooks.verify', () => {
  it('returns the event of a delivery signed with the secret (text or bytes, node:http or Fetch headers)', async () => {
    expect(await webhooks.verify(body, headers(), secret)).toEqual(event);
    expect(await webhooks.verify(new TextEncoder().encode(body), new Headers(headers()), secret)).toEqual(event);
    // node:http gives header names in lowercase; anything else works too.
    const shouted = Object.fromEntries(Object.entries(headers()).map(([name, value]) => [name.toUpperCase(), value]));
    expect(await webhooks.verify(body, shouted, secret)).toEqual(event);
  });

  it('accepts any of several signatures (a rotation), and any of several secrets', async () => {
    expect(await webhooks.verify(body, headers({ keys: [other, secret] }), secret)).toEqual(event);
    expect(await webhooks.verify(body, headers({ keys: [other] }), [secret, other])).toEqual(event);
  });

  it('refuses another secret, a changed body, a signature of another scheme', async () => {
    expect(await refusal(webhooks.verify(body, headers({ keys: [other] }), secret))).toBe('signature');
    expect(await refusal(webhooks.verify(body.replace('Handbook', 'Forged'), headers(), secret))).toBe('signature');
    const v2 = { ...headers(), 'webhook-signature': headers()['webhook-signature'].replace('v1,', 'v2,') };
    expect(await refusal(webhooks.verify(body, v2, secret))).toBe('signature');
    const changedId = { ...headers(), 'webhook-id': 'another' };
    expect(await refusal(webhooks.verify(body, changedId, secret))).toBe('signature');
  });

  it('refuses a timestamp more than five minutes away (signed or not), and missing headers', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(webhooks.verify(body, headers({ timestamp: now - 301 }), secret))).toBe('timestamp');
    expect(await refusal(webhooks.verify(body, headers({ timestamp: now + 301 }), secret))).toBe('timestamp');
    expect(await webhooks.verify(body, headers({ timestamp: now - 290 }), secret)).toEqual(event);
    expect(await webhooks.verify(body, headers({ timestamp: now - 3600 }), secret, { toleranceSeconds: 7200 })).toEqual(event);
    expect(await refusal(webhooks.verify(body, { ...headers(), 'webhook-timestamp': 'soon' }, secret))).toBe('timestamp');
    const { 'webhook-signature': _dropped, ...unsigned } = headers();
    expect(await refusal(webhooks.verify(body, unsigned, secret))).toBe('headers');
  });

  it('refuses a signed body that is not an event; a secret that is not base64 is a programming error', async () => {
    expect(await refusal(webhooks.verify('[1,2]', headers({ payload: '[1,2]' }), secret))).toBe('payload');
    await expect(webhooks.verify(body, headers(), 'whsec_!!!')).rejects.toThrow(TypeError);
  });
});

describe('webhooks.unwrap', () => {
  it('verifies a Fetch API request and narrows the event by its type', async () => {
    const request = new Request('https://receiver.example/hooks', { method: 'POST', headers: headers(), body });
    const unwrapped: WebhookEvent = await webhooks.unwrap(request, secret);
    if (unwrapped.type !== 'space.updated') throw new Error('expected a space.updated event');
    // Narrowed: `data.object` is a Space.
    expect(unwrapped.data.object.title).toBe('Handbook');
    const forged = new Request('https://receiver.example/hooks', { method: 'POST', headers: headers(), body: body.replace('Handbook', 'Forged') });
    expect(await refusal(webhooks.unwrap(forged, secret))).toBe('signature');
  });
});
