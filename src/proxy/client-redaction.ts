// Who knocked, redacted for error telemetry (spec "Guardrail proxy" 6): enough to tell callers apart in a log,
// not enough to identify a person. IPv4 keeps its /24, IPv6 its /48; the user agent keeps its first product
// token (`OpenAI/JS`, `curl/8.5.0`), cut to 48 printable characters.
import { isIP } from 'node:net';

export function redactIp(ip: string): string {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(v4) === 4) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIP(ip) === 6) {
    const groups = ip.split('::')[0]!.split(':').filter(Boolean);
    return `${groups.slice(0, 3).join(':') || '0'}::/48`;
  }
  return 'unknown';
}

export function redactUserAgent(userAgent: string | undefined): string {
  if (!userAgent) return '';
  const first = userAgent.trim().split(/\s+/)[0] ?? '';
  return first.replace(/[^\x21-\x7e]/g, '').slice(0, 48);
}
