// Network egress records (table network_egress): an outbound request the proxy forwarded or refused, or one
// an interceptor observed and reported (POST /v1/events/egress, `source: "ts"`).
import { serialiseRowObject } from './row-data.js';

export interface NewEgressRecord {
  timestamp?: string;
  hostname: string;
  path?: string;
  method?: string;
  session_id?: string;
  agent_id?: string;
  root_agent_id?: string;
  user_id?: string;
  blocked: boolean;
  decision?: string;
  branch?: string;
  reason?: string;
  body_shape?: string;
  looks_like_llm?: boolean;
  /** Who saw it: `proxy` (the guardrail proxy itself) or `ts` (an interceptor's report). */
  source: string;
  details?: unknown;
}

export const EGRESS_COLUMNS = [
  'id', 'timestamp', 'hostname', 'path', 'method', 'session_id', 'agent_id', 'root_agent_id', 'user_id',
  'blocked', 'decision', 'branch', 'reason', 'body_shape', 'looks_like_llm', 'source', 'details',
] as const;

export type EgressRow = Record<(typeof EGRESS_COLUMNS)[number], string | number | null>;

/** The record's column values, in EGRESS_COLUMNS order; throws AuditRowRejected when `details` cannot be stored. */
export function egressRowValues(id: string, timestamp: string, r: NewEgressRecord): unknown[] {
  return [
    id,
    timestamp,
    r.hostname,
    r.path ?? null,
    r.method ?? null,
    r.session_id ?? null,
    r.agent_id ?? null,
    r.root_agent_id ?? null,
    r.user_id ?? null,
    r.blocked ? 1 : 0,
    r.decision ?? null,
    r.branch ?? null,
    r.reason ?? null,
    r.body_shape ?? null,
    r.looks_like_llm === undefined ? null : r.looks_like_llm ? 1 : 0,
    r.source,
    r.details === undefined ? null : serialiseRowObject(r.details, 'details'),
  ];
}

/** A stored row back as a record (0/1 columns as booleans, details parsed). */
export function egressFromRow(row: EgressRow): NewEgressRecord & { id: string; timestamp: string } {
  const out: Record<string, unknown> = {};
  for (const column of EGRESS_COLUMNS) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    if (column === 'blocked' || column === 'looks_like_llm') out[column] = value === 1;
    else if (column === 'details') out[column] = JSON.parse(String(value));
    else out[column] = value;
  }
  return out as unknown as NewEgressRecord & { id: string; timestamp: string };
}

/** Filters of `GET /api/v1/network-egress` (each one optional; all given must hold). */
export interface EgressFilter {
  limit: number;
  hostname?: string;
  session_id?: string;
  agent_id?: string;
  root_agent_id?: string;
  user_id?: string;
  blocked?: boolean;
  /** ISO 8601 (UTC, as stored): rows at or after it. */
  since?: string;
}

const EXACT_FILTERS = ['hostname', 'session_id', 'agent_id', 'root_agent_id', 'user_id'] as const;

/** The SELECT of the newest rows matching `filter`, newest first, with its named parameters. */
export function egressQuery(filter: EgressFilter): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: filter.limit };
  for (const column of EXACT_FILTERS) {
    if (filter[column] === undefined) continue;
    where.push(`${column} = @${column}`);
    params[column] = filter[column];
  }
  if (filter.blocked !== undefined) {
    where.push('blocked = @blocked');
    params.blocked = filter.blocked ? 1 : 0;
  }
  if (filter.since !== undefined) {
    where.push('timestamp >= @since');
    params.since = filter.since;
  }
  const clause = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  return { sql: `SELECT ${EGRESS_COLUMNS.join(', ')} FROM network_egress${clause} ORDER BY rowid DESC LIMIT @limit`, params };
}
