// Forward-only schema migrations of fleet.db, run by src/db/migrate.ts and versioned in SQLite's user_version.
// Never edit a shipped entry: add a new one.
import type { Schema } from '../../db/migrate.js';

const FLEET_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE devices (
    composite_id    TEXT PRIMARY KEY,           -- decimal uint64 (does not fit SQLite's signed INTEGER)
    tenant_id       INTEGER NOT NULL,
    fleet_id        INTEGER NOT NULL,
    hw_profile      TEXT NOT NULL DEFAULT '',
    fw_version      TEXT NOT NULL DEFAULT '',
    policy_version  INTEGER NOT NULL DEFAULT 0,
    capabilities    INTEGER NOT NULL DEFAULT 0,
    status          TEXT NOT NULL DEFAULT 'online',
    last_heartbeat  TEXT NOT NULL DEFAULT '0001-01-01T00:00:00Z',
    last_audit_hmac TEXT,
    site_id         TEXT NOT NULL DEFAULT '',
    registered_at   TEXT NOT NULL,
    flags           INTEGER NOT NULL DEFAULT 0,
    denied_total    INTEGER NOT NULL DEFAULT 0,
    allowed_total   INTEGER NOT NULL DEFAULT 0,
    flash_writes    INTEGER NOT NULL DEFAULT 0,
    sealed_key      BLOB,                        -- NULL once decommissioned
    decommissioned_at TEXT                       -- the tombstone
  );
  CREATE INDEX devices_by_fleet ON devices(tenant_id, fleet_id);

  CREATE TABLE policy_versions (
    tenant_id   INTEGER NOT NULL,
    fleet_id    INTEGER NOT NULL,
    version     INTEGER NOT NULL CHECK (version BETWEEN 1 AND 65534),
    profile     TEXT NOT NULL,
    policy_bin  BLOB NOT NULL,
    signature   BLOB NOT NULL,
    created_at  TEXT NOT NULL,
    distributed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, fleet_id, version)
  );

  CREATE TABLE emergency_history (
    tenant_id  INTEGER NOT NULL,
    fleet_id   INTEGER NOT NULL,
    sequence   INTEGER NOT NULL CHECK (sequence >= 1),
    command    TEXT NOT NULL,
    frame      BLOB NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tenant_id, fleet_id, sequence)
  );
  `,
  `
  -- Inbound messages: the last accepted message sequence per device (replay protection) and when a device
  -- first reported a canary rollback (counted once per transition).
  ALTER TABLE devices ADD COLUMN last_message_seq INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE devices ADD COLUMN emergency_applied INTEGER NOT NULL DEFAULT 0;
  `,
];

export const FLEET_SCHEMA: Schema = { name: 'fleet database', migrations: FLEET_MIGRATIONS };
