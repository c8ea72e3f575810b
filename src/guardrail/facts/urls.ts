// URLs and host names. Hosts are kept as written (lower-cased), never resolved or canonicalised: rules
// match encoded forms such as `2852039166` or `0xa9fea9fe` literally, and `new URL()` would rewrite them.

const URL_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'sftp', 'ws', 'wss', 'file', 'gopher', 'dict']);
/** Longest scheme in URL_SCHEMES: how far back from `://` a scheme can start. */
const MAX_SCHEME_LENGTH = 6;
const TRAILING_PUNCTUATION = '.,;:!?)]}\'"';

function isSchemeChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** Characters that cannot be part of a URL written in free text or a shell word. */
function endsUrl(code: number): boolean {
  return code <= 32 || code === 34 || code === 39 || code === 60 || code === 62 || code === 96 || code === 92 || code === 124;
}

/** Calls `found` with every URL of a known scheme in `text`, left to right; linear in `text`. */
export function findUrls(text: string, found: (url: string) => void): void {
  let from = 0;
  for (;;) {
    const separator = text.indexOf('://', from);
    if (separator < 0) return;
    let start = separator;
    while (start > 0 && separator - start < MAX_SCHEME_LENGTH && isSchemeChar(text.charCodeAt(start - 1))) start--;
    let end = separator + 3;
    while (end < text.length && !endsUrl(text.charCodeAt(end))) end++;
    while (end > separator + 3 && TRAILING_PUNCTUATION.includes(text.charAt(end - 1))) end--;
    if (end > separator + 3 && URL_SCHEMES.has(text.slice(start, separator).toLowerCase())) {
      found(text.slice(start, end));
    }
    from = Math.max(end, separator + 3);
  }
}

/** Lower-case, without IPv6 brackets or the trailing dot of a fully qualified name. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

function authorityEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && !'/?#\\'.includes(text.charAt(i))) i++;
  return i;
}

/** Host of `[user@]host[:port][/path]`, `[v6]:port` or a bare IPv6 address. */
export function hostOfAddress(address: string): string {
  const scheme = address.indexOf('://');
  if (scheme >= 0) return hostOfAddress(address.slice(scheme + 3));
  let authority = address.slice(0, authorityEnd(address, 0));
  authority = authority.slice(authority.lastIndexOf('@') + 1);
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    return normalizeHost(close < 0 ? authority.slice(1) : authority.slice(1, close));
  }
  const colon = authority.indexOf(':');
  if (colon >= 0 && authority.indexOf(':', colon + 1) >= 0) return normalizeHost(authority);
  return normalizeHost(colon < 0 ? authority : authority.slice(0, colon));
}

/** Local path of a `file://` URL, or undefined for other schemes. */
export function fileUrlPath(url: string): string | undefined {
  if (!/^file:\/\//i.test(url)) return undefined;
  const rest = url.slice(7);
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : rest.slice(slash);
}

/** `user@host:path` or `scheme://host/…` operand of scp, rsync, sftp or git; a local path otherwise. */
export function isRemoteOperand(arg: string): boolean {
  if (arg.includes('://')) return true;
  const colon = arg.indexOf(':');
  if (colon <= 0) return false;
  const before = arg.slice(0, colon);
  return !before.includes('/') && (before.length > 1 || before.includes('@'));
}
