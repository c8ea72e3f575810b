// The fleet's persistent state behind one interface, so a PostgreSQL store can follow the SQLite one for
// multi-gateway fleets. Methods are async for that reason even where SQLite answers synchronously.
import type { DeviceAddress } from '../ids.js';

export type DeviceStatus = 'online' | 'offline' | 'degraded' | 'lockdown';

/** A device as the API shows it (spec document 2, "Device record"). */
export interface DeviceRecord {
  /** The composite id, decimal. */
  device_id: string;
  tenant_id: number;
  fleet_id: number;
  hw_profile: string;
  fw_version: string;
  policy_version: number;
  capabilities: number;
  status: DeviceStatus;
  last_heartbeat: string;
  last_audit_hmac: string | null;
  site_id: string;
  registered_at: string;
  flags: number;
  denied_total: number;
  allowed_total: number;
  flash_writes: number;
}

export interface StoredDevice extends DeviceRecord {
  /** Sequence of the last accepted signed message from the device. */
  last_message_seq: number;
  /** The last emergency sequence the device reported applied. */
  emergency_applied: number;
  /** The device key sealed by the KeyVault (bound to the composite id). */
  sealed_key: Buffer;
  decommissioned: boolean;
}

export interface Registration extends DeviceAddress {
  hw_profile?: string;
  fw_version?: string;
  policy_version?: number;
  capabilities?: number;
}

export type RegisterOutcome = 'created' | 'replaced' | 'reenabled' | 'decommissioned';

export interface HeartbeatUpdate {
  status: DeviceStatus;
  flags: number;
  message_seq: number;
  policy_version: number;
  emergency_applied: number;
  allowed_total: number;
  denied_total: number;
  flash_writes: number;
  at: string;
}

export interface PolicyVersion {
  tenant_id: number;
  fleet_id: number;
  version: number;
  profile: string;
  policy_bin: Buffer | null;
  signature: Buffer | null;
  created_at: string;
  distributed: boolean;
}

export interface EmergencyEntry {
  tenant_id: number;
  fleet_id: number;
  /** 1, 2, 3… per fleet, no gaps. */
  sequence: number;
  command: string;
  /** The signed wire frame as published. */
  frame: Buffer;
  created_at: string;
}

/** Highest wire version of a fleet's policy (spec: 1 to 65534). */
export const MAX_POLICY_VERSION = 65534;
/** Emergency commands replayed per pass. */
export const EMERGENCY_PAGE = 32;

export interface FleetStore {
  getDevice(address: DeviceAddress): Promise<StoredDevice | undefined>;
  listDevices(tenantId?: number): Promise<DeviceRecord[]>;
  /** Live devices per status (what the metrics gauge needs, without listing every device). */
  statusCounts(): Promise<Record<DeviceStatus, number>>;
  /**
   * New device: created. Existing: key replaced (the old one stops working). Decommissioned: re-enabled with a
   * new key when `forceReregister`, otherwise left alone (`decommissioned`).
   */
  register(device: Registration, sealedKey: Buffer, forceReregister: boolean): Promise<{ outcome: RegisterOutcome; device?: StoredDevice }>;
  /** False when there is no such (live) device. */
  replaceKey(address: DeviceAddress, sealedKey: Buffer): Promise<boolean>;
  /** Tombstones the device and drops its key; false when there is no such live device. */
  decommission(address: DeviceAddress): Promise<boolean>;
  /**
   * Stores the fleet's next wire version, with the blob and signature `build` makes for that version (the blob
   * carries its version); `undefined` once 65534 is used.
   */
  addPolicyVersion(
    entry: { tenant_id: number; fleet_id: number; profile: string },
    build: (version: number) => { policy_bin: Buffer; signature: Buffer },
  ): Promise<number | undefined>;
  markDistributed(tenantId: number, fleetId: number, version: number): Promise<void>;
  /** Newest first, without blobs and signatures. */
  listPolicyVersions(tenantId: number, fleetId: number): Promise<PolicyVersion[]>;
  latestPolicy(tenantId: number, fleetId: number): Promise<PolicyVersion | undefined>;
  /**
   * Appends to the fleet's emergency history under the next sequence; `frameFor` builds the signed frame from
   * that sequence and the predecessor's frame (undefined for the first), inside the same transaction.
   */
  appendEmergency(tenantId: number, fleetId: number, command: string, frameFor: (sequence: number, predecessor: Buffer | undefined) => Buffer): Promise<EmergencyEntry>;
  /** Entries after `sequence`, oldest first, at most EMERGENCY_PAGE. */
  emergencyAfter(tenantId: number, fleetId: number, sequence: number): Promise<EmergencyEntry[]>;
  /** Records an accepted signed heartbeat or registration message (sequence checked by the caller). */
  recordHeartbeat(address: DeviceAddress, update: HeartbeatUpdate): Promise<void>;
  /** Every (tenant, fleet) with at least one live device. */
  fleets(): Promise<{ tenant_id: number; fleet_id: number }[]>;
  close(): Promise<void>;
}
