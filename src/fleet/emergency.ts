// Emergency commands as signed 112-byte frames (layout in docs/fleet-wire.md). Each frame carries its
// sequence and the signature of its predecessor, so a device that missed a frame (a lockdown, say) sees the
// chain break and cannot accept what follows until the missed frames are replayed to it in order.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const EMERGENCY_COMMANDS = ['BLOCK_ALL', 'ENTER_LOCKDOWN', 'RELEASE_LOCKDOWN', 'REVOKE_SESSIONS', 'FORCE_SYNC'] as const;
export type EmergencyCommand = (typeof EMERGENCY_COMMANDS)[number];

export const FRAME_BYTES = 112;
const SIGNED_BYTES = 80;
const MAGIC = Buffer.from('WEMG');
const FORMAT = 1;

export interface EmergencyFrame {
  command: EmergencyCommand;
  tenant_id: number;
  fleet_id: number;
  sequence: number;
  /** Unix milliseconds. */
  issued_at: number;
  /** The predecessor's signature (zeros for sequence 1). */
  predecessor_signature: Buffer;
  signature: Buffer;
}

const sign = (key: Buffer, body: Buffer) => createHmac('sha256', key).update(body).digest();

export function encodeFrame(key: Buffer, f: { command: EmergencyCommand; tenant_id: number; fleet_id: number; sequence: number; predecessor: Buffer | undefined; issued_at?: number }): Buffer {
  const frame = Buffer.alloc(FRAME_BYTES);
  MAGIC.copy(frame, 0);
  frame.writeUInt8(FORMAT, 4);
  frame.writeUInt8(EMERGENCY_COMMANDS.indexOf(f.command) + 1, 5);
  frame.writeUInt16LE(f.tenant_id, 6);
  frame.writeUInt16LE(f.fleet_id, 8);
  frame.writeUInt32LE(f.sequence, 12);
  frame.writeUInt32LE(f.sequence - 1, 16);
  frame.writeBigUInt64LE(BigInt(f.issued_at ?? Date.now()), 20);
  if (f.predecessor) f.predecessor.copy(frame, 28, 80, 112);
  randomBytes(20).copy(frame, 60); // nonce: two frames never sign the same bytes
  sign(key, frame.subarray(0, SIGNED_BYTES)).copy(frame, SIGNED_BYTES);
  return frame;
}

/** The frame's fields when its signature is valid under `key`; undefined otherwise. */
export function decodeFrame(key: Buffer, frame: Buffer): EmergencyFrame | undefined {
  if (frame.length !== FRAME_BYTES || !frame.subarray(0, 4).equals(MAGIC) || frame[4] !== FORMAT) return undefined;
  const expected = sign(key, frame.subarray(0, SIGNED_BYTES));
  if (!timingSafeEqual(expected, frame.subarray(SIGNED_BYTES))) return undefined;
  const command = EMERGENCY_COMMANDS[frame[5]! - 1];
  if (!command) return undefined;
  return {
    command,
    tenant_id: frame.readUInt16LE(6),
    fleet_id: frame.readUInt16LE(8),
    sequence: frame.readUInt32LE(12),
    issued_at: Number(frame.readBigUInt64LE(20)),
    predecessor_signature: Buffer.from(frame.subarray(28, 60)),
    signature: Buffer.from(frame.subarray(SIGNED_BYTES)),
  };
}
