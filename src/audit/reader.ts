// Reading the audit trail through a read-only connection: WAL lets it run beside the gateway's writer.
import type Database from 'better-sqlite3';
import { openAuditDatabase } from './database.js';
import { EGRESS_COLUMNS, egressFromRow, type EgressRow } from './egress.js';
import { COLUMNS, fromRow, type AuditEvent, type Row } from './events.js';

export class AuditReader {
  readonly db: Database.Database;

  constructor(path: string) {
    this.db = openAuditDatabase(path, { readonly: true });
  }

  /** Events in the order they were recorded; with `limit`, the newest `limit` of them. */
  *events(options: { limit?: number } = {}): IterableIterator<AuditEvent> {
    const select = `SELECT rowid AS seq, ${COLUMNS.join(', ')} FROM audit_events`;
    const sql = options.limit === undefined
      ? `${select} ORDER BY seq`
      : `SELECT * FROM (${select} ORDER BY seq DESC LIMIT @limit) ORDER BY seq`;
    for (const row of this.db.prepare(sql).iterate({ limit: options.limit }) as IterableIterator<Row>) yield fromRow(row);
  }

  /** Network egress records, oldest first. */
  egress(): ReturnType<typeof egressFromRow>[] {
    const rows = this.db.prepare(`SELECT ${EGRESS_COLUMNS.join(', ')} FROM network_egress ORDER BY rowid`).all() as EgressRow[];
    return rows.map(egressFromRow);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n;
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
