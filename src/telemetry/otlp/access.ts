// Who may send OTLP, decided from the request's facts alone (so it is testable with any remote address): spec
// "Authentication" 5 and 7. Header route (`/v1/{signal}`): a scoped token must come with X-Warden-Source naming
// its own source; the master token is refused for a source that has a scoped token, and accepted for geminicli's
// native source only over loopback. Path route (`/otlp/{source}/{token}/v1/{signal}`): loopback only, and only a
// scoped token of the source the path names. A sandbox-binding credential is refused first, on both.
import { WardenError } from '../../errors.js';
import { SANDBOX_CREDENTIAL_PREFIX } from '../../util/bearer.js';
import type { TokenMatcher } from '../../util/token-matcher.js';
import { OTLP_SOURCES } from './agents/index.js';
import type { ScopedCredentials } from './credentials.js';

/** The one connector whose native OTLP source authenticates with the master token, over loopback. */
export const MASTER_TOKEN_SOURCE = 'geminicli';

export interface OtlpAccessRequest {
  mode: 'otlp' | 'otlp-path';
  loopback: boolean;
  /** Credentials from Authorization, X-Warden-Token and X-Warden-Auth. */
  credentials: readonly string[];
  /** X-Warden-Source, when sent. */
  declaredSource?: string;
  /** Path route: its `{source}` and `{token}`. */
  pathSource?: string;
  pathToken?: string;
}

export interface OtlpAccessGrant {
  /** The source the records are filed under; undefined: detected per record. */
  source?: string;
  /** Sources this request may not carry records for (they have a scoped token it did not use). */
  refusedSources: ReadonlySet<string>;
}

const unauthorised = (code: string, message: string) => new WardenError(code, message, { statusCode: 401 });
const forbidden = (code: string, message: string) => new WardenError(code, message, { statusCode: 403 });

/** Returns the grant, or throws the WardenError the request is answered with. */
export function decideOtlpAccess(request: OtlpAccessRequest, master: TokenMatcher | undefined, scoped: ScopedCredentials): OtlpAccessGrant {
  const presented = request.mode === 'otlp-path' ? [...request.credentials, request.pathToken ?? ''] : request.credentials;
  if (presented.some((c) => c.startsWith(SANDBOX_CREDENTIAL_PREFIX))) {
    throw unauthorised('WARDEN_ERR_AUTH_SANDBOX_CREDENTIAL', 'sandbox binding credentials are not accepted on this API');
  }
  const declared = request.declaredSource;
  if (declared !== undefined && !OTLP_SOURCES.includes(declared)) {
    throw forbidden('WARDEN_ERR_AUTH_SOURCE_MISMATCH', `X-Warden-Source names no OTLP source (${OTLP_SOURCES.join(', ')})`);
  }
  if (request.mode === 'otlp-path') {
    if (!request.loopback) throw forbidden('WARDEN_ERR_AUTH_LOOPBACK_ONLY', 'the OTLP path-token route is accepted only over loopback');
    const source = request.pathSource ?? '';
    if (!scoped.matches(source, request.pathToken ?? '')) throw unauthorised('WARDEN_ERR_AUTH_TOKEN_INVALID', 'invalid scoped OTLP token');
    if (declared !== undefined && declared !== source) throw forbidden('WARDEN_ERR_AUTH_SOURCE_MISMATCH', 'X-Warden-Source does not name the source of the scoped token');
    return { source, refusedSources: new Set() };
  }
  const scopedSource = scoped.sourceOf(request.credentials);
  if (scopedSource !== undefined) {
    if (declared !== scopedSource) throw forbidden('WARDEN_ERR_AUTH_SOURCE_MISMATCH', 'a scoped OTLP token needs X-Warden-Source naming its own source');
    return { source: scopedSource, refusedSources: new Set() };
  }
  const masterOk = master === undefined || request.credentials.map((c) => master.matches(c)).includes(true);
  if (!masterOk) {
    throw request.credentials.length === 0
      ? unauthorised('WARDEN_ERR_AUTH_TOKEN_MISSING', 'missing gateway token')
      : unauthorised('WARDEN_ERR_AUTH_TOKEN_INVALID', 'invalid gateway token');
  }
  if (declared !== undefined && scoped.has(declared)) {
    throw unauthorised('WARDEN_ERR_AUTH_SCOPED_TOKEN_REQUIRED', `${declared} telemetry needs its scoped OTLP token (warden setup ${declared} --telemetry)`);
  }
  if (declared === MASTER_TOKEN_SOURCE && !request.loopback) {
    throw forbidden('WARDEN_ERR_AUTH_LOOPBACK_ONLY', `${MASTER_TOKEN_SOURCE} telemetry with the gateway token is accepted only over loopback`);
  }
  return { source: declared, refusedSources: scoped.sources() };
}
