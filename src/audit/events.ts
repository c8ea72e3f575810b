// Audit event shapes and their mapping to audit_events rows, shared by the store and the readers.
import { serialiseRowObject } from './row-data.js';

export const AUDIT_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'NONE'] as const;
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

export interface NewAuditEvent {
  action: string;
  /** RFC 3339; defaults to the moment of append. */
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

export const COLUMNS = [
  'id', 'timestamp', 'action', 'target', 'actor', 'severity', 'details', 'structured',
  'connector', 'session_id', 'trace_id', 'evaluation_id', 'schema',
] as const;

export type Row = Record<(typeof COLUMNS)[number], string | null>;

/** The row's column values, in COLUMNS order; throws AuditRowRejected when `structured` cannot be stored. */
export function rowValues(id: string, timestamp: string, e: NewAuditEvent): unknown[] {
  return [
    id,
    timestamp,
    e.action,
    e.target ?? null,
    e.actor ?? null,
    e.severity ?? 'INFO',
    e.details ?? null,
    e.structured === undefined ? null : serialiseRowObject(e.structured, 'structured'),
    e.connector ?? null,
    e.session_id ?? null,
    e.trace_id ?? null,
    e.evaluation_id ?? null,
    e.schema ?? null,
  ];
}

export function fromRow(row: Row): AuditEvent {
  const event: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    event[column] = column === 'structured' ? JSON.parse(value) : value;
  }
  return event as unknown as AuditEvent;
}
