import { describe, expect, it } from 'vitest';
import { IpAllowList } from '../../src/auth/ip-allow-list.js';
import { resolveClientIp } from '../../src/http/client-ip.js';

const trusted = new IpAllowList(['127.0.0.1/32', '10.0.0.0/8']);

describe('resolveClientIp', () => {
  it('is the socket peer without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(
      resolveClientIp({ socketAddress: '127.0.0.1', forwardedFor: '203.0.113.7', trustedProxies: undefined }),
    ).toBe('127.0.0.1');
    expect(
      resolveClientIp({
        socketAddress: '198.51.100.4',
        forwardedFor: '203.0.113.7',
        trustedProxies: trusted,
      }),
    ).toBe('198.51.100.4');
  });

  it('strips the IPv4-mapped prefix of a dual-stack socket', () => {
    expect(
      resolveClientIp({
        socketAddress: '::ffff:127.0.0.1',
        forwardedFor: undefined,
        trustedProxies: undefined,
      }),
    ).toBe('127.0.0.1');
    expect(
      resolveClientIp({ socketAddress: '::1', forwardedFor: undefined, trustedProxies: undefined }),
    ).toBe('::1');
    expect(
      resolveClientIp({ socketAddress: undefined, forwardedFor: undefined, trustedProxies: undefined }),
    ).toBe('');
  });

  it('believes X-Forwarded-For from a trusted peer, reading from the right past trusted hops', () => {
    const from = (forwardedFor: string | string[] | undefined, socketAddress = '127.0.0.1') =>
      resolveClientIp({ socketAddress, forwardedFor, trustedProxies: trusted });
    expect(from('203.0.113.7')).toBe('203.0.113.7');
    expect(from('203.0.113.7', '::ffff:127.0.0.1')).toBe('203.0.113.7');
    expect(from('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(from('198.51.100.1, 203.0.113.7, 10.1.1.1')).toBe('203.0.113.7');
    expect(from(['198.51.100.1', '203.0.113.7 , 10.0.0.2'])).toBe('203.0.113.7');
    expect(from('2001:db8::5')).toBe('2001:db8::5');
    expect(from('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(from(undefined)).toBe('127.0.0.1');
    expect(from('')).toBe('127.0.0.1');
  });

  it('when every hop is trusted, the leftmost one', () => {
    expect(
      resolveClientIp({
        socketAddress: '127.0.0.1',
        forwardedFor: '10.0.0.5, 10.0.0.6',
        trustedProxies: trusted,
      }),
    ).toBe('10.0.0.5');
  });
});
