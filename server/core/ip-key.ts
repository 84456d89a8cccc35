/**
 * IP addresses and ranges, parsed for the per-IP limits (AddressTable) and the trusted proxies. One
 * IPv6 client usually controls a whole /64 (a home line or a cloud VM gets one), so limiting single
 * IPv6 addresses would let it rotate through 2^64 keys; IPv6 is therefore keyed by its /64 prefix,
 * IPv4 by the address.
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

export type ParsedIp = { version: 4; octets: number[] } | { version: 6; groups: number[] };

function parseIpv4(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

function parseHexGroups(part: string): number[] | null {
  if (part === "") return [];
  const groups: number[] = [];
  const pieces = part.split(":");
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i === pieces.length - 1 && piece.includes(".")) {
      const v4 = parseIpv4(piece);
      if (!v4) return null;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (HEX_GROUP.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIpv6(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = parseHexGroups(halves[0]!);
  if (!head) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const tail = parseHexGroups(halves[1]!);
  if (!tail || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** Parses an address as sockets and proxies write it (`[…]` brackets and `%zone` suffixes allowed). */
export function parseIp(text: string): ParsedIp | null {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4) return { version: 4, octets: v4 };
  let bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  const zone = bare.indexOf("%");
  if (zone >= 0) bare = bare.slice(0, zone);
  if (!bare.includes(":")) return null;
  const groups = parseIpv6(bare);
  if (!groups) return null;
  // An IPv4-mapped address (::ffff:a.b.c.d, how dual-stack sockets report IPv4 peers) is that IPv4 client.
  if (
    groups[5] === 0xffff &&
    groups[0] === 0 &&
    groups[1] === 0 &&
    groups[2] === 0 &&
    groups[3] === 0 &&
    groups[4] === 0
  ) {
    return { version: 4, octets: [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255] };
  }
  return { version: 6, groups };
}

/** An address range: the first `prefix` bits of `units` (IPv4 octets or IPv6 16-bit groups). */
export interface Cidr {
  version: 4 | 6;
  units: number[];
  prefix: number;
}

/** `203.0.113.0/24`, `2001:db8::/32`, or a single address (a full-length prefix); null if neither. */
export function parseCidr(text: string): Cidr | null {
  const trimmed = text.trim();
  const slash = trimmed.indexOf("/");
  const ip = parseIp(slash === -1 ? trimmed : trimmed.slice(0, slash));
  if (!ip) return null;
  const units = ip.version === 4 ? ip.octets : ip.groups;
  const width = ip.version === 4 ? 32 : 128;
  if (slash === -1) return { version: ip.version, units, prefix: width };
  const prefixText = trimmed.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  let prefix = Number(prefixText);
  // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps.
  if (ip.version === 4 && trimmed.slice(0, slash).includes(":")) prefix -= 96;
  if (prefix < 0 || prefix > width) return null;
  return { version: ip.version, units, prefix };
}

/** Whether `ip` lies in `cidr` (IPv4 never lies in an IPv6 range and vice versa). */
export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  if (cidr.version !== ip.version) return false;
  const units = ip.version === 4 ? ip.octets : ip.groups;
  const unitBits = ip.version === 4 ? 8 : 16;
  let left = cidr.prefix;
  for (let i = 0; left > 0; i++, left -= unitBits) {
    const bits = Math.min(unitBits, left);
    const shift = unitBits - bits;
    if (units[i]! >> shift !== cidr.units[i]! >> shift) return false;
  }
  return true;
}

/** Parses a canonical dotted IPv4 address into its 32 bits, or -1; allocates nothing. */
export function ipv4Bits(text: string): number {
  let parts = 0;
  let value = 0;
  let digits = 0;
  let bits = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46; // a virtual "." closes the last part
    if (code === 46) {
      if (digits === 0 || value > 255 || ++parts > 4) return -1;
      bits = bits * 256 + value;
      value = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits === 1 && value === 0) return -1; // leading zero: not canonical, parse the slow way
      value = value * 10 + (code - 48);
      if (++digits > 3) return -1;
    } else {
      return -1;
    }
  }
  return parts === 4 ? bits : -1;
}

/**
 * The string key of a per-IP limit for stores keyed by text (Redis): the IPv4 address itself, or the
 * IPv6 /64 prefix, so one host cannot dodge its limit by rotating through its own /64.
 */
export function ipLimitKey(address: string): string {
  if (ipv4Bits(address) >= 0) return address;
  const ip = parseIp(address);
  if (!ip) return address;
  if (ip.version === 4) return ip.octets.join(".");
  return `${ip.groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
