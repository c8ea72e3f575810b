// telemetry.db: the OTLP records the receiver keeps, written one transaction per OTLP request (the receiver
// answers after it commits: acknowledged means recorded), read by the correlation ledger, and pruned on a
// timer to `telemetry.retention_days`.
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../db/open.js';
import type { AgentEventRecord, MetricRecord, SpanRecord, TelemetryRecord } from '../records.js';
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

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;

/** A stored row as the record it was written from. */
export function eventFromRow(row: Record<string, unknown>): AgentEventRecord {
  const out: Record<string, unknown> = { record_type: 'agent_event' };
  for (const column of EVENT_COLUMNS) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    out[column] = column === 'attributes' ? JSON.parse(v as string) : column === 'success' ? v === 1 : v;
  }
  return out as unknown as AgentEventRecord;
}

export function spanFromRow(row: Record<string, unknown>): SpanRecord {
  const out: Record<string, unknown> = { record_type: 'span' };
  for (const column of SPAN_COLUMNS) if (row[column] !== null && row[column] !== undefined) out[column] = row[column];
  return out as unknown as SpanRecord;
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
    const events = this.db.prepare(insertSql('agent_events', EVENT_COLUMNS));
    const spans = this.db.prepare(insertSql('spans', SPAN_COLUMNS));
    const metrics = this.db.prepare(insertSql('metrics', METRIC_COLUMNS));
    const row = (columns: readonly string[], record: object) => {
      const r = record as Record<string, unknown>;
      return Object.fromEntries(columns.map((c) => {
        const v = r[c];
        if (c === 'attributes') return [c, JSON.stringify(v ?? {})];
        if (typeof v === 'boolean') return [c, v ? 1 : 0];
        return [c, v ?? null];
      }));
    };
    this.write = this.db.transaction((records: readonly TelemetryRecord[]) => {
      for (const record of records) {
        if (record.record_type === 'agent_event') events.run(row(EVENT_COLUMNS, record));
        else if (record.record_type === 'span') spans.run(row(SPAN_COLUMNS, record as SpanRecord));
        else metrics.run(row(METRIC_COLUMNS, record as MetricRecord));
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
