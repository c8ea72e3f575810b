// The audit trail in SQLite (WAL). Appends are queued and committed together a few milliseconds later (group
// commit): each commit rewrites the table and index pages it touches, so one transaction per burst instead of
// one per row is what lets the audit trail keep up with hook traffic, and the caller's answer never waits for
// the disk. Reads flush first and close() flushes last, so nothing queued is lost on a clean shutdown; a hard
// kill can lose at most the last FLUSH_DELAY_MS of rows.
import { v7 as timeOrderedUuid } from 'uuid';
import Database from 'better-sqlite3';
import { AUDIT_MIGRATIONS } from './migrations.js';

export const AUDIT_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'NONE'] as const;
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

export interface NewAuditEvent {
  action: string;
  timestamp?: string;
  target?: string;
  actor?: string;
  severity?: AuditSeverity;
  details?: string;
  structured?: unknown;
  connector?: string;
  session_id?: string;
  trace_id?: string;
  evaluation_id?: string;
  schema?: string;
}

export interface AuditEvent extends Omit<NewAuditEvent, 'structured'> {
  id: string;
  timestamp: string;
  severity: AuditSeverity;
  structured?: unknown;
}

const COLUMNS = [
  'id', 'timestamp', 'action', 'target', 'actor', 'severity', 'details', 'structured',
  'connector', 'session_id', 'trace_id', 'evaluation_id', 'schema',
] as const;

type Row = Record<(typeof COLUMNS)[number], string | null>;

const FLUSH_DELAY_MS = 5;
const MAX_QUEUED_ROWS = 1000;

export class AuditStore {
  readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly insertAll: (rows: Row[]) => void;
  private queue: Row[] = [];
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(path: string, options: { readonly?: boolean } = {}) {
    this.db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    this.db.pragma('busy_timeout = 5000');
    if (!options.readonly) {
      this.db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a process crash; only an OS crash can drop the last commits.
      this.db.pragma('synchronous = NORMAL');
      migrate(this.db);
    } else {
      checkVersion(this.db);
    }
    this.insert = this.db.prepare(`INSERT INTO audit_events (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
    this.insertAll = this.db.transaction((rows: Row[]) => {
      for (const row of rows) this.insert.run(COLUMNS.map((c) => row[c]));
    });
  }

  /** Queue one event for the next group commit. Returns the event id. */
  append(event: NewAuditEvent): string {
    // Time-ordered (v7) ids append to the primary-key index instead of landing at random pages: 3x cheaper rows.
    const id = timeOrderedUuid();
    this.queue.push(toRow(id, event));
    if (this.queue.length >= MAX_QUEUED_ROWS) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    return id;
  }

  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.queue.length === 0) return;
    const rows = this.queue;
    this.queue = [];
    this.insertAll(rows);
  }

  /** Newest alert rows first (events with a finding severity). */
  recentAlerts(limit: number): AuditEvent[] {
    this.flush();
    const rows = this.db
      .prepare(`SELECT ${COLUMNS.join(', ')} FROM alerts ORDER BY seq DESC LIMIT ?`)
      .all(limit) as Row[];
    return rows.map(fromRow);
  }

  /** Events in the order they were recorded; with `limit`, the newest `limit` of them. */
  *events(options: { limit?: number } = {}): IterableIterator<AuditEvent> {
    this.flush();
    const select = `SELECT rowid AS seq, ${COLUMNS.join(', ')} FROM audit_events`;
    const sql = options.limit === undefined
      ? `${select} ORDER BY seq`
      : `SELECT * FROM (${select} ORDER BY seq DESC LIMIT @limit) ORDER BY seq`;
    for (const row of this.db.prepare(sql).iterate({ limit: options.limit }) as IterableIterator<Row>) yield fromRow(row);
  }

  count(): number {
    this.flush();
    return (this.db.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n;
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  close(): void {
    if (!this.db.open) return;
    if (!this.db.readonly) this.flush();
    this.db.close();
  }
}

function migrate(db: Database.Database): void {
  const current = checkVersion(db);
  for (let version = current; version < AUDIT_MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(AUDIT_MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

function checkVersion(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > AUDIT_MIGRATIONS.length) {
    throw new Error(
      `audit database schema version ${current} is newer than this Warden supports (${AUDIT_MIGRATIONS.length}); upgrade Warden`,
    );
  }
  return current;
}

function toRow(id: string, e: NewAuditEvent): Row {
  return {
    id,
    timestamp: e.timestamp ?? new Date().toISOString(),
    action: e.action,
    target: e.target ?? null,
    actor: e.actor ?? null,
    severity: e.severity ?? 'INFO',
    details: e.details ?? null,
    structured: e.structured === undefined ? null : JSON.stringify(e.structured),
    connector: e.connector ?? null,
    session_id: e.session_id ?? null,
    trace_id: e.trace_id ?? null,
    evaluation_id: e.evaluation_id ?? null,
    schema: e.schema ?? null,
  };
}

function fromRow(row: Row): AuditEvent {
  const event: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    event[column] = column === 'structured' ? JSON.parse(value) : value;
  }
  return event as unknown as AuditEvent;
}
