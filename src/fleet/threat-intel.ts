// POST /threat-intel/push as a use case (spec document 2, behaviour 8): revoke hashes from the gateway's
// verdict cache (an emergency flushes it first), then tell every registered fleet to drop its own cache with
// a signed REVOKE_SESSIONS, sent through the fleet's emergency chain so devices verify and order it like any
// other command. A fleet whose publication fails is listed; the gateway-side revocation stands regardless.
import type { FleetContext } from './context.js';
import { publishEmergency } from './emergency-publish.js';

export const HASH = /^[0-9a-fA-F]{64}$/;

export interface ThreatIntelResult {
  status: 202 | 207;
  body: {
    revoked: number;
    device_cache_flush_published?: number;
    device_cache_flush_target_fleets?: number;
    device_cache_flushed?: false;
    device_cache_flush_failed?: string[];
    warning?: string;
  };
}

export async function pushThreatIntel(fleet: FleetContext, hashes: string[], emergency: boolean): Promise<ThreatIntelResult> {
  if (emergency) fleet.cache.flush();
  const revoked = fleet.cache.revoke(hashes);
  if (hashes.length === 0 && !emergency) return { status: 202, body: { revoked } };
  const targets = await fleet.store.fleets();
  const failed: string[] = [];
  let published = 0;
  for (const { tenant_id, fleet_id } of targets) {
    const result = await publishEmergency(fleet, tenant_id, fleet_id, 'REVOKE_SESSIONS');
    if (result.status === 200) published++;
    else failed.push(`${tenant_id}/${fleet_id}`);
  }
  const body: ThreatIntelResult['body'] = {
    revoked,
    device_cache_flush_published: published,
    device_cache_flush_target_fleets: targets.length,
    device_cache_flushed: false,
    warning: 'publication reached the broker; a device keeps a cached ALLOW until it receives the command or reconnects',
  };
  if (failed.length > 0) body.device_cache_flush_failed = failed;
  return { status: failed.length > 0 ? 207 : 202, body };
}
