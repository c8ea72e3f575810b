// The provider credential (spec "Guardrail proxy" 4): taken from X-AI-Auth, Authorization, x-api-key, api-key
// or x-goog-api-key, whichever the agent's SDK used, and sent upstream the way the provider expects: as the
// registry's auth_header says, or, for a custom provider without one, in the header the client used. Warden's
// own secrets (gateway token, master key) are never forwarded, and credentials never reach a log line.
import type { IncomingHttpHeaders } from 'node:http';
import { AS_SENT, type Provider } from './providers.js';

const CREDENTIAL_HEADERS = ['x-ai-auth', 'authorization', 'x-api-key', 'api-key', 'x-goog-api-key'] as const;

/** Request headers that are not forwarded upstream: hop-by-hop, Warden's own, credentials (re-added per
 *  provider), and content framing the proxy sets itself. */
const DROPPED = new Set<string>([
  'host', 'connection', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding',
  'upgrade', 'content-length', 'expect', 'cookie', 'accept-encoding', ...CREDENTIAL_HEADERS,
]);

const stripBearer = (value: string): string => value.replace(/^Bearer[ \t]+/i, '').trim();

export interface ClientCredential {
  /** The header it came in. */
  header: (typeof CREDENTIAL_HEADERS)[number];
  /** The header's value as sent (trimmed). */
  raw: string;
  /** The key itself (without a Bearer scheme). */
  value: string;
}

/** The provider key the client sent (the first credential header that is not one of Warden's own secrets). */
export function providerCredential(headers: IncomingHttpHeaders, isOwnSecret: (value: string) => boolean): ClientCredential | undefined {
  for (const header of CREDENTIAL_HEADERS) {
    const raw = headers[header];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const value = stripBearer(raw);
    if (value !== '' && !isOwnSecret(value)) return { header, raw: raw.trim(), value };
  }
  return undefined;
}

/** The credential in the client's own header form (AS_SENT providers). */
function asSent(credential: ClientCredential): [string, string] {
  // X-AI-Auth is Warden's carrier for the provider key, not a provider's header: it goes as OpenAI-style Bearer.
  return credential.header === 'x-ai-auth' ? ['authorization', `Bearer ${credential.value}`] : [credential.header, credential.raw];
}

/** Headers for the upstream request: the client's own (minus the dropped ones) plus the credential. */
export function upstreamHeaders(
  headers: IncomingHttpHeaders,
  provider: Pick<Provider, 'auth_header'>,
  credential: ClientCredential | undefined,
  isOwnSecret: (value: string) => boolean,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED.has(name) || name.startsWith('x-warden-')) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // Inspection reads the answer, so ask for it uncompressed.
  out['accept-encoding'] = 'identity';
  if (provider.auth_header === 'passthrough') {
    // Signed (SigV4) or keyless upstreams: the client's Authorization goes as it is, unless it is ours.
    const authorization = headers.authorization;
    if (typeof authorization === 'string' && !isOwnSecret(stripBearer(authorization))) out.authorization = authorization;
  } else if (credential !== undefined) {
    if (provider.auth_header === AS_SENT) {
      const [name, value] = asSent(credential);
      out[name] = value;
    } else if (provider.auth_header === 'authorization') out.authorization = `Bearer ${credential.value}`;
    else out[provider.auth_header] = credential.value;
  }
  return out;
}
