// Where a contacted host is: a cloud metadata service (workload identity), this machine or its private
// network (no egress), or anywhere else (external egress). Hosts come from facts as written, never resolved,
// so every spelling an address can take (2852039166, 0xa9fea9fe, 0251.0376.0251.0376, ::ffff:a9fe:a9fe,
// 169-254-169-254.nip.io …) is decoded here the way the C library and wildcard DNS services would.

export type HostClass = 'metadata' | 'internal' | 'external';

const METADATA_IPV4 = new Set([ipv4(169, 254, 169, 254), ipv4(169, 254, 170, 2), ipv4(100, 100, 100, 200)]);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'fd00:ec2::254']);

/** IPv4 ranges that stay on this machine or its network: [first octets as a number, prefix length]. */
const INTERNAL_IPV4: readonly [number, number][] = [
  [ipv4(0, 0, 0, 0), 8], // "this network"
  [ipv4(10, 0, 0, 0), 8], // private
  [ipv4(100, 64, 0, 0), 10], // carrier-grade NAT
  [ipv4(127, 0, 0, 0), 8], // loopback
  [ipv4(169, 254, 0, 0), 16], // link-local
  [ipv4(172, 16, 0, 0), 12], // private
  [ipv4(192, 168, 0, 0), 16], // private
  [ipv4(224, 0, 0, 0), 4], // multicast
  [ipv4(255, 255, 255, 255), 32], // broadcast
];

/** Name suffixes that only resolve inside a machine or a private network. */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/** Wildcard DNS services that resolve `<address>.<service>` to the embedded address. */
const WILDCARD_DNS = /(?:^|[.-])((?:\d{1,3}[.-]){3}\d{1,3}|[0-9a-f]{8})\.(?:nip\.io|xip\.io|sslip\.io)$/;

export function classifyHost(raw: string): HostClass {
  const host = unbracket(raw.toLowerCase());
  if (METADATA_NAMES.has(host)) return 'metadata';
  const embedded = WILDCARD_DNS.exec(host)?.[1];
  if (embedded !== undefined) {
    return classifyAddress(/^[0-9a-f]{8}$/.test(embedded) ? `0x${embedded}` : embedded.replace(/-/g, '.')) ?? 'external';
  }
  if (host.includes(':')) return classifyIPv6(host);
  const address = classifyAddress(host);
  if (address !== undefined) return address;
  if (host === 'localhost' || !host.includes('.')) return 'internal'; // single-label names are local (db, redis)
  return INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix)) ? 'internal' : 'external';
}

/** Loopback or unspecified: the machine the agent runs on (a lateral move needs another one). */
export function isThisMachine(raw: string): boolean {
  const host = unbracket(raw.toLowerCase());
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '::') return true;
  const address = parseIPv4(host);
  return address !== undefined && (inRange(address, ipv4(127, 0, 0, 0), 8) || address === 0);
}

function classifyAddress(host: string): HostClass | undefined {
  const address = parseIPv4(host);
  if (address === undefined) return undefined;
  if (METADATA_IPV4.has(address)) return 'metadata';
  return INTERNAL_IPV4.some(([base, bits]) => inRange(address, base, bits)) ? 'internal' : 'external';
}

function classifyIPv6(host: string): HostClass {
  const mapped = /^(?:0*:)*:?ffff:(.+)$/.exec(host)?.[1];
  if (mapped !== undefined) {
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(mapped);
    const v4 = hex ? `0x${hex[1]!.padStart(4, '0')}${hex[2]!.padStart(4, '0')}` : mapped;
    return classifyAddress(v4) ?? 'external';
  }
  if (host === '::1' || host === '::') return 'internal';
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast
  return /^(f[cd][0-9a-f]{0,2}|fe[89ab][0-9a-f]?|ff[0-9a-f]{0,2}):/.test(host) ? 'internal' : 'external';
}

/**
 * An IPv4 address as inet_aton reads it: one to four parts, each decimal, 0x-hex or 0-octal, the last
 * part filling the remaining bytes (so `169.254.43518` and `2852039166` are both 169.254.169.254).
 */
function parseIPv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    const value = parsePart(part);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return undefined;
  return values.reduce((sum, v, i) => sum + v * 256 ** (3 - i), 0) + last;
}

function parsePart(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return Number(part);
  return undefined;
}

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a * 256 + b) * 256 + c) * 256 + d;
}

function inRange(address: number, base: number, bits: number): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(base / size);
}

function unbracket(host: string): string {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return h.endsWith('.') ? h.slice(0, -1) : h;
}
