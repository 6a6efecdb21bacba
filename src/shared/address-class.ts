import { isIPv4, isIPv6 } from "node:net";

/** Why an address is off limits for URLs the model chooses, e.g. "a loopback address". */
type RefusalReason = string;

interface Range {
  /** The network address, as bytes (4 for IPv4, 16 for IPv6). */
  network: readonly number[];
  prefixBits: number;
  reason: RefusalReason;
}

const v4 = (text: string, prefixBits: number, reason: RefusalReason): Range => ({
  network: text.split(".").map(Number),
  prefixBits,
  reason,
});

// Most specific first: the first match gives the reason.
const IPV4_RANGES: readonly Range[] = [
  v4("169.254.169.254", 32, "a cloud metadata address"),
  v4("255.255.255.255", 32, "the broadcast address"),
  v4("0.0.0.0", 8, "an unspecified address"),
  v4("10.0.0.0", 8, "a private network address"),
  v4("100.64.0.0", 10, "a shared (carrier-grade NAT) address"),
  v4("127.0.0.0", 8, "a loopback address"),
  v4("169.254.0.0", 16, "a link-local address"),
  v4("172.16.0.0", 12, "a private network address"),
  v4("192.0.0.0", 24, "a reserved address"),
  v4("192.0.2.0", 24, "a documentation address"),
  v4("192.168.0.0", 16, "a private network address"),
  v4("198.18.0.0", 15, "a reserved (benchmarking) address"),
  v4("198.51.100.0", 24, "a documentation address"),
  v4("203.0.113.0", 24, "a documentation address"),
  v4("224.0.0.0", 4, "a multicast address"),
  v4("240.0.0.0", 4, "a reserved address"),
];

const v6 = (text: string, prefixBits: number, reason: RefusalReason): Range => ({
  network: [...(ipv6Bytes(text) ?? [])],
  prefixBits,
  reason,
});

const IPV6_RANGES: readonly Range[] = [
  v6("fd00:ec2::254", 128, "a cloud metadata address"),
  v6("::", 128, "an unspecified address"),
  v6("::1", 128, "a loopback address"),
  v6("64:ff9b:1::", 48, "a private network address (local NAT64)"),
  v6("100::", 64, "a reserved (discard) address"),
  v6("2001::", 32, "a Teredo tunnel address"),
  v6("2001:db8::", 32, "a documentation address"),
  v6("fc00::", 7, "a private network address (unique local)"),
  v6("fe80::", 10, "a link-local address"),
  v6("fec0::", 10, "a private network address (site local)"),
  v6("ff00::", 8, "a multicast address"),
];

/** IPv6 ranges that carry an IPv4 address; that address decides. Value: offset of its 4 bytes. */
const EMBEDDING_RANGES: ReadonlyArray<{ range: Range; offset: number }> = [
  { range: v6("::ffff:0:0", 96, "an IPv4-mapped address"), offset: 12 },
  { range: v6("::ffff:0:0:0", 96, "an IPv4-translated address"), offset: 12 },
  { range: v6("64:ff9b::", 96, "a NAT64 address"), offset: 12 },
  { range: v6("2002::", 16, "a 6to4 address"), offset: 2 },
];

const GLOBAL_UNICAST_V6 = v6("2000::", 3, "");

function inRange(bytes: readonly number[], range: Range): boolean {
  if (bytes.length !== range.network.length) return false;
  for (let bit = 0; bit < range.prefixBits; bit += 8) {
    const bits = Math.min(8, range.prefixBits - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((range.network[index] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(text: string): number[] | undefined {
  return isIPv4(text) ? text.split(".").map(Number) : undefined;
}

/** The 16 bytes of an IPv6 address (brackets and zone id allowed), or undefined when it is not one. */
export function ipv6Bytes(text: string): Uint8Array | undefined {
  const address = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!isIPv6(address)) return undefined;
  const groups = (part: string): number[] => {
    if (part === "") return [];
    return part.split(":").flatMap((group) => {
      const dotted = ipv4Bytes(group);
      return dotted ? [(dotted[0]! << 8) | dotted[1]!, (dotted[2]! << 8) | dotted[3]!] : [parseInt(group, 16)];
    });
  };
  const [head = "", tail] = address.split("::");
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return Uint8Array.from(all.flatMap((group) => [group >> 8, group & 0xff]));
}

function ipv4Reason(bytes: readonly number[]): RefusalReason | undefined {
  return IPV4_RANGES.find((range) => inRange(bytes, range))?.reason;
}

function ipv6Reason(bytes: Uint8Array): RefusalReason | undefined {
  const list = [...bytes];
  for (const { range, offset } of EMBEDDING_RANGES) {
    if (!inRange(list, range)) continue;
    const embedded = ipv4Reason(list.slice(offset, offset + 4));
    return embedded && `${embedded} (inside ${range.reason})`;
  }
  const listed = IPV6_RANGES.find((range) => inRange(list, range))?.reason;
  if (listed) return listed;
  return inRange(list, GLOBAL_UNICAST_V6) ? undefined : "a reserved address";
}

/**
 * Why `address` (an IPv4 or IPv6 literal) may not be fetched for the model: loopback, private,
 * link-local, shared, metadata, multicast, broadcast, unspecified or reserved. Undefined when
 * it is a public address. Anything that is not an IP literal is refused.
 */
export function refusedAddressReason(address: string): RefusalReason | undefined {
  const four = ipv4Bytes(address);
  if (four) return ipv4Reason(four);
  const six = ipv6Bytes(address);
  if (six) return ipv6Reason(six);
  return "not an IP address";
}

/** Whether `address` (an IP literal) is a loopback address: 127.0.0.0/8, ::1, or one of them inside IPv6. */
export function isLoopbackAddress(address: string): boolean {
  return refusedAddressReason(address)?.startsWith("a loopback address") ?? false;
}
