import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses a callback may not reach: anything that is not a public unicast address
 * (RFC 6890 special-purpose ranges). A callback pointed at one of these could make the
 * service probe its own network, so such addresses are refused unless an operator allows
 * the host by name.
 */

/** What kind of non-public address it is, for the message a user reads. */
export type NonPublicRange =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared (carrier-grade NAT)'
  | 'link-local'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'tunnelled';

interface Cidr {
  /** The network's first bytes; only the first `bits` bits count. */
  prefix: number[];
  bits: number;
  range: NonPublicRange;
}

const IPV4_RANGES: Cidr[] = [
  { prefix: [0], bits: 8, range: 'unspecified' },
  { prefix: [10], bits: 8, range: 'private' },
  { prefix: [100, 64], bits: 10, range: 'shared (carrier-grade NAT)' },
  { prefix: [127], bits: 8, range: 'loopback' },
  { prefix: [169, 254], bits: 16, range: 'link-local' },
  { prefix: [172, 16], bits: 12, range: 'private' },
  { prefix: [192, 0, 0], bits: 24, range: 'reserved' },
  { prefix: [192, 0, 2], bits: 24, range: 'documentation' },
  { prefix: [192, 88, 99], bits: 24, range: 'reserved' },
  { prefix: [192, 168], bits: 16, range: 'private' },
  { prefix: [198, 18], bits: 15, range: 'benchmarking' },
  { prefix: [198, 51, 100], bits: 24, range: 'documentation' },
  { prefix: [203, 0, 113], bits: 24, range: 'documentation' },
  { prefix: [224], bits: 4, range: 'multicast' },
  { prefix: [255, 255, 255, 255], bits: 32, range: 'broadcast' },
  { prefix: [240], bits: 4, range: 'reserved' },
];

const IPV6_RANGES: Cidr[] = [
  { prefix: [], bits: 128, range: 'unspecified' },
  { prefix: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], bits: 128, range: 'loopback' },
  // IPv4-compatible addresses (deprecated, ::a.b.c.d): never routed on the Internet.
  { prefix: [], bits: 96, range: 'reserved' },
  { prefix: [0, 0x64, 0xff, 0x9b, 0, 1], bits: 48, range: 'private' },
  { prefix: [0x01], bits: 64, range: 'reserved' },
  { prefix: [0x20, 0x01, 0, 0], bits: 32, range: 'tunnelled' },
  { prefix: [0x20, 0x01, 0x0d, 0xb8], bits: 32, range: 'documentation' },
  { prefix: [0xfc], bits: 7, range: 'unique-local' },
  { prefix: [0xfe, 0x80], bits: 10, range: 'link-local' },
  { prefix: [0xfe, 0xc0], bits: 10, range: 'site-local' },
  { prefix: [0xff], bits: 8, range: 'multicast' },
];

/**
 * The non-public range `address` (IPv4 or IPv6, an optional IPv6 zone or URL brackets
 * allowed) falls in, or null for a public address. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the
 * IPv4 address they reach. Throws for a string that is not an IP address.
 */
export function nonPublicRange(address: string): NonPublicRange | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return ipv4Range(bare.split('.').map(Number));
  if (isIPv6(bare)) return ipv6Range(ipv6Bytes(bare));
  throw new Error(`${address} is not an IP address`);
}

function ipv4Range(bytes: number[]): NonPublicRange | null {
  return IPV4_RANGES.find((cidr) => matches(bytes, cidr))?.range ?? null;
}

function ipv6Range(bytes: number[]): NonPublicRange | null {
  const embedded = embeddedIpv4(bytes);
  if (embedded) return ipv4Range(embedded);
  return IPV6_RANGES.find((cidr) => matches(bytes, cidr))?.range ?? null;
}

/** The IPv4 address an IPv6 address stands for: IPv4-mapped, NAT64 well-known prefix, or 6to4. */
function embeddedIpv4(bytes: number[]): number[] | null {
  const startsWith = (prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (startsWith([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return bytes.slice(12);
  if (startsWith([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return bytes.slice(12);
  if (startsWith([0x20, 0x02])) return bytes.slice(2, 6);
  return null;
}

function matches(bytes: number[], { prefix, bits }: Cidr): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte] & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 16 bytes of a valid IPv6 address in any textual form (`::`, embedded dotted IPv4). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const words =
    tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}
