// sandboxes.db: what the manager knows of each sandbox, so it survives a gateway restart. One row per sandbox
// with the request's non-secret parts and the manager's state (phase, session, snapshot); secrets are never
// columns (credential rows keep name, host and port; the binding credential only its SHA-256). `meta` holds
// `last_reconcile`.
import type Database from 'better-sqlite3';
import { openDatabase } from '../../db/open.js';
import type { Schema } from '../../db/migrate.js';
import type { ResolvedPolicy, SnapshotInfo } from '../ports.js';

export const SANDBOX_SCHEMA: Schema = {
  name: 'sandbox database',
  migrations: [
    `CREATE TABLE sandboxes (
       name TEXT PRIMARY KEY,
       id TEXT NOT NULL UNIQUE,
       record TEXT NOT NULL,
       created_at TEXT NOT NULL
     );
     CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  ],
};

export interface CredentialView {
  name: string;
  host: string;
  port: number;
}

/** A sandbox as the manager stores it (the answer's Sandbox object is built from it in view.ts). */
export interface SandboxRecord {
  name: string;
  id: string;
  harness: string;
  phase: string;
  project: string;
  workdir_mode: 'mount' | 'copy';
  workdir: string;
  image: string;
  image_id: string;
  policy: ResolvedPolicy;
  session: number;
  snapshot: SnapshotInfo | null;
  /** The create request's no_snapshot: no undo point is taken before a session. */
  no_snapshot: boolean;
  nested_repos: string[];
  warnings: string[];
  credentials: CredentialView[];
  /** Names of the llm.credentials variables (values never stored). */
  llm_credentials: string[];
  llm: { profile?: string; bedrock_region?: string };
  /** Non-secret variables of the create request. */
  env: Record<string, string>;
  /** SHA-256 (hex) of the sandbox's `wardensb_` binding credential. */
  binding_hash: string;
  workspace: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export class SandboxStore {
  readonly #db: Database.Database;

  constructor(path: string) {
    this.#db = openDatabase(path, { schema: SANDBOX_SCHEMA });
  }

  all(): SandboxRecord[] {
    const rows = this.#db.prepare('SELECT record FROM sandboxes ORDER BY created_at, name').all() as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as SandboxRecord);
  }

  get(name: string): SandboxRecord | undefined {
    const row = this.#db.prepare('SELECT record FROM sandboxes WHERE name = ?').get(name) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as SandboxRecord) : undefined;
  }

  /** Inserts a new sandbox; false when the name is taken. */
  insert(record: SandboxRecord): boolean {
    const result = this.#db
      .prepare('INSERT INTO sandboxes (name, id, record, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(name) DO NOTHING')
      .run(record.name, record.id, JSON.stringify(record), record.created_at);
    return result.changes === 1;
  }

  put(record: SandboxRecord): SandboxRecord {
    record.updated_at = new Date().toISOString();
    this.#db.prepare('UPDATE sandboxes SET record = ? WHERE name = ?').run(JSON.stringify(record), record.name);
    return record;
  }

  delete(name: string): void {
    this.#db.prepare('DELETE FROM sandboxes WHERE name = ?').run(name);
  }

  meta(key: string): string | undefined {
    return (this.#db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.#db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  close(): void {
    this.#db.close();
  }
}
