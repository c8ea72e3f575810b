// The canonical form of an egress host for the firewall policy: an IP address written in any of its encodings
// (decimal `2852039166`, hex `0xa9fea9fe`, octal `0251.0376.0251.0376`, short `169.254.43518`, IPv4-mapped
// IPv6 `::ffff:a9fe:a9fe`) becomes its plain form, so the metadata denial and CIDR rules cannot be dodged by
// spelling. The WHATWG URL parser (Node's own) does the IPv4 number forms exactly as browsers and curl do.
import { isIPv6 } from 'node:net';

/** The host as the firewall module compares it: lowercase, no trailing dot, IPs in plain dotted or v6 form. */
export function canonicalHost(host: string): string {
  const bare = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIPv6(bare)) return ipv6Form(bare);
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return bare; // not a host a URL can carry: compared as written (and matches no IP rule)
  }
}

/** IPv6 in the URL parser's compressed form; an IPv4-mapped address as its dotted IPv4. */
function ipv6Form(address: string): string {
  const compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
