// Who may call the fleet API (spec document 2, "Authentication"): the admin token from WARDEN_FLEET_API_TOKEN
// (unset: every request is refused), or a tenant token from fleet.tenant_tokens / WARDEN_FLEET_TENANT_TOKENS
// (the environment wins per tenant) that reaches only its tenant. POST /token/rotate replaces the admin token
// in memory, at most once a minute.
import { randomBytes } from 'node:crypto';
import { envInvalid } from '../config/env.js';
import { TokenMatcher } from '../util/token-matcher.js';

export type FleetCaller = { role: 'admin' } | { role: 'tenant'; tenant_id: number };

const ROTATE_INTERVAL_MS = 60_000;

/** `<tenant>:<token>,<tenant>:<token>`; malformed entries are reported, not skipped silently. */
export function parseTenantTokens(text: string | undefined): Map<number, string> {
  const tokens = new Map<number, string>();
  for (const entry of (text ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const colon = entry.indexOf(':');
    const tenant = Number(entry.slice(0, colon));
    const token = entry.slice(colon + 1);
    if (colon < 1 || !Number.isInteger(tenant) || tenant < 0 || tenant > 0xffff || token.length < 16) {
      throw envInvalid('WARDEN_FLEET_TENANT_TOKENS');
    }
    tokens.set(tenant, token);
  }
  return tokens;
}

export class FleetAuth {
  private admin: TokenMatcher | undefined;
  private readonly tenants: { tenant_id: number; matcher: TokenMatcher }[];
  private lastRotation = 0;

  constructor(adminToken: string | undefined, tenantTokens: Map<number, string>, private readonly now: () => number = Date.now) {
    this.admin = adminToken ? new TokenMatcher(adminToken) : undefined;
    this.tenants = [...tenantTokens].map(([tenant_id, token]) => ({ tenant_id, matcher: new TokenMatcher(token) }));
  }

  /** The caller a bearer token stands for. Every candidate is compared, so timing does not tell which. */
  identify(token: string | undefined): FleetCaller | undefined {
    if (!this.admin || token === undefined) return undefined;
    const isAdmin = this.admin.matches(token);
    let tenant: number | undefined;
    for (const t of this.tenants) if (t.matcher.matches(token)) tenant = t.tenant_id;
    if (isAdmin) return { role: 'admin' };
    return tenant === undefined ? undefined : { role: 'tenant', tenant_id: tenant };
  }

  /** A new admin token (hex of 32 random bytes), or undefined when the last rotation was under a minute ago. */
  rotate(): string | undefined {
    if (this.now() - this.lastRotation < ROTATE_INTERVAL_MS) return undefined;
    this.lastRotation = this.now();
    const token = randomBytes(32).toString('hex');
    this.admin = new TokenMatcher(token);
    return token;
  }
}
