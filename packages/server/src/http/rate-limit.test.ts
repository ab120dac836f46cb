import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './rate-limit.js';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses, also written as IPv4-mapped IPv6', () => {
    expect(clientAddressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });
});
