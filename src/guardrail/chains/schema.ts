// The chain-state tables and their forward-only migrations, run by src/db/migrate.ts. Their version is kept in
// a chain_schema row, not in SQLite's user_version (chains.db files on disk already keep it there; it lets the
// tables share a file whose user_version another schema owns). Never edit a shipped entry: add a new one.
import type { Schema } from '../../db/migrate.js';

const CHAIN_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE IF NOT EXISTS chain_sessions (
    connector   TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    -- hook events observed in the session so far: the clock that event horizons are measured on
    event_count INTEGER NOT NULL,
    -- epoch ms of the session's last event: a session idle for longer than every window holds nothing live
    updated_at  INTEGER NOT NULL,
    -- JSON of steps, proposals and deny receipts: chain ids, signal masks, fingerprints, times, event numbers
    state       TEXT NOT NULL,
    PRIMARY KEY (connector, session_id)
  );
  CREATE INDEX IF NOT EXISTS chain_sessions_updated_at ON chain_sessions(updated_at);
  `,
];

export const CHAIN_SCHEMA: Schema = { name: 'chain state', migrations: CHAIN_MIGRATIONS, versionTable: 'chain_schema' };
