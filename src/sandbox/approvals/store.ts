// Approvals and per-sandbox unblocks in sandboxes.db, so they survive a gateway restart. Their tables have their
// own schema with its version in a one-row table (the manager's schema owns the file's user_version), so either
// side can add migrations without renumbering the other's.
import type Database from 'better-sqlite3';
import { openDatabase } from '../../db/open.js';
import type { Schema } from '../../db/migrate.js';
import type { Approval, ApprovalStatus } from './types.js';

export const APPROVALS_SCHEMA: Schema = {
  name: 'sandbox approvals',
  versionTable: 'approvals_schema_version',
  migrations: [
    `CREATE TABLE approvals (
       id TEXT PRIMARY KEY,
       sandbox TEXT NOT NULL,
       status TEXT NOT NULL,
       record TEXT NOT NULL,
       created_at TEXT NOT NULL
     );
     CREATE INDEX approvals_by_sandbox ON approvals (sandbox, created_at);
     CREATE TABLE sandbox_unblocks (
       sandbox TEXT NOT NULL,
       host TEXT NOT NULL,
       created_at TEXT NOT NULL,
       PRIMARY KEY (sandbox, host)
     );`,
  ],
};

/** Statuses of an approval nobody has finished with. */
export const OPEN_STATUSES: readonly ApprovalStatus[] = ['pending', 'queued'];

export class ApprovalStore {
  readonly #db: Database.Database;

  constructor(path: string) {
    this.#db = openDatabase(path, { schema: APPROVALS_SCHEMA });
  }

  put(approval: Approval): void {
    this.#db
      .prepare(`INSERT INTO approvals (id, sandbox, status, record, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET status = excluded.status, record = excluded.record`)
      .run(approval.id, approval.sandbox, approval.status, JSON.stringify(approval), approval.created_at);
  }

  /** Keeps the newest `keep` finished approvals of a sandbox (the open ones are always kept). */
  prune(sandbox: string, keep: number): void {
    this.#db
      .prepare(`DELETE FROM approvals WHERE sandbox = ? AND status NOT IN ('pending', 'queued') AND id NOT IN
                (SELECT id FROM approvals WHERE sandbox = ? AND status NOT IN ('pending', 'queued') ORDER BY created_at DESC, id DESC LIMIT ?)`)
      .run(sandbox, sandbox, keep);
  }

  get(id: string): Approval | undefined {
    const row = this.#db.prepare('SELECT record FROM approvals WHERE id = ?').get(id) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as Approval) : undefined;
  }

  /** Every approval, or one sandbox's, oldest first. */
  list(sandbox?: string): Approval[] {
    const rows = (sandbox === undefined
      ? this.#db.prepare('SELECT record FROM approvals ORDER BY created_at, id').all()
      : this.#db.prepare('SELECT record FROM approvals WHERE sandbox = ? ORDER BY created_at, id').all(sandbox)) as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as Approval);
  }

  /** Approvals in one of `statuses`, of one sandbox when given. */
  withStatus(statuses: readonly ApprovalStatus[], sandbox?: string): Approval[] {
    const marks = statuses.map(() => '?').join(', ');
    const rows = (sandbox === undefined
      ? this.#db.prepare(`SELECT record FROM approvals WHERE status IN (${marks}) ORDER BY created_at, id`).all(...statuses)
      : this.#db.prepare(`SELECT record FROM approvals WHERE sandbox = ? AND status IN (${marks}) ORDER BY created_at, id`).all(sandbox, ...statuses)) as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as Approval);
  }

  count(status: ApprovalStatus, sandbox?: string): number {
    const row = (sandbox === undefined
      ? this.#db.prepare('SELECT count(*) AS n FROM approvals WHERE status = ?').get(status)
      : this.#db.prepare('SELECT count(*) AS n FROM approvals WHERE status = ? AND sandbox = ?').get(status, sandbox)) as { n: number };
    return row.n;
  }

  unblocks(): { sandbox: string; host: string }[] {
    return this.#db.prepare('SELECT sandbox, host FROM sandbox_unblocks ORDER BY sandbox, created_at').all() as { sandbox: string; host: string }[];
  }

  addUnblock(sandbox: string, host: string): void {
    this.#db.prepare('INSERT INTO sandbox_unblocks (sandbox, host, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(sandbox, host, new Date().toISOString());
  }

  /** Forgets a deleted sandbox's unblocks and approvals. */
  forgetSandbox(sandbox: string): void {
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM sandbox_unblocks WHERE sandbox = ?').run(sandbox);
      this.#db.prepare('DELETE FROM approvals WHERE sandbox = ?').run(sandbox);
    })();
  }

  close(): void {
    this.#db.close();
  }
}
