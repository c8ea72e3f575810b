// Who may use the guardrail proxy (spec "Authentication / Guardrail proxy" 1-3): the gateway token in
// X-Warden-Auth (required even from loopback once a token is configured), or the proxy master key as an
// OpenAI-style `Authorization: Bearer` key. With no gateway token configured, loopback callers are let in.
import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackAddress } from '../config/bind.js';
import { bearerToken } from '../util/bearer.js';
import { TokenMatcher, tokenDigest } from '../util/token-matcher.js';

export type ProxyAuthResult =
  | { ok: true; via: 'gateway-token' | 'master-key' | 'loopback' }
  | { ok: false; reason: string };

export class ProxyAuthenticator {
  private readonly gatewayToken: TokenMatcher | undefined;
  private readonly masterKey: TokenMatcher;

  constructor(gatewayToken: string | undefined, masterKey: string) {
    this.gatewayToken = gatewayToken ? new TokenMatcher(gatewayToken) : undefined;
    this.masterKey = new TokenMatcher(masterKey);
  }

  check(headers: IncomingHttpHeaders, ip: string): ProxyAuthResult {
    const presentedToken = bearerToken(headers['x-warden-auth']);
    const presentedKey = bearerToken(headers.authorization);
    // Both comparisons always run, so timing does not tell which header was wrong.
    const tokenOk = this.gatewayToken !== undefined && presentedToken !== undefined && this.gatewayToken.matches(presentedToken);
    const keyOk = presentedKey !== undefined && this.masterKey.matches(presentedKey);
    if (tokenOk) return { ok: true, via: 'gateway-token' };
    if (keyOk) return { ok: true, via: 'master-key' };
    if (!this.gatewayToken && isLoopbackAddress(ip)) return { ok: true, via: 'loopback' };
    if (presentedToken !== undefined) return { ok: false, reason: 'invalid gateway token in X-Warden-Auth' };
    return { ok: false, reason: 'missing proxy credentials: send X-Warden-Auth: Bearer <gateway token> or the proxy master key' };
  }

  /** Whether `value` is one of Warden's own secrets (never to be forwarded upstream). */
  isOwnSecret(value: string): boolean {
    const digest = tokenDigest(value); // once, for both comparisons (this runs on every proxied call)
    const token = this.gatewayToken?.matchesDigest(digest) ?? false;
    const key = this.masterKey.matchesDigest(digest);
    return token || key;
  }
}
