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
import {
  dispositionAuditEvent, dispositionsOf, planDispositions, storeDispositions,
  type DispositionOfAlert, type DispositionPlan, type DispositionRequest,
} from './dispositions.js';
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

/** A row as committed, for whoever observes the store (the event writer, metrics): the caller's fields with the id and timestamp the store gave it. */
export type CommittedRow =
  | { table: 'events'; row: NewAuditEvent & { id: string; timestamp: string } }
  | { table: 'egress'; row: NewEgressRecord & { id: string; timestamp: string } };

/** Hears the rows of each committed transaction and how long the commit took; must not throw or block. */
export type CommitObserver = (rows: readonly CommittedRow[], commitMs: number) => void;

/** A serialised row waiting for its commit, and the append waiting on it. */
interface Pending {
  table: Table;
  values: unknown[];
  committed: CommittedRow;
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
  private readonly insertEvents: MultiRowInsert;
  private queue: Pending[] = [];
  private commitScheduled: NodeJS.Immediate | undefined;
  private readonly observers: CommitObserver[] = [];

  /** Opens (and migrates) audit.db at `path`; `onError` hears about every row that could not be committed. */
  constructor(path: string, private readonly onError: (err: Error) => void = () => {}) {
    this.db = openAuditDatabase(path);
    this.insertEvents = new MultiRowInsert(this.db, 'audit_events', COLUMNS);
    const inserts = {
      events: this.insertEvents,
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
    const row = { ...event, id: uuidv7(), timestamp: event.timestamp ?? isoNow() };
    return this.enqueue({ table: 'events', row }, rowValues(row.id, row.timestamp, event));
  }

  appendEgress(record: NewEgressRecord): Promise<void> {
    const row = { ...record, id: uuidv7(), timestamp: record.timestamp ?? isoNow() };
    return this.enqueue({ table: 'egress', row }, egressRowValues(row.id, row.timestamp, record));
  }

  /**
   * `observer` hears every row after its transaction commits (so what it sees is in audit.db): the one place
   * the event writer and the metrics learn of verdicts, proxy calls and egress, whichever route made them.
   */
  observeCommits(observer: CommitObserver): void {
    this.observers.push(observer);
  }

  /** Rows appended and not yet committed. */
  get queuedRows(): number {
    return this.queue.length;
  }

  /**
   * Appends and commits before returning (with everything queued before it): for records that must be
   * durable before the change they describe is made, such as a credential change. Throws when the write fails.
   */
  appendDurably(event: NewAuditEvent): void {
    let failure: Error | undefined;
    const row = { ...event, id: uuidv7(), timestamp: event.timestamp ?? isoNow() };
    this.enqueue({ table: 'events', row }, rowValues(row.id, row.timestamp, event), (error) => (failure = error));
    this.commit();
    if (failure) throw failure;
  }

  private enqueue(committed: CommittedRow, values: unknown[], settled?: (error?: Error) => void): Promise<void> {
    if (!this.db.open) throw new Error('audit store is closed');
    const table = committed.table;
    if (settled) {
      this.push({ table, values, committed, settled });
      return Promise.resolve();
    }
    const done = new Promise<void>((resolve, reject) => {
      this.push({ table, values, committed, settled: (error) => (error ? reject(error) : resolve()) });
    });
    // Every failure already reaches onError; an append nobody awaits must not crash the process on rejection.
    done.catch(() => {});
    return done;
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

  /** The newest alerts, each with its disposition when it has one. */
  async recentAlerts(limit: number): Promise<(AuditEvent & { disposition?: DispositionOfAlert })[]> {
    this.commit();
    const rows = this.db.prepare(`SELECT ${COLUMNS.join(', ')} FROM alerts ORDER BY seq DESC LIMIT ?`).all(limit) as Row[];
    const alerts = rows.map(fromRow);
    const dispositions = dispositionsOf(this.db, alerts.map((a) => a.id));
    return alerts.map((a) => (dispositions.has(a.id) ? { ...a, disposition: dispositions.get(a.id)! } : a));
  }

  /** What setting `request`'s disposition would change (alerts appended so far included); changes nothing. */
  previewDisposition(request: DispositionRequest): DispositionPlan {
    this.commit();
    return planDispositions(this.db, request);
  }

  /**
   * Sets the disposition: the dispositions and one audit row per changed alert commit in one transaction (after
   * everything queued before), so an answer that says "applied" is on disk. Throws when the write fails.
   */
  applyDisposition(request: DispositionRequest): DispositionPlan {
    const firstError = this.commit();
    if (firstError) throw firstError;
    try {
      return this.db.transaction(() => {
        const plan = planDispositions(this.db, request);
        const at = isoNow();
        const values: unknown[] = [];
        for (const change of plan.changes) values.push(...rowValues(uuidv7(), at, dispositionAuditEvent(change, request)));
        if (values.length > 0) this.insertEvents.run(values);
        storeDispositions(this.db, plan.changes, request, at);
        return plan;
      }).immediate();
    } catch (err) {
      if (err instanceof WardenError) throw err;
      const error = new AuditWriteFailed((err as Error).message);
      this.onError(error);
      throw error;
    }
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
    const started = performance.now();
    try {
      this.insertBatch(rows);
    } catch {
      return this.commitOneByOne(rows);
    }
    this.tellObservers(rows, performance.now() - started);
    for (const row of rows) row.settled();
    return undefined;
  }

  private tellObservers(rows: Pending[], commitMs: number): void {
    if (this.observers.length === 0) return;
    const committed = rows.map((row) => row.committed);
    for (const observer of this.observers) {
      try {
        observer(committed, commitMs);
      } catch {
        // Observers guard their own work; whatever escapes must never undo or delay the commit the rows'
        // callers are waiting on, nor mark the audit trail degraded (it is not).
      }
    }
  }

  /** After a failed batch: each row in its own transaction, so only the faulty ones are lost (and reported). */
  private commitOneByOne(rows: Pending[]): Error | undefined {
    let first: Error | undefined;
    for (const row of rows) {
      try {
        const started = performance.now();
        this.insertBatch([row]);
        this.tellObservers([row], performance.now() - started);
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
