// POST /policy/emergency as a use case: the next frame of the fleet's emergency chain, stored before it is
// published (so it can be replayed to devices that were offline), then published with QoS 1.
import type { FleetContext } from './context.js';
import { encodeFrame, type EmergencyCommand } from './emergency.js';
import { publicationFailure, topics } from './mqtt.js';

export type EmergencyResult =
  | { status: 200; body: { tenant_id: number; fleet_id: number; command: EmergencyCommand; sequence: number; status: 'distributed' } }
  | { status: 500 | 501 | 503; body: { error: string; detail?: string } };

export async function publishEmergency(fleet: FleetContext, tenantId: number, fleetId: number, command: EmergencyCommand): Promise<EmergencyResult> {
  const { emergencyKey, mqtt } = fleet;
  if (!emergencyKey) return { status: 501, body: { error: 'emergency signing not configured', detail: 'set WARDEN_EMERGENCY_KEY (64 hex digits)' } };
  if (!mqtt) return { status: 503, body: { error: 'MQTT not configured', detail: 'set fleet.mqtt.url or enable the embedded broker' } };
  const entry = await fleet.store.appendEmergency(tenantId, fleetId, command, (sequence, predecessor) =>
    encodeFrame(emergencyKey, { command, tenant_id: tenantId, fleet_id: fleetId, sequence, predecessor }),
  );
  try {
    await mqtt.publish(topics.emergency(tenantId, fleetId), entry.frame);
  } catch (err) {
    // The frame stays in the history: devices get it on replay even though this publication failed.
    return publicationFailure(err);
  }
  return { status: 200, body: { tenant_id: tenantId, fleet_id: fleetId, command, sequence: entry.sequence, status: 'distributed' } };
}
