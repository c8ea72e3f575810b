// The fleet subsystem of one gateway run (present only when fleet.enabled).
import { FleetAuth, parseTenantTokens } from './auth.js';
import { FleetDevices, type DurableAudit } from './devices.js';
import { KeyVault } from './key-vault.js';
import { SqliteFleetStore } from './store/sqlite.js';
import type { FleetStore } from './store/types.js';

export interface FleetContext {
  auth: FleetAuth;
  devices: FleetDevices;
  store: FleetStore;
  /** Keys may be delivered over a non-loopback listener only behind a trusted TLS proxy. */
  trustedTlsProxy: boolean;
}

export function openFleet(
  options: { dbPath: string; vaultKeyPath: string; tenantTokens: Record<string, string>; trustedTlsProxy: boolean },
  env: Record<string, string | undefined>,
  audit: DurableAudit,
): FleetContext {
  const tenants = new Map<number, string>(Object.entries(options.tenantTokens).map(([tenant, token]) => [Number(tenant), token]));
  for (const [tenant, token] of parseTenantTokens(env.WARDEN_FLEET_TENANT_TOKENS)) tenants.set(tenant, token);
  const store = new SqliteFleetStore(options.dbPath);
  return {
    auth: new FleetAuth(env.WARDEN_FLEET_API_TOKEN || undefined, tenants),
    devices: new FleetDevices(store, KeyVault.open(options.vaultKeyPath, env), audit),
    store,
    trustedTlsProxy: options.trustedTlsProxy,
  };
}
