// A version 8 audit.db, found where Warden 9 keeps its own (`$WARDEN_HOME/audit.db`): version 8 left
// SQLite's user_version at 0 and has tables of the names Warden 9's first schema migration creates (its
// `actions` table of operator and scan-verdict decisions, docs/migration.md "Version 8 audit.db actions"), so
// migrating the file as it is fails on "table actions already exists". Before the first migration, each such
// table is renamed `<name>_v8`, its rows kept (rule 8 of the 8 → 9 migration reads `actions_v8`, and scan-verdict
// rows stay in the file as the spec says); views and indexes of those names hold no data and are dropped. Runs
// once, in one transaction: a file whose user_version is above 0 is Warden 9's and is never touched.
import type Database from 'better-sqlite3';
import { AUDIT_MIGRATIONS } from './migrations.js';

/** The suffix a version 8 table is kept under. */
export const V8_TABLE_SUFFIX = '_v8';

/** The objects (tables, views, indexes) Warden 9's first audit migration creates, by name. */
const FIRST_MIGRATION_NAMES = new Set([...AUDIT_MIGRATIONS[0]!.matchAll(/CREATE\s+(?:TABLE|VIEW|INDEX)\s+(\w+)/g)].map((m) => m[1]!));

export function setAsideVersion8Tables(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) !== 0) return;
  const found = db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'index') AND name NOT LIKE 'sqlite_%'").all() as { type: string; name: string }[];
  const clashing = found.filter((o) => FIRST_MIGRATION_NAMES.has(o.name));
  if (clashing.length === 0) return;
  db.transaction(() => {
    for (const { type, name } of clashing.filter((o) => o.type !== 'table')) db.exec(`DROP ${type === 'view' ? 'VIEW' : 'INDEX'} IF EXISTS "${name}"`);
    for (const { name } of clashing.filter((o) => o.type === 'table')) db.exec(`ALTER TABLE "${name}" RENAME TO "${name}${V8_TABLE_SUFFIX}"`);
  }).immediate();
}
