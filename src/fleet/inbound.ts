// Signed registrations and heartbeats from devices (spec document 2, "Events" 2 and 4). A message is accepted
// only when it verifies under the device's current key, its sequence is above the last accepted one and its
// timestamp is within five minutes; anything else is dropped and counted. An accepted message updates the
// device, counts a canary rollback once per flag transition, replays the emergency frames the device has not
// applied (32 per pass, in order) and republishes the latest policy when the device reports an older one.
// Enrollment requests of keyless devices go to auto-register.ts when that is switched on.
import type { FastifyBaseLogger } from 'fastify';
import type { AutoRegistration } from './auto-register.js';
import { CANARY_ROLLBACK, decodeMessage } from './device-messages.js';
import { formatCompositeId } from './ids.js';
import type { KeyVault } from './key-vault.js';
import type { FleetMetrics } from './metrics.js';
import { parseInboundTopic, topics, type FleetMqtt } from './mqtt.js';
import type { FleetStore } from './store/types.js';
import { FLEET_LIMITS } from './limits.js';

const MAX_CLOCK_SKEW_MS = FLEET_LIMITS.maxClockSkewMs;

export class FleetInbound {
  /** Devices handled one message at a time each, so two heartbeats cannot race on the sequence check. */
  private readonly busy = new Map<string, Promise<void>>();

  constructor(
    private readonly store: FleetStore,
    private readonly vault: KeyVault,
    private readonly mqtt: FleetMqtt,
    private readonly metrics: FleetMetrics,
    private readonly logger: FastifyBaseLogger,
    /** Present only with fleet.mqtt.auto_register (local development). */
    private readonly autoRegistration: AutoRegistration | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Entry point for every inbound MQTT message; never throws. */
  handle(topic: string, payload: Buffer): Promise<void> {
    const address = parseInboundTopic(topic);
    if (!address) return Promise.resolve();
    const id = formatCompositeId(address);
    const previous = this.busy.get(id) ?? Promise.resolve();
    const next = previous.then(() => this.process(address, payload)).catch((err: Error) => {
      this.logger.warn({ device: id, err: err.message }, 'fleet inbound message failed');
    });
    this.busy.set(id, next);
    void next.finally(() => {
      if (this.busy.get(id) === next) this.busy.delete(id);
    });
    return next;
  }

  private reject(reason: string, id: string): void {
    this.metrics.rejected.inc({ reason });
    this.logger.warn({ device: id, reason }, 'fleet inbound message dropped');
  }

  private async process(address: { tenant_id: number; fleet_id: number; device_id: number; kind: string }, payload: Buffer): Promise<void> {
    const id = formatCompositeId(address);
    if (address.kind === 'enroll') return this.enroll(address, payload, id);
    const device = await this.store.getDevice(address);
    if (!device || device.decommissioned) return this.reject('unknown_device', id);
    const message = decodeMessage(this.vault.open(device.sealed_key, id), payload);
    if (!message || message.kind !== address.kind) return this.reject('bad_signature', id);
    if (message.sequence <= device.last_message_seq) return this.reject('replayed', id);
    if (Math.abs(this.now() - message.timestamp) > MAX_CLOCK_SKEW_MS) return this.reject('stale', id);

    const rollbackNow = (message.flags & CANARY_ROLLBACK) !== 0;
    const rollbackBefore = (device.flags & CANARY_ROLLBACK) !== 0;
    await this.store.recordHeartbeat(address, {
      status: message.status, flags: message.flags, message_seq: message.sequence, policy_version: message.policy_version,
      emergency_applied: message.emergency_applied, allowed_total: message.allowed_total, denied_total: message.denied_total,
      flash_writes: message.flash_writes, at: new Date(this.now()).toISOString(),
    });
    if (message.kind === 'heartbeat') this.metrics.heartbeats.inc();
    this.metrics.allows.inc(Math.max(0, message.allowed_total - device.allowed_total));
    this.metrics.blocks.inc(Math.max(0, message.denied_total - device.denied_total));
    if (rollbackNow && !rollbackBefore) {
      this.metrics.policyRollbacks.inc();
      this.metrics.otaRollbacks.inc();
    }

    // Missed emergency commands first (they may lock the device down), in order, one page per message.
    const missed = await this.store.emergencyAfter(address.tenant_id, address.fleet_id, message.emergency_applied);
    if (missed.length > 0 && missed[0]!.sequence !== message.emergency_applied + 1) {
      // A hole in the stored history: replaying around it would teach the device to skip a command.
      return this.reject('emergency_history_gap', id);
    }
    for (const entry of missed) await this.mqtt.publish(topics.deviceEmergency(address.tenant_id, address.fleet_id, address.device_id), entry.frame);

    const latest = await this.store.latestPolicy(address.tenant_id, address.fleet_id);
    if (latest?.policy_bin && latest.signature && latest.version > message.policy_version) {
      await this.mqtt.publish(topics.devicePolicy(address.tenant_id, address.fleet_id, address.device_id), Buffer.concat([latest.policy_bin, latest.signature]));
    }
  }

  private async enroll(address: { tenant_id: number; fleet_id: number; device_id: number }, nonce: Buffer, id: string): Promise<void> {
    if (!this.autoRegistration) return this.reject('auto_register_off', id);
    const { tenant_id, fleet_id, device_id } = address;
    const outcome = await this.autoRegistration.enroll({ tenant_id, fleet_id, device_id }, nonce);
    if (outcome !== 'enrolled') return this.reject(outcome, id);
    this.logger.info({ device: id }, 'fleet device auto-registered over MQTT');
  }
}
