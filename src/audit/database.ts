// Opening audit.db: the shared SQLite helper with the audit schema (versioned in SQLite's user_version). A
// version 8 file at the same path has its clashing tables set aside first (legacy-v8.ts), so it migrates.
import type Database from 'better-sqlite3';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/open.js';
import { setAsideVersion8Tables } from './legacy-v8.js';
import { AUDIT_SCHEMA } from './migrations.js';

export function openAuditDatabase(path: string, options: { readonly?: boolean } = {}): Database.Database {
  if (options.readonly) return openDatabase(path, { readonly: true, schema: AUDIT_SCHEMA });
  const db = openDatabase(path);
  try {
    setAsideVersion8Tables(db);
    migrate(db, AUDIT_SCHEMA);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
