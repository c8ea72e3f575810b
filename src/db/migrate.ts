// Numbered, forward-only schema migrations: one runner for every Warden database. Migration N (1-based) is
// entry N-1 of the list; the version reached is kept where the database already keeps it — SQLite's
// user_version for audit.db and fleet.db, a one-row table for the chain state (written before this runner
// existed, so that its tables could share a file whose user_version another schema owns). Each migration
// runs in its own IMMEDIATE transaction with the version bump: a failing one leaves the file at the version
// before it, and two processes opening one file never both apply a step.
import type Database from 'better-sqlite3';
import { WardenError } from '../errors.js';

export interface Schema {
  /** What the database holds, for messages ("audit database"). */
  readonly name: string;
  readonly migrations: readonly string[];
  /** Where the version lives: SQLite's user_version (default), or the `version` column of a one-row table. */
  readonly versionTable?: string;
}

export function migrate(db: Database.Database, schema: Schema): void {
  const store = versionStore(db, schema);
  for (;;) {
    const done = db.transaction(() => {
      const current = checkVersion(schema, store.read());
      if (current === schema.migrations.length) return true;
      db.exec(schema.migrations[current]!);
      store.write(current + 1);
      return false;
    }).immediate();
    if (done) return;
  }
}

/** The version a database is at, refused when it is newer than this Warden knows (for read-only opens). */
export function checkSchemaVersion(db: Database.Database, schema: Schema): number {
  return checkVersion(schema, versionStore(db, schema).read());
}

function checkVersion(schema: Schema, current: number): number {
  if (current > schema.migrations.length) {
    throw new WardenError(
      'WARDEN_ERR_DB_SCHEMA_NEWER',
      `${schema.name} schema version ${current} is newer than this Warden supports (${schema.migrations.length}); upgrade Warden`,
    );
  }
  return current;
}

interface VersionStore {
  read(): number;
  write(version: number): void;
}

function versionStore(db: Database.Database, schema: Schema): VersionStore {
  const table = schema.versionTable;
  if (table === undefined) {
    return {
      read: () => db.pragma('user_version', { simple: true }) as number,
      write: (version) => db.pragma(`user_version = ${version}`),
    };
  }
  if (!/^[a-z_]+$/.test(table)) throw new Error(`invalid version table name ${table}`);
  return {
    read: () => {
      if (!tableExists(db, table)) return 0;
      return (db.prepare(`SELECT version FROM ${table} WHERE id = 1`).get() as { version: number } | undefined)?.version ?? 0;
    },
    write: (version) => {
      db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`);
      db.prepare(`INSERT INTO ${table} (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version`).run(version);
    },
  };
}

function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
