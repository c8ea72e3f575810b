// Virtual devices for testing the fleet from the device side: each connects to the broker, sends signed
// heartbeats, and verifies every policy (HMAC, layout, anti-rollback) and every emergency frame (signature
// and chain) before it applies it, the way firmware must. Used by `warden fleet simulate`, tests and
// bench/fleet.
import { createHmac, timingSafeEqual } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { encodeMessage, type DeviceMessage } from './device-messages.js';
import { decodeFrame, type EmergencyCommand } from './emergency.js';
import type { DeviceAddress } from './ids.js';
import { POLICY_MAGIC } from './device-policy/compile.js';

export interface SimulatorKeys {
  device: Buffer;
  ota: Buffer;
  emergency: Buffer;
}

export interface DeviceStats {
  policyVersion: number;
  /** When each policy version was verified and applied (performance.now()). */
  appliedAt: Map<number, number>;
  emergencySequence: number;
  emergencyApplied: EmergencyCommand[];
  /** Messages that failed verification or broke the chain. */
  rejected: number;
  lockdown: boolean;
}

export class SimulatedDevice {
  readonly stats: DeviceStats = { policyVersion: 0, appliedAt: new Map(), emergencySequence: 0, emergencyApplied: [], rejected: 0, lockdown: false };
  private lastEmergencySignature: Buffer = Buffer.alloc(32);
  private sequence = 0;
  private client: MqttClient | undefined;

  constructor(readonly address: DeviceAddress, private readonly keys: SimulatorKeys) {}

  private get base(): string {
    return `warden/fleet/${this.address.tenant_id}/${this.address.fleet_id}`;
  }

  async connect(brokerUrl: string): Promise<void> {
    this.client = await mqtt.connectAsync(brokerUrl, { clientId: `warden-sim-${this.address.tenant_id}-${this.address.fleet_id}-${this.address.device_id}`, reconnectPeriod: 0 });
    this.client.on('message', (topic, payload) => {
      if (topic.endsWith('/policy')) this.onPolicy(payload);
      else if (topic.endsWith('/emergency')) this.onEmergency(payload);
    });
    const device = `${this.base}/device/${this.address.device_id}`;
    await this.client.subscribeAsync([`${this.base}/policy`, `${this.base}/emergency`, `${device}/policy`, `${device}/emergency`], { qos: 1 });
  }

  /** Sends a signed heartbeat reporting what the device has applied. */
  async heartbeat(fields: Partial<DeviceMessage> = {}): Promise<void> {
    const message = encodeMessage(this.keys.device, {
      kind: 'heartbeat', status: this.stats.lockdown ? 'lockdown' : 'online', flags: 0, sequence: ++this.sequence, timestamp: Date.now(),
      policy_version: this.stats.policyVersion, emergency_applied: this.stats.emergencySequence,
      allowed_total: 0, denied_total: 0, alerts_total: 0, flash_writes: this.stats.appliedAt.size, ...fields,
    });
    await this.client!.publishAsync(`${this.base}/device/${this.address.device_id}/heartbeat`, message, { qos: 1 });
  }

  private onPolicy(payload: Buffer): void {
    // The smallest policy is a 20-byte header with an empty payload, followed by the 32-byte signature.
    if (payload.length < 52) {
      this.stats.rejected++;
      return;
    }
    const blob = payload.subarray(0, payload.length - 32);
    const signature = payload.subarray(payload.length - 32);
    const expected = createHmac('sha256', this.keys.ota).update(blob).digest();
    const valid = timingSafeEqual(expected, signature) && blob.subarray(0, 4).equals(POLICY_MAGIC) && blob.readUInt16LE(18) === blob.length - 20;
    if (!valid) {
      this.stats.rejected++;
      return;
    }
    const version = blob.readUInt16LE(8);
    if (version <= this.stats.policyVersion) return; // anti-rollback: never go back to an older policy
    this.stats.policyVersion = version;
    this.stats.appliedAt.set(version, performance.now());
  }

  private onEmergency(frame: Buffer): void {
    const decoded = decodeFrame(this.keys.emergency, frame);
    if (!decoded || decoded.tenant_id !== this.address.tenant_id || decoded.fleet_id !== this.address.fleet_id) {
      this.stats.rejected++;
      return;
    }
    if (decoded.sequence <= this.stats.emergencySequence) return; // already applied (a replay overlap)
    if (decoded.sequence !== this.stats.emergencySequence + 1 || !decoded.predecessor_signature.equals(this.lastEmergencySignature)) {
      // A missed frame: refuse this one and ask for the history with the next heartbeat.
      this.stats.rejected++;
      void this.heartbeat();
      return;
    }
    this.stats.emergencySequence = decoded.sequence;
    this.lastEmergencySignature = decoded.signature;
    this.stats.emergencyApplied.push(decoded.command);
    if (decoded.command === 'ENTER_LOCKDOWN' || decoded.command === 'BLOCK_ALL') this.stats.lockdown = true;
    if (decoded.command === 'RELEASE_LOCKDOWN') this.stats.lockdown = false;
  }

  async disconnect(): Promise<void> {
    await this.client?.endAsync(true);
  }
}
