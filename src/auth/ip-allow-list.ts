import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A parsed list of addresses and CIDR ranges, matched against IPv4, IPv6 and IPv4-mapped IPv6. */
export class IpAllowList {
  private readonly ranges: Range[];

  constructor(entries: readonly string[]) {
    this.ranges = entries.map(parseRange);
  }

  contains(address: string): boolean {
    const parsed = parseAddress(address);
    if (!parsed) return false;
    return this.ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
  }
}

export function isCidrOrAddress(entry: string): boolean {
  try {
    parseRange(entry);
    return true;
  } catch {
    return false;
  }
}

function parseRange(entry: string): Range {
  const text = entry.trim();
  const [addressPart = ''] = text.split('/');
  if (!isStrictAddress(addressPart)) throw new Error(`not an IP address: ${entry}`);
  if (text.includes('/')) {
    const [address, bits] = ipaddr.parseCIDR(text);
    return [
      normalize(address),
      address.kind() === 'ipv6' && normalize(address).kind() === 'ipv4' ? bits - 96 : bits,
    ];
  }
  const address = normalize(ipaddr.parse(text));
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!isStrictAddress(text)) return undefined;
  return normalize(ipaddr.parse(text));
}

/** Four-part dotted IPv4 or IPv6 only; ipaddr.js alone would also take forms such as `1` or `0x7f.1`. */
function isStrictAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

function normalize(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}
