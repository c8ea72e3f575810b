// Alert dispositions, without HTTP: which alerts a request names (ids, or a filter over the alerts view), what
// setting a disposition on them would change (the preview), and the change itself, applied in one transaction
// with one audit row per alert changed, so the trail says who acknowledged what, when and why. A disposition row
// holds only the latest word; the audit rows hold the history. The rows are INFO: acknowledging an alert must not
// raise a new one.
import type Database from 'better-sqlite3';
import { WardenError } from '../errors.js';
import { type AuditSeverity, type NewAuditEvent } from './events.js';
import { AUDIT_LIMITS } from './limits.js';

export const DISPOSITIONS = ['acknowledged', 'false_positive', 'resolved'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const ALERT_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const satisfies readonly AuditSeverity[];

export interface AlertFilter {
  severity?: (typeof ALERT_SEVERITIES)[number][];
  /** The alert row's action, exactly (e.g. `hook-pre_tool-block`). */
  action?: string;
  connector?: string;
  /** Timestamps compared as stored (Warden writes UTC RFC 3339). */
  since?: string;
  until?: string;
  /** Only alerts with this disposition now; `none`: alerts nobody has disposed of. */
  disposition?: Disposition | 'none';
}

export interface DispositionRequest {
  alertIds?: string[];
  filter?: AlertFilter;
  disposition: Disposition;
  note: string;
  actor?: string;
}

export interface DispositionChange {
  alert_id: string;
  severity: string;
  action: string;
  timestamp: string;
  /** The disposition before this change (absent: none). */
  previous?: Disposition;
}

export interface DispositionPlan {
  /** Alerts the request names that exist. */
  matched: number;
  changes: DispositionChange[];
  /** Alerts that already carry this disposition and note. */
  unchanged: string[];
  /** Named ids that are no alert. */
  not_found: string[];
}

export interface DispositionOfAlert {
  status: Disposition;
  note: string;
  actor?: string;
  updated_at: string;
}

const MAX_ALERTS = AUDIT_LIMITS.maxDispositionAlerts;

export class DispositionFilterTooBroad extends WardenError {
  constructor(count: number) {
    super('WARDEN_ERR_AUDIT_DISPOSITION_TOO_BROAD', `the filter matches ${count} alerts; at most ${MAX_ALERTS} can be disposed of at once: narrow it`, { statusCode: 400 });
  }
}

interface MatchedRow {
  id: string;
  severity: string;
  action: string;
  timestamp: string;
  disposition: Disposition | null;
  note: string | null;
}

const SELECT = `SELECT a.id, a.severity, a.action, a.timestamp, d.disposition, d.note
  FROM alerts a LEFT JOIN alert_dispositions d ON d.alert_id = a.id`;

function matchedRows(db: Database.Database, request: DispositionRequest): { rows: MatchedRow[]; notFound: string[] } {
  if (request.alertIds) {
    const ids = [...new Set(request.alertIds)];
    const rows = db.prepare(`${SELECT} WHERE a.id IN (SELECT value FROM json_each(?)) ORDER BY a.seq`).all(JSON.stringify(ids)) as MatchedRow[];
    const found = new Set(rows.map((r) => r.id));
    return { rows, notFound: ids.filter((id) => !found.has(id)) };
  }
  const f = request.filter ?? {};
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const condition = (sql: string, name?: string, value?: unknown) => {
    where.push(sql);
    if (name !== undefined) params[name] = value;
  };
  if (f.severity?.length) condition('a.severity IN (SELECT value FROM json_each(@severity))', 'severity', JSON.stringify(f.severity));
  if (f.action !== undefined) condition('a.action = @action', 'action', f.action);
  if (f.connector !== undefined) condition('a.connector = @connector', 'connector', f.connector);
  if (f.since !== undefined) condition('a.timestamp >= @since', 'since', f.since);
  if (f.until !== undefined) condition('a.timestamp <= @until', 'until', f.until);
  if (f.disposition === 'none') condition('d.disposition IS NULL');
  else if (f.disposition !== undefined) condition('d.disposition = @disposition', 'disposition', f.disposition);
  const sql = `${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY a.seq LIMIT ${MAX_ALERTS + 1}`;
  const rows = db.prepare(sql).all(params) as MatchedRow[];
  if (rows.length > MAX_ALERTS) {
    const count = (db.prepare(`SELECT count(*) AS n FROM (${sql.replace(/ ORDER BY a\.seq LIMIT \d+$/, '')})`).get(params) as { n: number }).n;
    throw new DispositionFilterTooBroad(count);
  }
  return { rows, notFound: [] };
}

/** What `request` would change; changes nothing. */
export function planDispositions(db: Database.Database, request: DispositionRequest): DispositionPlan {
  const { rows, notFound } = matchedRows(db, request);
  const changes: DispositionChange[] = [];
  const unchanged: string[] = [];
  for (const row of rows) {
    if (row.disposition === request.disposition && (row.note ?? '') === request.note) {
      unchanged.push(row.id);
      continue;
    }
    changes.push({
      alert_id: row.id, severity: row.severity, action: row.action, timestamp: row.timestamp,
      ...(row.disposition ? { previous: row.disposition } : {}),
    });
  }
  return { matched: rows.length, changes, unchanged, not_found: notFound };
}

/** The audit row that records one change. */
export function dispositionAuditEvent(change: DispositionChange, request: DispositionRequest): NewAuditEvent {
  return {
    action: 'alert-disposition',
    target: change.alert_id,
    actor: request.actor,
    severity: 'INFO',
    details: `alert ${change.alert_id} (${change.severity} ${change.action}) ${change.previous ? `${change.previous} -> ` : ''}${request.disposition}` +
      (request.note ? `: ${request.note}` : ''),
    structured: { alert_id: change.alert_id, disposition: request.disposition, previous: change.previous ?? null, note: request.note },
  };
}

/** Stores the disposition of every change (the caller writes the audit rows in the same transaction). */
export function storeDispositions(db: Database.Database, changes: DispositionChange[], request: DispositionRequest, at: string): void {
  const upsert = db.prepare(`INSERT INTO alert_dispositions (alert_id, disposition, note, actor, updated_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(alert_id) DO UPDATE SET disposition = excluded.disposition, note = excluded.note, actor = excluded.actor, updated_at = excluded.updated_at`);
  for (const change of changes) upsert.run(change.alert_id, request.disposition, request.note, request.actor ?? null, at);
}

/** The dispositions of `ids` (alerts without one are absent). */
export function dispositionsOf(db: Database.Database, ids: string[]): Map<string, DispositionOfAlert> {
  const rows = db.prepare(`SELECT alert_id, disposition, note, actor, updated_at FROM alert_dispositions
    WHERE alert_id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as
    { alert_id: string; disposition: Disposition; note: string; actor: string | null; updated_at: string }[];
  return new Map(rows.map((r) => [r.alert_id, { status: r.disposition, note: r.note, ...(r.actor ? { actor: r.actor } : {}), updated_at: r.updated_at }]));
}
