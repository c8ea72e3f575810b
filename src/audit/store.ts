// The gateway's audit trail. Appends are queued and committed together a few milliseconds later (group
// commit): each commit rewrites the table and index pages it touches, so one transaction per burst instead
// of one per row is what lets the trail keep up with hook traffic, and a verdict's answer is sent before its
// row is written. Reads commit the queue first; close() commits it last, so a clean shutdown loses nothing
// (a hard kill can lose the last FLUSH_DELAY_MS of rows).
// The commit runs on the event loop: a writer thread was measured here at 20 us of CPU per row against 14 us
// in-thread (passing batches between threads costs more than the commit itself), and a batch commits in
// well under a millisecond.
import type Database from 'better-sqlite3';
import { isoNow } from '../util/iso-now.js';
import { uuidv7 } from '../util/uuidv7.js';
import { openAuditDatabase } from './database.js';
import { EGRESS_COLUMNS, pushEgressRowValues, type NewEgressRecord } from './egress.js';
import { COLUMNS, fromRow, pushRowValues, type AuditEvent, type NewAuditEvent, type Row } from './events.js';

export { AUDIT_SEVERITIES, type AuditEvent, type AuditSeverity, type NewAuditEvent } from './events.js';
export type { NewEgressRecord } from './egress.js';

/** A queued row, with the moment it was appended: an audit event, or a network egress record. */
type Queued = { event: NewAuditEvent; at: string } | { egress: NewEgressRecord; at: string };

const FLUSH_DELAY_MS = 5;
const MAX_QUEUED_EVENTS = 1000;
/** Rows per INSERT statement: one multi-row statement costs about half as much per row as one per row. */
const ROWS_PER_INSERT = 32;

/** INSERTs of 1..ROWS_PER_INSERT rows into one table, prepared on first use. */
class MultiRowInsert {
  private readonly statements = new Map<number, Database.Statement>();
  private readonly rowPlaceholders: string;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly columns: readonly string[],
  ) {
    this.rowPlaceholders = `(${columns.map(() => '?').join(', ')})`;
  }

  /** Inserts `values`, the columns of whole rows one after another. */
  run(values: unknown[]): void {
    const width = this.columns.length;
    const step = width * ROWS_PER_INSERT;
    for (let first = 0; first < values.length; first += step) {
      const chunk = first === 0 && values.length <= step ? values : values.slice(first, first + step);
      this.statement(chunk.length / width).run(chunk);
    }
  }

  private statement(rows: number): Database.Statement {
    let statement = this.statements.get(rows);
    if (!statement) {
      const sql = `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${Array(rows).fill(this.rowPlaceholders).join(', ')}`;
      this.statements.set(rows, (statement = this.db.prepare(sql)));
    }
    return statement;
  }
}

export class AuditStore {
  private readonly db: Database.Database;
  private readonly insertBatch: (rows: Queued[]) => void;
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** Opens (and migrates) audit.db at `path`; `onError` hears about batches that could not be committed. */
  constructor(path: string, private readonly onError: (err: Error) => void = () => {}) {
    this.db = openAuditDatabase(path);
    const insertEvents = new MultiRowInsert(this.db, 'audit_events', COLUMNS);
    const insertEgress = new MultiRowInsert(this.db, 'network_egress', EGRESS_COLUMNS);
    // Rows append under an integer sequence (migration 2); their uuidv7 ids sort by time for whoever exports them.
    this.insertBatch = this.db.transaction((rows: Queued[]) => {
      const events: unknown[] = [];
      const egress: unknown[] = [];
      for (const row of rows) {
        if ('event' in row) pushRowValues(events, uuidv7(), row.event.timestamp ?? row.at, row.event);
        else pushEgressRowValues(egress, uuidv7(), row.egress.timestamp ?? row.at, row.egress);
      }
      if (events.length > 0) insertEvents.run(events);
      if (egress.length > 0) insertEgress.run(egress);
    });
  }

  append(event: NewAuditEvent): void {
    this.enqueue({ event, at: isoNow() });
  }

  /**
   * Appends and commits at once (with everything queued before it): for records that must be durable before
   * the change they describe is made, such as a credential change. Throws when the write fails.
   */
  appendDurably(event: NewAuditEvent): void {
    this.append(event);
    const error = this.commit();
    if (error) throw error;
  }

  appendEgress(record: NewEgressRecord): void {
    this.enqueue({ egress: record, at: isoNow() });
  }

  private enqueue(row: Queued): void {
    if (!this.db.open) throw new Error('audit store is closed');
    this.queue.push(row);
    if (this.queue.length >= MAX_QUEUED_EVENTS) this.commit();
    else this.timer ??= setTimeout(() => this.commit(), FLUSH_DELAY_MS);
  }

  /** Commits everything appended so far; rejects when that batch could not be written. */
  async flush(): Promise<void> {
    const error = this.commit();
    if (error) throw error;
  }

  async recentAlerts(limit: number): Promise<AuditEvent[]> {
    await this.flush();
    const rows = this.db.prepare(`SELECT ${COLUMNS.join(', ')} FROM alerts ORDER BY seq DESC LIMIT ?`).all(limit) as Row[];
    return rows.map(fromRow);
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    try {
      await this.flush();
    } finally {
      this.db.close();
    }
  }

  private commit(): Error | undefined {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return undefined;
    const rows = this.queue;
    this.queue = [];
    try {
      this.insertBatch(rows);
      return undefined;
    } catch (err) {
      // The batch is lost: say so loudly (the gateway marks the audit subsystem degraded), keep accepting rows.
      const error = new Error(`audit write failed: ${(err as Error).message}`);
      this.onError(error);
      return error;
    }
  }
}
