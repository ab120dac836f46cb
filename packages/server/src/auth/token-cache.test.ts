import { describe, expect, it } from 'vitest';
import { createCaches } from '../caches.js';
import { TokenCache, type CachedToken } from './token-cache.js';

const entry = (userId: string) => ({ token: { id: 't', lastUsedAt: null, expiresAt: null }, user: { id: userId } }) as unknown as CachedToken;

describe('TokenCache', () => {
  it('is bypassed while changes cannot be heard, and starts empty when they can again', () => {
    const cache = new TokenCache(createCaches().tokens);
    cache.set('a', entry('u1'), cache.generation);
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    cache.set('a', entry('u1'), cache.generation);
    expect(cache.get('a')).toBeDefined();
    cache.setLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not cache a lookup during which a change was announced or the listener was down', () => {
    const cache = new TokenCache(createCaches().tokens);
    cache.setLive(true);
    const before = cache.generation;
    cache.invalidate('t:b'); // a revocation announced while the lookup read the database
    cache.set('b', entry('u1'), before);
    expect(cache.get('b')).toBeUndefined();

    const duringOutage = cache.generation;
    cache.setLive(false);
    cache.setLive(true); // the listener came back: what it missed is unknown
    cache.set('b', entry('u1'), duringOutage);
    expect(cache.get('b')).toBeUndefined();

    cache.set('b', entry('u1'), cache.generation);
    expect(cache.get('b')).toBeDefined();
    cache.invalidate('u:u1');
    expect(cache.get('b')).toBeUndefined();
  });
});
