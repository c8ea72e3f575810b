// Forward-only schema migrations for audit.db, run by src/db/migrate.ts. Each entry moves the schema one
// version up; the version is kept in SQLite's user_version. Never edit a shipped entry: add a new one.
import type { Schema } from '../db/migrate.js';

export const AUDIT_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE audit_events (
    id            TEXT PRIMARY KEY,
    timestamp     TEXT NOT NULL,
    action        TEXT NOT NULL,
    target        TEXT,
    actor         TEXT,
    severity      TEXT NOT NULL DEFAULT 'INFO',
    details       TEXT,
    structured    TEXT,
    connector     TEXT,
    session_id    TEXT,
    trace_id      TEXT,
    evaluation_id TEXT,
    schema        TEXT
  );
  CREATE INDEX audit_events_alert_rows ON audit_events(severity) WHERE severity IN ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW');

  -- An alert is an audit event that carries a finding: any severity from LOW up.
  CREATE VIEW alerts AS
    SELECT rowid AS seq, * FROM audit_events WHERE severity IN ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW');

  -- Operator and scan-verdict allow/block decisions for skills, plugins, MCP servers and tools.
  CREATE TABLE actions (
    id          INTEGER PRIMARY KEY,
    target_type TEXT NOT NULL,
    target_name TEXT NOT NULL,
    connector   TEXT NOT NULL DEFAULT '',
    action      TEXT NOT NULL CHECK (action IN ('block', 'allow')),
    reason      TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT 'operator',
    created_at  TEXT NOT NULL,
    UNIQUE (target_type, target_name, connector, action)
  );

  CREATE TABLE network_egress (
    id             TEXT PRIMARY KEY,
    timestamp      TEXT NOT NULL,
    hostname       TEXT NOT NULL,
    path           TEXT,
    method         TEXT,
    session_id     TEXT,
    agent_id       TEXT,
    root_agent_id  TEXT,
    user_id        TEXT,
    blocked        INTEGER NOT NULL DEFAULT 0,
    decision       TEXT,
    branch         TEXT,
    reason         TEXT,
    body_shape     TEXT,
    looks_like_llm INTEGER,
    source         TEXT,
    details        TEXT
  );
  CREATE INDEX network_egress_hostname ON network_egress(hostname);
  `,
  // 2: audit_events keyed by an integer sequence instead of the text id. A TEXT PRIMARY KEY is a second
  // B-tree that every row is inserted into; nothing looks rows up by id (readers order by sequence), and
  // uuidv7 ids are unique without an index. Rows keep their order; the copy runs once, inside the migration's
  // transaction.
  `
  CREATE TABLE audit_events_v2 (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL,
    timestamp     TEXT NOT NULL,
    action        TEXT NOT NULL,
    target        TEXT,
    actor         TEXT,
    severity      TEXT NOT NULL DEFAULT 'INFO',
    details       TEXT,
    structured    TEXT,
    connector     TEXT,
    session_id    TEXT,
    trace_id      TEXT,
    evaluation_id TEXT,
    schema        TEXT
  );
  INSERT INTO audit_events_v2 (id, timestamp, action, target, actor, severity, details, structured, connector,
                               session_id, trace_id, evaluation_id, schema)
    SELECT id, timestamp, action, target, actor, severity, details, structured, connector,
           session_id, trace_id, evaluation_id, schema
    FROM audit_events ORDER BY rowid;
  DROP VIEW alerts;
  DROP TABLE audit_events;
  ALTER TABLE audit_events_v2 RENAME TO audit_events;
  CREATE INDEX audit_events_alert_rows ON audit_events(severity) WHERE severity IN ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW');
  CREATE VIEW alerts AS
    SELECT * FROM audit_events WHERE severity IN ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW');
  `,
  // 3: alert dispositions (POST /api/v1/alerts/disposition): the operator's current word on an alert, kept beside
  // the append-only trail (every change is also an audit row). Alerts are now looked up by id, so alert rows get
  // an index on it (partial: other rows do not pay for it).
  `
  CREATE TABLE alert_dispositions (
    alert_id    TEXT PRIMARY KEY,
    disposition TEXT NOT NULL CHECK (disposition IN ('acknowledged', 'false_positive', 'resolved')),
    note        TEXT NOT NULL DEFAULT '',
    actor       TEXT,
    updated_at  TEXT NOT NULL
  );
  CREATE INDEX audit_events_alert_ids ON audit_events(id) WHERE severity IN ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW');
  `,
];

export const AUDIT_SCHEMA: Schema = { name: 'audit database', migrations: AUDIT_MIGRATIONS };
