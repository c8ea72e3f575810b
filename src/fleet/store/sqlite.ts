// The SQLite fleet store ($WARDEN_HOME/fleet.db, WAL). Version and sequence assignment happen inside
// immediate transactions, so two pushes to one fleet can never take the same wire version or sequence.
import type Database from 'better-sqlite3';
import { openDatabase } from '../../db/open.js';
import { formatCompositeId, type DeviceAddress } from '../ids.js';
import { FLEET_SCHEMA } from './migrations.js';
import { publicDevice } from './public.js';
import {
  EMERGENCY_PAGE, MAX_POLICY_VERSION, type DeviceRecord, type EmergencyEntry, type FleetStore, type PolicyVersion,
  type DeviceStatus, type HeartbeatUpdate, type Registration, type RegisterOutcome, type StoredDevice,
} from './types.js';

interface DeviceRow extends Omit<DeviceRecord, 'device_id'> {
  composite_id: string;
  last_message_seq: number;
  emergency_applied: number;
  sealed_key: Buffer | null;
  decommissioned_at: string | null;
}

const toStored = (row: DeviceRow): StoredDevice => {
  const { composite_id, sealed_key, decommissioned_at, ...rest } = row;
  return { device_id: composite_id, ...rest, sealed_key: sealed_key ?? Buffer.alloc(0), decommissioned: decommissioned_at !== null };
};
const toRecord = (row: DeviceRow): DeviceRecord => publicDevice(toStored(row));

interface PolicyRow extends Omit<PolicyVersion, 'distributed'> {
  distributed: number;
}
const toPolicy = (row: PolicyRow): PolicyVersion => ({ ...row, distributed: row.distributed === 1 });

export class SqliteFleetStore implements FleetStore {
  private readonly db: Database.Database;
  /** Prepared once: compiling a statement costs more than running it (heartbeats run several per message). */
  private readonly statements = new Map<string, Database.Statement>();

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  constructor(path: string) {
    this.db = openDatabase(path, { schema: FLEET_SCHEMA });
  }

  private row(address: DeviceAddress): DeviceRow | undefined {
    return this.sql('SELECT * FROM devices WHERE composite_id = ?').get(formatCompositeId(address)) as DeviceRow | undefined;
  }

  async getDevice(address: DeviceAddress): Promise<StoredDevice | undefined> {
    const row = this.row(address);
    return row ? toStored(row) : undefined;
  }

  async listDevices(tenantId?: number): Promise<DeviceRecord[]> {
    const sql = `SELECT * FROM devices WHERE decommissioned_at IS NULL${tenantId === undefined ? '' : ' AND tenant_id = ?'} ORDER BY tenant_id, fleet_id, composite_id`;
    const rows = (tenantId === undefined ? this.sql(sql).all() : this.sql(sql).all(tenantId)) as DeviceRow[];
    return rows.map(toRecord);
  }

  async statusCounts(): Promise<Record<DeviceStatus, number>> {
    const counts: Record<DeviceStatus, number> = { online: 0, offline: 0, degraded: 0, lockdown: 0 };
    const rows = this.sql('SELECT status, COUNT(*) AS n FROM devices WHERE decommissioned_at IS NULL GROUP BY status').all() as { status: DeviceStatus; n: number }[];
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  async register(device: Registration, sealedKey: Buffer, forceReregister: boolean): Promise<{ outcome: RegisterOutcome; device?: StoredDevice }> {
    const id = formatCompositeId(device);
    const now = new Date().toISOString();
    const outcome = this.db.transaction((): RegisterOutcome => {
      const existing = this.row(device);
      if (existing?.decommissioned_at && !forceReregister) return 'decommissioned';
      if (!existing) {
        this.sql(`INSERT INTO devices (composite_id, tenant_id, fleet_id, hw_profile, fw_version, policy_version, capabilities, registered_at, sealed_key)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(id, device.tenant_id, device.fleet_id, device.hw_profile ?? '', device.fw_version ?? '', device.policy_version ?? 0, device.capabilities ?? 0, now, sealedKey);
        return 'created';
      }
      // Re-registration: a new key replaces the old one; supplied fields update the record.
      this.sql(`UPDATE devices SET sealed_key = ?, decommissioned_at = NULL,
          hw_profile = COALESCE(?, hw_profile), fw_version = COALESCE(?, fw_version),
          policy_version = COALESCE(?, policy_version), capabilities = COALESCE(?, capabilities)
        WHERE composite_id = ?`).run(sealedKey, device.hw_profile ?? null, device.fw_version ?? null, device.policy_version ?? null, device.capabilities ?? null, id);
      return existing.decommissioned_at ? 'reenabled' : 'replaced';
    }).immediate();
    return { outcome, device: outcome === 'decommissioned' ? undefined : await this.getDevice(device) };
  }

  async replaceKey(address: DeviceAddress, sealedKey: Buffer): Promise<boolean> {
    const result = this.sql('UPDATE devices SET sealed_key = ? WHERE composite_id = ? AND decommissioned_at IS NULL').run(sealedKey, formatCompositeId(address));
    return result.changes === 1;
  }

  async decommission(address: DeviceAddress): Promise<boolean> {
    const result = this.sql('UPDATE devices SET sealed_key = NULL, decommissioned_at = ? WHERE composite_id = ? AND decommissioned_at IS NULL')
      .run(new Date().toISOString(), formatCompositeId(address));
    return result.changes === 1;
  }

  async addPolicyVersion(
    entry: { tenant_id: number; fleet_id: number; profile: string },
    build: (version: number) => { policy_bin: Buffer; signature: Buffer },
  ): Promise<number | undefined> {
    return this.db.transaction((): number | undefined => {
      const { latest } = this.sql('SELECT MAX(version) AS latest FROM policy_versions WHERE tenant_id = ? AND fleet_id = ?')
        .get(entry.tenant_id, entry.fleet_id) as { latest: number | null };
      const version = (latest ?? 0) + 1;
      if (version > MAX_POLICY_VERSION) return undefined;
      const { policy_bin, signature } = build(version);
      this.sql('INSERT INTO policy_versions (tenant_id, fleet_id, version, profile, policy_bin, signature, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(entry.tenant_id, entry.fleet_id, version, entry.profile, policy_bin, signature, new Date().toISOString());
      return version;
    }).immediate();
  }

  async markDistributed(tenantId: number, fleetId: number, version: number): Promise<void> {
    this.sql('UPDATE policy_versions SET distributed = 1 WHERE tenant_id = ? AND fleet_id = ? AND version = ?').run(tenantId, fleetId, version);
  }

  async listPolicyVersions(tenantId: number, fleetId: number): Promise<PolicyVersion[]> {
    const rows = this.sql(`SELECT tenant_id, fleet_id, version, profile, NULL AS policy_bin, NULL AS signature, created_at, distributed
      FROM policy_versions WHERE tenant_id = ? AND fleet_id = ? ORDER BY version DESC`).all(tenantId, fleetId) as PolicyRow[];
    return rows.map(toPolicy);
  }

  async latestPolicy(tenantId: number, fleetId: number): Promise<PolicyVersion | undefined> {
    const row = this.sql('SELECT * FROM policy_versions WHERE tenant_id = ? AND fleet_id = ? ORDER BY version DESC LIMIT 1').get(tenantId, fleetId) as PolicyRow | undefined;
    return row ? toPolicy(row) : undefined;
  }

  async appendEmergency(tenantId: number, fleetId: number, command: string, frameFor: (sequence: number, predecessor: Buffer | undefined) => Buffer): Promise<EmergencyEntry> {
    return this.db.transaction((): EmergencyEntry => {
      const previous = this.sql('SELECT sequence, frame FROM emergency_history WHERE tenant_id = ? AND fleet_id = ? ORDER BY sequence DESC LIMIT 1')
        .get(tenantId, fleetId) as { sequence: number; frame: Buffer } | undefined;
      const entry: EmergencyEntry = { tenant_id: tenantId, fleet_id: fleetId, sequence: (previous?.sequence ?? 0) + 1, command, frame: Buffer.alloc(0), created_at: new Date().toISOString() };
      entry.frame = frameFor(entry.sequence, previous?.frame);
      this.sql('INSERT INTO emergency_history (tenant_id, fleet_id, sequence, command, frame, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(tenantId, fleetId, entry.sequence, command, entry.frame, entry.created_at);
      return entry;
    }).immediate();
  }

  async emergencyAfter(tenantId: number, fleetId: number, sequence: number): Promise<EmergencyEntry[]> {
    return this.sql('SELECT * FROM emergency_history WHERE tenant_id = ? AND fleet_id = ? AND sequence > ? ORDER BY sequence LIMIT ?')
      .all(tenantId, fleetId, sequence, EMERGENCY_PAGE) as EmergencyEntry[];
  }

  async recordHeartbeat(address: DeviceAddress, u: HeartbeatUpdate): Promise<void> {
    this.sql(`UPDATE devices SET status = ?, flags = ?, last_message_seq = ?, policy_version = MAX(policy_version, ?),
        emergency_applied = ?, allowed_total = ?, denied_total = ?, flash_writes = ?, last_heartbeat = ?
      WHERE composite_id = ? AND decommissioned_at IS NULL`)
      .run(u.status, u.flags, u.message_seq, u.policy_version, u.emergency_applied, u.allowed_total, u.denied_total, u.flash_writes, u.at, formatCompositeId(address));
  }

  async fleets(): Promise<{ tenant_id: number; fleet_id: number }[]> {
    return this.sql('SELECT DISTINCT tenant_id, fleet_id FROM devices WHERE decommissioned_at IS NULL ORDER BY tenant_id, fleet_id').all() as { tenant_id: number; fleet_id: number }[];
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
