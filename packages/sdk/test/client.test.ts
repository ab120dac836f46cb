import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';

describe('createClient', () => {
  it('calls the typed path with the bearer token through the given fetch', async () => {
    const seen: Request[] = [];
    const client = createClient({
      baseUrl: 'https://api.example.com',
      token: 'cw_secret',
      fetch: async (input) => {
        seen.push(input as Request);
        return new Response(JSON.stringify({ object: 'user', id: 'u1', displayName: 'A', email: 'a@example.com', urls: { location: 'x' } }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    const { data } = await client.GET('/v1/users/{userId}', { params: { path: { userId: 'u1' } } });
    expect(data?.id).toBe('u1');
    expect(seen[0]?.url).toBe('https://api.example.com/v1/users/u1');
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer cw_secret');
  });
});
