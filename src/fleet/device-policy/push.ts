// POST /policy/push as a use case: compile, take the fleet's next wire version, sign the blob that carries it,
// store, publish. The published message is the blob followed by its 32-byte HMAC (docs/fleet-wire.md).
import type { FleetContext } from '../context.js';
import { publicationFailure, topics } from '../mqtt.js';
import { compilePolicy, finalizeBlob, PolicyCompileError, PolicyTooLarge, signPolicy } from './compile.js';
import { isProfile, PROFILE_LIMITS } from './schema.js';

export interface PushRequest {
  tenant_id: number;
  fleet_id: number;
  policy_yaml: string;
  profile?: string;
}

export type PushResult =
  | { status: 200; body: { version: number; blob_size: number; tenant_id: number; fleet_id: number; profile: string; status: 'distributed' } }
  | { status: 400 | 409 | 413 | 422 | 500 | 501 | 503; body: { error: string; detail?: string } };

export async function pushPolicy(fleet: FleetContext, request: PushRequest): Promise<PushResult> {
  const profile = request.profile ?? 'standard';
  if (!isProfile(profile)) return { status: 400, body: { error: `unsupported profile "${profile}"`, detail: `use one of ${Object.keys(PROFILE_LIMITS).join(', ')}` } };
  const { otaKey, mqtt } = fleet;
  if (!otaKey) return { status: 501, body: { error: 'policy service not configured', detail: 'set WARDEN_OTA_HMAC_KEY (64 hex digits)' } };
  if (!mqtt) return { status: 503, body: { error: 'MQTT not configured', detail: 'set fleet.mqtt.url or enable the embedded broker' } };
  let compiled;
  try {
    compiled = compilePolicy(request.policy_yaml);
    finalizeBlob(compiled, profile, 1); // the size check, before a version is spent
  } catch (err) {
    if (err instanceof PolicyCompileError) return { status: 422, body: { error: 'policy cannot be compiled', detail: err.message } };
    if (err instanceof PolicyTooLarge) return { status: 413, body: { error: 'compiled policy too large for its profile', detail: err.message } };
    throw err;
  }
  let message = Buffer.alloc(0);
  const version = await fleet.store.addPolicyVersion({ tenant_id: request.tenant_id, fleet_id: request.fleet_id, profile }, (next) => {
    const blob = finalizeBlob(compiled, profile, next);
    const signature = signPolicy(blob, otaKey);
    message = Buffer.concat([blob, signature]);
    return { policy_bin: blob, signature };
  });
  if (version === undefined) return { status: 409, body: { error: 'fleet policy version reached 65534', detail: 'start a new device policy lineage' } };
  try {
    await mqtt.publish(topics.policy(request.tenant_id, request.fleet_id), message);
  } catch (err) {
    return publicationFailure(err);
  }
  await fleet.store.markDistributed(request.tenant_id, request.fleet_id, version);
  return { status: 200, body: { version, blob_size: message.length - 32, tenant_id: request.tenant_id, fleet_id: request.fleet_id, profile, status: 'distributed' } };
}
