import ipaddr from 'ipaddr.js';

/**
 * Whether an address is ordinary public unicast. Loopback, private, link-local, unique-local,
 * carrier-grade NAT, multicast, reserved and unspecified ranges are not; an IPv4-mapped IPv6
 * address is judged by the IPv4 address inside it.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}
