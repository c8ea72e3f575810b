// Opening audit.db: the shared SQLite helper with the audit schema (versioned in SQLite's user_version).
import type Database from 'better-sqlite3';
import { openDatabase } from '../db/open.js';
import { AUDIT_SCHEMA } from './migrations.js';

export function openAuditDatabase(path: string, options: { readonly?: boolean } = {}): Database.Database {
  return openDatabase(path, { readonly: options.readonly ?? false, schema: AUDIT_SCHEMA });
}
