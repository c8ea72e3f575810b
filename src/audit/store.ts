// The gateway's audit trail, with group commit: rows appended while the event loop is busy are committed
// together in one transaction as soon as it turns (setImmediate), and each append's promise settles only
// once its transaction has committed. A route that answers after awaiting its row therefore never
// acknowledges a row a crash could still lose (WAL: a committed transaction survives `kill -9`), while a
// burst still costs one commit, not one per row. A row is serialised (and refused, AuditRowRejected) when it
// is appended, and a batch that fails to commit is retried row by row, so one bad row never loses others.
// The commit runs on the event loop: a writer thread was measured here at 20 us of CPU per row against 14 us
// in-thread (passing batches between threads costs more than the commit itself), and a batch commits in
// well under a millisecond.
import type Database from 'better-sqlite3';
import { WardenError } from '../errors.js';
import { isoNow } from '../util/iso-now.js';
import { uuidv7 } from '../util/uuidv7.js';
import { openAuditDatabase } from './database.js';
import { EGRESS_COLUMNS, egressFromRow, egressQuery, egressRowValues, type EgressFilter, type EgressRow, type NewEgressRecord } from './egress.js';
import { COLUMNS, fromRow, rowValues, type AuditEvent, type NewAuditEvent, type Row } from './events.js';
import { AUDIT_LIMITS } from './limits.js';

export { AUDIT_SEVERITIES, type AuditEvent, type AuditSeverity, type NewAuditEvent } from './events.js';
export type { EgressFilter, NewEgressRecord } from './egress.js';
export { AuditRowRejected } from './row-data.js';

/** A row that could not be committed; the rest of its batch was. */
export class AuditWriteFailed extends WardenError {
  constructor(cause: string) {
    super('WARDEN_ERR_AUDIT_WRITE_FAILED', `audit write failed: ${cause}`, { statusCode: 503 });
  }
}

type Table = 'events' | 'egress';

/** A serialised row waiting for its commit, and the append waiting on it. */
interface Pending {
  table: Table;
  values: unknown[];
  settled: (error?: Error) => void;
}

const { maxQueuedRows: MAX_QUEUED_ROWS, rowsPerInsert: ROWS_PER_INSERT } = AUDIT_LIMITS;

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
  private readonly insertBatch: (rows: Pending[]) => void;
  private queue: Pending[] = [];
  private commitScheduled: NodeJS.Immediate | undefined;

  /** Opens (and migrates) audit.db at `path`; `onError` hears about every row that could not be committed. */
  constructor(path: string, private readonly onError: (err: Error) => void = () => {}) {
    this.db = openAuditDatabase(path);
    const inserts = {
      events: new MultiRowInsert(this.db, 'audit_events', COLUMNS),
      egress: new MultiRowInsert(this.db, 'network_egress', EGRESS_COLUMNS),
    };
    // Rows append under an integer sequence (migration 2); their uuidv7 ids sort by time for whoever exports them.
    this.insertBatch = this.db.transaction((rows: Pending[]) => {
      const values: Record<Table, unknown[]> = { events: [], egress: [] };
      for (const row of rows) {
        const into = values[row.table];
        for (const value of row.values) into.push(value);
      }
      if (values.events.length > 0) inserts.events.run(values.events);
      if (values.egress.length > 0) inserts.egress.run(values.egress);
    });
  }

  /**
   * Queues the event; the promise resolves once it is committed and rejects with AuditWriteFailed when it
   * could not be. Throws AuditRowRejected at once when the event cannot be stored (its own caller's fault).
   */
  append(event: NewAuditEvent): Promise<void> {
    return this.enqueue('events', rowValues(uuidv7(), event.timestamp ?? isoNow(), event));
  }

  appendEgress(record: NewEgressRecord): Promise<void> {
    return this.enqueue('egress', egressRowValues(uuidv7(), record.timestamp ?? isoNow(), record));
  }

  /**
   * Appends and commits before returning (with everything queued before it): for records that must be
   * durable before the change they describe is made, such as a credential change. Throws when the write fails.
   */
  appendDurably(event: NewAuditEvent): void {
    let failure: Error | undefined;
    this.enqueue('events', rowValues(uuidv7(), event.timestamp ?? isoNow(), event), (error) => (failure = error));
    this.commit();
    if (failure) throw failure;
  }

  private enqueue(table: Table, values: unknown[], settled?: (error?: Error) => void): Promise<void> {
    if (!this.db.open) throw new Error('audit store is closed');
    if (settled) {
      this.push({ table, values, settled });
      return Promise.resolve();
    }
    const committed = new Promise<void>((resolve, reject) => {
      this.push({ table, values, settled: (error) => (error ? reject(error) : resolve()) });
    });
    // Every failure already reaches onError; an append nobody awaits must not crash the process on rejection.
    committed.catch(() => {});
    return committed;
  }

  private push(row: Pending): void {
    this.queue.push(row);
    if (this.queue.length >= MAX_QUEUED_ROWS) this.commit();
    else this.commitScheduled ??= setImmediate(() => this.commit());
  }

  /** Commits everything appended so far; rejects when a row of it could not be written. */
  async flush(): Promise<void> {
    const error = this.commit();
    if (error) throw error;
  }

  async recentAlerts(limit: number): Promise<AuditEvent[]> {
    this.commit();
    const rows = this.db.prepare(`SELECT ${COLUMNS.join(', ')} FROM alerts ORDER BY seq DESC LIMIT ?`).all(limit) as Row[];
    return rows.map(fromRow);
  }

  /** Network egress records matching `filter`, newest first (everything appended so far is committed first). */
  async egress(filter: EgressFilter): Promise<ReturnType<typeof egressFromRow>[]> {
    this.commit();
    const { sql, params } = egressQuery(filter);
    return (this.db.prepare(sql).all(params) as EgressRow[]).map(egressFromRow);
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    try {
      await this.flush();
    } finally {
      this.db.close();
    }
  }

  /** Commits the queue as one transaction, or row by row when that fails; returns the first row error. */
  private commit(): Error | undefined {
    clearImmediate(this.commitScheduled);
    this.commitScheduled = undefined;
    if (this.queue.length === 0) return undefined;
    const rows = this.queue;
    this.queue = [];
    try {
      this.insertBatch(rows);
      for (const row of rows) row.settled();
      return undefined;
    } catch {
      return this.commitOneByOne(rows);
    }
  }

  /** After a failed batch: each row in its own transaction, so only the faulty ones are lost (and reported). */
  private commitOneByOne(rows: Pending[]): Error | undefined {
    let first: Error | undefined;
    for (const row of rows) {
      try {
        this.insertBatch([row]);
        row.settled();
      } catch (err) {
        // Say so loudly (the gateway marks the audit subsystem degraded); the caller hears it too.
        const error = new AuditWriteFailed((err as Error).message);
        first ??= error;
        this.onError(error);
        row.settled(error);
      }
    }
    return first;
  }
}
