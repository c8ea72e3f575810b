// Signed messages devices send (layout in docs/fleet-wire.md): registration announcements and heartbeats,
// HMAC-SHA256 under the device's own key, with a strictly increasing sequence and a timestamp so a captured
// message cannot be replayed.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeviceStatus } from './store/types.js';

const MESSAGE_BYTES = 74;
const SIGNED_BYTES = 42;
const KINDS = { heartbeat: Buffer.from('WHBT'), register: Buffer.from('WREG') } as const;
export type MessageKind = keyof typeof KINDS;
const STATUSES: readonly DeviceStatus[] = ['online', 'offline', 'degraded', 'lockdown'];
/** flags bit 0: the device rolled back a canary policy and keeps reporting it. */
export const CANARY_ROLLBACK = 0x1;

export interface DeviceMessage {
  kind: MessageKind;
  status: DeviceStatus;
  flags: number;
  sequence: number;
  /** Unix milliseconds. */
  timestamp: number;
  policy_version: number;
  emergency_applied: number;
  allowed_total: number;
  denied_total: number;
  alerts_total: number;
  flash_writes: number;
}

export function encodeMessage(key: Buffer, m: DeviceMessage): Buffer {
  const out = Buffer.alloc(MESSAGE_BYTES);
  KINDS[m.kind].copy(out, 0);
  out.writeUInt8(1, 4);
  out.writeUInt8(STATUSES.indexOf(m.status), 5);
  out.writeUInt16LE(m.flags, 6);
  out.writeUInt32LE(m.sequence, 8);
  out.writeBigUInt64LE(BigInt(m.timestamp), 12);
  out.writeUInt16LE(m.policy_version, 20);
  out.writeUInt32LE(m.emergency_applied, 22);
  out.writeUInt32LE(m.allowed_total, 26);
  out.writeUInt32LE(m.denied_total, 30);
  out.writeUInt32LE(m.alerts_total, 34);
  out.writeUInt32LE(m.flash_writes, 38);
  createHmac('sha256', key).update(out.subarray(0, SIGNED_BYTES)).digest().copy(out, SIGNED_BYTES);
  return out;
}

/** The message when well-formed and signed with `key`; undefined for anything else. */
export function decodeMessage(key: Buffer, data: Buffer): DeviceMessage | undefined {
  if (data.length !== MESSAGE_BYTES || data[4] !== 1) return undefined;
  const kind = (Object.keys(KINDS) as MessageKind[]).find((k) => data.subarray(0, 4).equals(KINDS[k]));
  const status = STATUSES[data[5]!];
  if (!kind || !status) return undefined;
  const expected = createHmac('sha256', key).update(data.subarray(0, SIGNED_BYTES)).digest();
  if (!timingSafeEqual(expected, data.subarray(SIGNED_BYTES))) return undefined;
  return {
    kind, status,
    flags: data.readUInt16LE(6),
    sequence: data.readUInt32LE(8),
    timestamp: Number(data.readBigUInt64LE(12)),
    policy_version: data.readUInt16LE(20),
    emergency_applied: data.readUInt32LE(22),
    allowed_total: data.readUInt32LE(26),
    denied_total: data.readUInt32LE(30),
    alerts_total: data.readUInt32LE(34),
    flash_writes: data.readUInt32LE(38),
  };
}
