import { describe, expect, it } from 'vitest';
import { IpAllowList, isCidrOrAddress, parseAddress } from '../../src/auth/ip-allow-list.js';

describe('IpAllowList', () => {
  it('matches single IPv4 addresses exactly', () => {
    const list = new IpAllowList(['203.0.113.7', ' 198.51.100.1 ']);
    expect(list.contains('203.0.113.7')).toBe(true);
    expect(list.contains('198.51.100.1')).toBe(true);
    expect(list.contains('203.0.113.8')).toBe(false);
  });

  it('matches IPv4 CIDR ranges', () => {
    const list = new IpAllowList(['10.0.0.0/8', '192.168.1.0/24']);
    expect(list.contains('10.255.1.2')).toBe(true);
    expect(list.contains('192.168.1.254')).toBe(true);
    expect(list.contains('192.168.2.1')).toBe(false);
    expect(list.contains('11.0.0.1')).toBe(false);
    expect(new IpAllowList(['0.0.0.0/0']).contains('8.8.8.8')).toBe(true);
  });

  it('matches IPv6 addresses and ranges in any notation', () => {
    const list = new IpAllowList(['2001:db8::/32', '::1']);
    expect(list.contains('2001:db8:1234::5')).toBe(true);
    expect(list.contains('2001:0DB8:0:0:0:0:0:1')).toBe(true);
    expect(list.contains('0:0:0:0:0:0:0:1')).toBe(true);
    expect(list.contains('2001:db9::1')).toBe(false);
    expect(list.contains('::2')).toBe(false);
  });

  it('never matches across families, but IPv4-mapped IPv6 counts as IPv4', () => {
    expect(new IpAllowList(['::1']).contains('127.0.0.1')).toBe(false);
    expect(new IpAllowList(['127.0.0.1']).contains('::1')).toBe(false);
    expect(new IpAllowList(['0.0.0.0/0']).contains('2001:db8::1')).toBe(false);
    expect(new IpAllowList(['127.0.0.1']).contains('::ffff:127.0.0.1')).toBe(true);
    expect(new IpAllowList(['::ffff:10.0.0.0/104']).contains('10.1.2.3')).toBe(true);
    expect(new IpAllowList(['::ffff:10.0.0.0/104']).contains('11.1.2.3')).toBe(false);
  });

  it('does not match what is not an address', () => {
    const list = new IpAllowList(['0.0.0.0/0', '::/0']);
    for (const text of ['', 'localhost', '1', '0x7f.0.0.1', '127.1', '10.0.0.1/8', 'garbage']) {
      expect(list.contains(text)).toBe(false);
    }
  });

  it('an empty list matches nothing', () => {
    expect(new IpAllowList([]).contains('127.0.0.1')).toBe(false);
  });
});

describe('isCidrOrAddress and parseAddress', () => {
  it('accept dotted IPv4, IPv6 and their CIDR forms only', () => {
    for (const entry of ['1.2.3.4', '10.0.0.0/8', '::1', '2001:db8::/32', '::ffff:1.2.3.4']) {
      expect(isCidrOrAddress(entry)).toBe(true);
    }
    for (const entry of ['1', '127.1', '0x7f.0.0.1', '1.2.3.4/33', '::1/129', 'host', '', '1.2.3.4/']) {
      expect(isCidrOrAddress(entry)).toBe(false);
    }
  });

  it('parseAddress normalises IPv4-mapped addresses to IPv4', () => {
    expect(parseAddress('::ffff:192.0.2.1')?.toString()).toBe('192.0.2.1');
    expect(parseAddress('2001:db8::1')?.kind()).toBe('ipv6');
    expect(parseAddress('127.1')).toBeUndefined();
  });
});
