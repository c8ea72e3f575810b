// Host names as approvals and unblocks key them: lower case, no trailing dot, IPv6 without brackets; a
// `host_port` approval keys `host:port`. Checked strictly (a name, an IPv4 or an IPv6 address) so a config
// list never gets a pattern or a URL written into it.
import { isIP } from 'node:net';
import { SandboxApiError } from '../errors.js';

// Labels of letters, digits, `-` and `_` separated by single dots: linear-time (no label can match a dot).
const NAME = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** The normalised host, or 400 invalid_request when it is not a host name or an IP address. */
export function checkHost(host: string): string {
  const normal = normalizeHost(host);
  if (normal.length > 0 && normal.length <= 253 && (isIP(normal) !== 0 || NAME.test(normal))) return normal;
  throw new SandboxApiError('invalid_request', `host must be a host name or an IP address, got ${JSON.stringify(host.slice(0, 300))}`);
}

/** The key an approval unblocks: the host, or `host:port` for a port on the host machine. */
export function unblockKey(kind: 'network_rule' | 'host_port', host: string, port: number): string {
  return kind === 'host_port' ? `${host}:${port}` : host;
}
