// Forward-only migrations of telemetry.db (the OTLP records), run by src/db/migrate.ts. Never edit a shipped
// entry: add a new one. Kept apart from audit.db: OTLP arrives in bulk (a thousand records a request) and must
// not queue behind, or in front of, the audit trail's verdict rows.
import type { Schema } from '../../db/migrate.js';

export const TELEMETRY_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE agent_events (
    seq                INTEGER PRIMARY KEY,
    id                 TEXT NOT NULL,
    source             TEXT NOT NULL,
    received_at        TEXT NOT NULL,
    timestamp          TEXT NOT NULL,
    event_name         TEXT NOT NULL,
    category           TEXT NOT NULL,
    session_id         TEXT,
    trace_id           TEXT,
    span_id            TEXT,
    tool_invocation_id TEXT,
    prompt_id          TEXT,
    tool_name          TEXT,
    decision           TEXT,
    success            INTEGER,
    model              TEXT,
    input_tokens       INTEGER,
    output_tokens      INTEGER,
    cost_usd           REAL,
    duration_ms        REAL,
    prompt_length      INTEGER,
    prompt_sha256      TEXT,
    prompt_text        TEXT,
    attributes         TEXT NOT NULL
  );
  CREATE UNIQUE INDEX agent_events_id ON agent_events(id);
  CREATE INDEX agent_events_session ON agent_events(session_id, timestamp) WHERE session_id IS NOT NULL;
  CREATE INDEX agent_events_trace ON agent_events(trace_id) WHERE trace_id IS NOT NULL;
  CREATE INDEX agent_events_tool ON agent_events(tool_invocation_id) WHERE tool_invocation_id IS NOT NULL;
  CREATE INDEX agent_events_received ON agent_events(received_at);

  CREATE TABLE spans (
    seq                INTEGER PRIMARY KEY,
    id                 TEXT NOT NULL,
    source             TEXT NOT NULL,
    received_at        TEXT NOT NULL,
    timestamp          TEXT NOT NULL,
    trace_id           TEXT NOT NULL,
    span_id            TEXT NOT NULL,
    parent_span_id     TEXT,
    name               TEXT NOT NULL,
    duration_ms        REAL,
    status_code        INTEGER,
    session_id         TEXT,
    tool_invocation_id TEXT
  );
  CREATE UNIQUE INDEX spans_id ON spans(id);
  CREATE INDEX spans_trace ON spans(trace_id);
  CREATE INDEX spans_session ON spans(session_id) WHERE session_id IS NOT NULL;
  CREATE INDEX spans_received ON spans(received_at);

  CREATE TABLE metrics (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL,
    source      TEXT NOT NULL,
    received_at TEXT NOT NULL,
    timestamp   TEXT NOT NULL,
    name        TEXT NOT NULL,
    unit        TEXT,
    data_type   TEXT NOT NULL,
    points      INTEGER NOT NULL,
    value_sum   REAL,
    session_id  TEXT
  );
  CREATE INDEX metrics_received ON metrics(received_at);
  CREATE INDEX metrics_session ON metrics(session_id) WHERE session_id IS NOT NULL;
  `,
];

export const TELEMETRY_SCHEMA: Schema = { name: 'telemetry database', migrations: TELEMETRY_MIGRATIONS };
