// The chain-state tables and their forward-only migrations. Their version is kept in a chain_schema row, not
// in SQLite's user_version, so the tables can live in audit.db (whose migrations own user_version) or in a
// database file of their own. Never edit a shipped entry: add a new one.
import type Database from 'better-sqlite3';

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

export function migrate(db: Database.Database): void {
  // IMMEDIATE: two processes opening the same file must not both apply a migration.
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS chain_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
    const row = db.prepare('SELECT version FROM chain_schema WHERE id = 1').get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > CHAIN_MIGRATIONS.length) {
      throw new Error(`chain state schema version ${current} is newer than this Warden supports (${CHAIN_MIGRATIONS.length}); upgrade Warden`);
    }
    for (let version = current; version < CHAIN_MIGRATIONS.length; version++) db.exec(CHAIN_MIGRATIONS[version]!);
    db.prepare('INSERT INTO chain_schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version')
      .run(CHAIN_MIGRATIONS.length);
  }).immediate();
}
