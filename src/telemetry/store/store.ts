// telemetry.db: the OTLP records the receiver keeps, written one transaction per OTLP request (the receiver
// answers after it commits: acknowledged means recorded), read by the correlation ledger, and pruned on a
// timer to `telemetry.retention_days`.
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../db/open.js';
import type { TelemetryRecord } from '../records.js';
import { TELEMETRY_LIMITS } from '../limits.js';
import { TELEMETRY_SCHEMA } from './schema.js';

export const telemetryDbPath = (home: string): string => join(home, 'telemetry.db');

const EVENT_COLUMNS = [
  'id', 'source', 'received_at', 'timestamp', 'event_name', 'category', 'session_id', 'trace_id', 'span_id',
  'tool_invocation_id', 'prompt_id', 'tool_name', 'decision', 'success', 'model', 'input_tokens', 'output_tokens',
  'cost_usd', 'duration_ms', 'prompt_length', 'prompt_sha256', 'prompt_text', 'attributes',
] as const;
const SPAN_COLUMNS = ['id', 'source', 'received_at', 'timestamp', 'trace_id', 'span_id', 'parent_span_id', 'name', 'duration_ms', 'status_code', 'session_id', 'tool_invocation_id'] as const;
const METRIC_COLUMNS = ['id', 'source', 'received_at', 'timestamp', 'name', 'unit', 'data_type', 'points', 'value_sum', 'session_id'] as const;

/** Rows per INSERT statement: one statement of many rows costs far less than many statements (measured with
 *  bench/otlp: per-row statements spent most of the receiver's time binding and stepping). */
const ROWS_PER_INSERT = 40;

/** A record's attributes as stored: past the limit, only a marker (the normalised columns keep what matters). */
function attributesJson(attributes: unknown): string {
  const json = JSON.stringify(attributes ?? {});
  return json.length > TELEMETRY_LIMITS.storedAttributesBytes ? '{"_truncated":true}' : json;
}

/** Multi-row INSERTs of one table, prepared per row count on first use. */
class BatchInsert {
  private readonly statements = new Map<number, Database.Statement>();

  constructor(private readonly db: Database.Database, private readonly table: string, private readonly columns: readonly string[]) {}

  run(records: readonly object[]): void {
    for (let first = 0; first < records.length; first += ROWS_PER_INSERT) {
      const chunk = records.slice(first, first + ROWS_PER_INSERT);
      const values: unknown[] = [];
      for (const record of chunk) {
        const r = record as Record<string, unknown>;
        for (const c of this.columns) {
          const v = r[c];
          values.push(c === 'attributes' ? attributesJson(v) : typeof v === 'boolean' ? (v ? 1 : 0) : v ?? null);
        }
      }
      this.statement(chunk.length).run(values);
    }
  }

  private statement(rows: number): Database.Statement {
    let statement = this.statements.get(rows);
    if (!statement) {
      const row = `(${this.columns.map(() => '?').join(', ')})`;
      statement = this.db.prepare(`INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${Array(rows).fill(row).join(', ')}`);
      this.statements.set(rows, statement);
    }
    return statement;
  }
}

export class TelemetryStore {
  readonly db: Database.Database;
  private readonly write: (records: readonly TelemetryRecord[]) => void;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(path: string, options: { readonly?: boolean } = {}) {
    this.db = openDatabase(path, { schema: TELEMETRY_SCHEMA, readonly: options.readonly });
    if (options.readonly) {
      this.write = () => { throw new Error('telemetry store opened read-only'); };
      return;
    }
    const inserts = {
      agent_event: new BatchInsert(this.db, 'agent_events', EVENT_COLUMNS),
      span: new BatchInsert(this.db, 'spans', SPAN_COLUMNS),
      metric: new BatchInsert(this.db, 'metrics', METRIC_COLUMNS),
    };
    this.write = this.db.transaction((records: readonly TelemetryRecord[]) => {
      for (const type of ['agent_event', 'span', 'metric'] as const) {
        const ofType = records.filter((r) => r.record_type === type);
        if (ofType.length > 0) inserts[type].run(ofType);
      }
    });
  }

  /** Writes the records in one transaction; returns once it has committed. */
  insert(records: readonly TelemetryRecord[]): void {
    if (records.length > 0) this.write(records);
  }

  /** Deletes records received before `before` (RFC 3339); returns how many went. */
  prune(before: string): number {
    let removed = 0;
    for (const table of ['agent_events', 'spans', 'metrics']) {
      removed += this.db.prepare(`DELETE FROM ${table} WHERE received_at < ?`).run(before).changes;
    }
    return removed;
  }

  /** Prunes now and then every sweep interval, keeping `days` days (0: keep everything). */
  startRetention(days: number, onError: (err: Error) => void = () => {}): void {
    if (days <= 0) return;
    const sweep = () => {
      try {
        this.prune(new Date(Date.now() - days * 86_400_000).toISOString());
      } catch (err) {
        onError(err as Error);
      }
    };
    sweep();
    this.sweeper = setInterval(sweep, TELEMETRY_LIMITS.retentionSweepMs);
    this.sweeper.unref();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.db.open) this.db.close();
  }
}
