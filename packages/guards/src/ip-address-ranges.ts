/** An address range an outbound request must not reach, and why. */
interface ReservedRange {
  bytes: number[];
  prefix: number;
  name: string;
}

function range(cidr: string, name: string): ReservedRange {
  const [address = '', prefix = ''] = cidr.split('/');
  // node:net is loaded where used, not imported, to keep it off every server's start-up path.
  const { isIPv4 } = process.getBuiltinModule('node:net');
  const bytes = isIPv4(address) ? ipv4Bytes(address) : ipv6Bytes(address);
  return { bytes: bytes ?? [], prefix: Number(prefix), name };
}

// IANA special-purpose registries (RFC 6890 and successors), plus cloud
// metadata addresses, which sit inside link-local and unique-local space.
// Built on the first check, not at start: the first isIPv6 compiles Node's
// large IPv6 expression, which a server that never fetches should not pay for.
const ipv4Table = (): ReservedRange[] => [
  range('0.0.0.0/8', 'this network'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared address space (carrier-grade NAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.169.254/32', 'cloud metadata'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay anycast'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

const ipv6Table = (): ReservedRange[] => [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'local-use IPv4/IPv6 translation'),
  range('100::/64', 'discard-only'),
  range('2001::/23', 'IETF protocol assignments (Teredo and others)'),
  range('2001:db8::/32', 'documentation'),
  range('fd00:ec2::254/128', 'cloud metadata'),
  range('fc00::/7', 'unique local (private)'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

let ranges: { ipv4: ReservedRange[]; ipv6: ReservedRange[] } | undefined;

function reservedRanges(): { ipv4: ReservedRange[]; ipv6: ReservedRange[] } {
  ranges ??= { ipv4: ipv4Table(), ipv6: ipv6Table() };
  return ranges;
}

function ipv4Bytes(address: string): number[] | undefined {
  if (!process.getBuiltinModule('node:net').isIPv4(address)) return undefined;
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address, `::` and a dotted IPv4 tail included. */
export function ipv6Bytes(address: string): number[] | undefined {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!process.getBuiltinModule('node:net').isIPv6(text)) return undefined;
  const [head = '', tail] = text.split('::');
  const groups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (group.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(group) ?? [];
        return [(a << 8) | b, (c << 8) | d];
      }
      return [Number.parseInt(group, 16)];
    });
  };
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function within(bytes: readonly number[], reserved: ReservedRange): boolean {
  let bits = reserved.prefix;
  for (let index = 0; bits > 0; index += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((reserved.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIpv4(bytes: readonly number[]): string | undefined {
  if (bytes.every((byte) => byte === 255)) return 'broadcast';
  return reservedRanges().ipv4.find((reserved) => within(bytes, reserved))?.name;
}

/** IPv6 forms that carry an IPv4 address, which is what the packets reach. */
function embeddedIpv4(bytes: readonly number[]): number[] | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64)
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return bytes.slice(12);
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12))
    return bytes.slice(12);
  // 2002:aabb:ccdd::/48 (6to4)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

/**
 * Why an IP address must not be reached from a server fetching on a model's
 * behalf — loopback, private, link-local, cloud metadata, and every other
 * special-purpose range — or undefined for a public address. IPv6 forms that
 * embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by it.
 * Anything that is not an IP address is refused as such.
 *
 * @example
 * classifyAddress('169.254.169.254'); // 'cloud metadata'
 * classifyAddress('::ffff:127.0.0.1'); // 'loopback'
 * classifyAddress('93.184.215.14'); // undefined
 */
export function classifyAddress(address: string): string | undefined {
  const v4 = ipv4Bytes(address);
  if (v4 !== undefined) return classifyIpv4(v4);
  const v6 = ipv6Bytes(address);
  if (v6 === undefined) return 'not an IP address';
  const inner = embeddedIpv4(v6);
  if (inner !== undefined) {
    const reason = classifyIpv4(inner);
    if (reason !== undefined) return reason;
  }
  return reservedRanges().ipv6.find((reserved) => within(v6, reserved))?.name;
}
