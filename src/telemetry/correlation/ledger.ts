// The correlation ledger: what every source recorded about one identity anchor, linked. Sources: the audit trail
// (hook verdicts, inspect verdicts, proxy calls and the rest of audit_events; network_egress), and telemetry.db
// (OTLP agent events and spans). Records of the same session, trace or tool invocation belong together; a hook
// verdict and an OTLP event sharing a tool invocation id are one tool call (one semantic event). `conflicts`
// reports where the sources disagree: a tool call the agent's telemetry says ran with no hook verdict (a hook
// bypass, such as a sub-agent's tool call), or one that ran after its hook verdict blocked it.
// Every listing is a page in (timestamp, record id) order after an opaque cursor: each source is asked for at
// most limit+1 rows past the cursor, so a page costs the same however long the session is.
import type Database from 'better-sqlite3';
import { TELEMETRY_LIMITS } from '../limits.js';
import { decodeCursor, encodeCursor, semanticEventId, toolOfSemanticEvent, type Anchor, type Position } from './anchor.js';

export type ItemKind = 'hook_verdict' | 'inspect_verdict' | 'proxy_call' | 'audit' | 'egress' | 'otlp_event' | 'otlp_span';

export interface LedgerItem {
  record_id: string;
  kind: ItemKind;
  timestamp: string;
  /** Connector or OTLP source. */
  source?: string;
  session_id?: string;
  trace_id?: string;
  span_id?: string;
  tool_invocation_id?: string;
  semantic_event_id?: string;
  tool_name?: string;
  /** The verdict (allow/alert/confirm/block), the agent's decision, or the egress decision. */
  action?: string;
  /** What the record is: the audit action, the OTLP event name, the span name or the egress host. */
  event: string;
  /** OTLP event category (tool_result, api_request, …). */
  category?: string;
}

export interface Page<T> {
  items: T[];
  next_cursor?: string;
}

export interface Conflict {
  kind: 'no_hook_verdict' | 'ran_after_block';
  /** How the telemetry event was matched to hook verdicts. */
  matched_by: 'tool_invocation_id' | 'session_and_tool_name';
  event: LedgerItem;
  /** The hook verdicts the event was compared with. */
  verdicts: LedgerItem[];
}

export interface Edge {
  from: string;
  to: string;
  relation: 'same_tool_call' | 'in_span' | 'child_span';
}

interface Scope {
  sessions: string[];
  traces: string[];
  tools: string[];
  records: string[];
}

interface SourceQuery {
  table: string;
  select: string;
  columns: { id: string; timestamp: string; session?: string; trace?: string; tool?: string };
  toItem(row: Record<string, unknown>): LedgerItem;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function auditKind(action: string): ItemKind {
  if (action.startsWith('hook-')) return 'hook_verdict';
  if (action.startsWith('inspect-')) return 'inspect_verdict';
  if (action.startsWith('proxy-')) return 'proxy_call';
  return 'audit';
}

/** `hook-pre_tool-block` → `block`. */
const verdictOf = (action: string): string | undefined => /-(allow|alert|confirm|block)$/.exec(action)?.[1];

function withSemantic(item: LedgerItem): LedgerItem {
  if (item.tool_invocation_id) item.semantic_event_id = semanticEventId(item.tool_invocation_id);
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as unknown as LedgerItem;
}

const AUDIT_TOOL = "json_extract(structured, '$.tool_invocation_id')";

const SOURCES: SourceQuery[] = [
  {
    table: 'audit_events',
    select: `id, timestamp, action, target, connector, session_id, trace_id, ${AUDIT_TOOL} AS tool_invocation_id, json_extract(structured, '$.phase') AS phase`,
    columns: { id: 'id', timestamp: 'timestamp', session: 'session_id', trace: 'trace_id', tool: AUDIT_TOOL },
    toItem: (r) => {
      const action = String(r.action);
      const kind = auditKind(action);
      return withSemantic({
        record_id: String(r.id), kind, timestamp: String(r.timestamp), source: str(r.connector), session_id: str(r.session_id),
        trace_id: str(r.trace_id), tool_invocation_id: str(r.tool_invocation_id),
        tool_name: kind === 'hook_verdict' && r.phase !== 'prompt' ? str(r.target) : undefined,
        action: verdictOf(action), event: action,
      });
    },
  },
  {
    table: 'network_egress',
    select: 'id, timestamp, hostname, session_id, decision, blocked, source',
    columns: { id: 'id', timestamp: 'timestamp', session: 'session_id' },
    toItem: (r) => withSemantic({
      record_id: String(r.id), kind: 'egress', timestamp: String(r.timestamp), source: str(r.source), session_id: str(r.session_id),
      action: str(r.decision) ?? (r.blocked ? 'block' : 'allow'), event: String(r.hostname),
    }),
  },
  {
    table: 'agent_events',
    select: 'id, timestamp, source, event_name, category, session_id, trace_id, span_id, tool_invocation_id, tool_name, decision',
    columns: { id: 'id', timestamp: 'timestamp', session: 'session_id', trace: 'trace_id', tool: 'tool_invocation_id' },
    toItem: (r) => withSemantic({
      record_id: String(r.id), kind: 'otlp_event', timestamp: String(r.timestamp), source: str(r.source), session_id: str(r.session_id),
      trace_id: str(r.trace_id), span_id: str(r.span_id), tool_invocation_id: str(r.tool_invocation_id), tool_name: str(r.tool_name),
      action: str(r.decision), event: String(r.event_name), category: str(r.category),
    }),
  },
  {
    table: 'spans',
    select: 'id, timestamp, source, name, session_id, trace_id, span_id, parent_span_id, tool_invocation_id',
    columns: { id: 'id', timestamp: 'timestamp', session: 'session_id', trace: 'trace_id', tool: 'tool_invocation_id' },
    toItem: (r) => withSemantic({
      record_id: String(r.id), kind: 'otlp_span', timestamp: String(r.timestamp), source: str(r.source), session_id: str(r.session_id),
      trace_id: str(r.trace_id), span_id: str(r.span_id), tool_invocation_id: str(r.tool_invocation_id), event: String(r.name),
    }),
  },
];

const placeholders = (n: number) => Array(n).fill('?').join(', ');

/** The condition matching a source's rows to the scope (any of its sessions, traces, tool calls or records);
 *  undefined when the source has no column for anything in the scope. */
function scopeWhere(columns: SourceQuery['columns'], scope: Scope): { sql: string; params: unknown[] } | undefined {
  const any: string[] = [];
  const params: unknown[] = [];
  for (const [column, values] of [[columns.session, scope.sessions], [columns.trace, scope.traces], [columns.tool, scope.tools], [columns.id, scope.records]] as const) {
    if (!column || values.length === 0) continue;
    any.push(`${column} IN (${placeholders(values.length)})`);
    params.push(...values);
  }
  return any.length === 0 ? undefined : { sql: any.join(' OR '), params };
}

export class CorrelationLedger {
  constructor(private readonly auditDb: Database.Database, private readonly telemetryDb: Database.Database) {}

  private dbOf(table: string): Database.Database {
    return table === 'audit_events' || table === 'network_egress' ? this.auditDb : this.telemetryDb;
  }

  /** The sessions, traces and tool invocations an anchor stands for. */
  private scope(anchor: Anchor): Scope {
    const scope: Scope = { sessions: [], traces: [], tools: [], records: [] };
    switch (anchor.key) {
      case 'session_id': scope.sessions.push(anchor.value); break;
      case 'trace_id': scope.traces.push(anchor.value.toLowerCase()); break;
      case 'tool_invocation_id': scope.tools.push(anchor.value); break;
      case 'semantic_event_id': scope.tools.push(toolOfSemanticEvent(anchor.value)); break;
      case 'record_id': {
        scope.records.push(anchor.value);
        const found = this.find(anchor.value);
        // A record stands for its tool call when it has one, else for its session, else its trace.
        if (found?.tool_invocation_id) scope.tools.push(found.tool_invocation_id);
        else if (found?.session_id) scope.sessions.push(found.session_id);
        else if (found?.trace_id) scope.traces.push(found.trace_id);
        break;
      }
    }
    return scope;
  }

  private find(id: string): LedgerItem | undefined {
    for (const source of SOURCES) {
      const row = this.dbOf(source.table).prepare(`SELECT ${source.select} FROM ${source.table} WHERE ${source.columns.id} = ? LIMIT 1`).get(id);
      if (row) return source.toItem(row as Record<string, unknown>);
    }
    return undefined;
  }

  private rows(source: SourceQuery, scope: Scope, after: Position | undefined, limit: number, extra = ''): LedgerItem[] {
    const { columns } = source;
    const where = scopeWhere(columns, scope);
    if (!where) return [];
    const params = where.params;
    let sql = `SELECT ${source.select} FROM ${source.table} WHERE (${where.sql})${extra}`;
    if (after) {
      sql += ` AND (${columns.timestamp} > ? OR (${columns.timestamp} = ? AND ${columns.id} > ?))`;
      params.push(after.timestamp, after.timestamp, after.id);
    }
    sql += ` ORDER BY ${columns.timestamp}, ${columns.id} LIMIT ?`;
    params.push(limit);
    return (this.dbOf(source.table).prepare(sql).all(...params) as Record<string, unknown>[]).map(source.toItem);
  }

  /** Every record of the anchor in time order, one page. */
  timeline(anchor: Anchor, cursor?: string, limit: number = TELEMETRY_LIMITS.correlationPageDefault): Page<LedgerItem> {
    const scope = this.scope(anchor);
    const after = decodeCursor(cursor);
    const merged = SOURCES.flatMap((s) => this.rows(s, scope, after, limit + 1))
      .sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.record_id < b.record_id ? -1 : a.record_id > b.record_id ? 1 : 0));
    const items = merged.slice(0, limit);
    const last = items.at(-1);
    return merged.length > limit && last ? { items, next_cursor: encodeCursor({ timestamp: last.timestamp, id: last.record_id }) } : { items };
  }

  /** The page's records as nodes and the links between them. */
  graph(anchor: Anchor, cursor?: string, limit?: number): Page<LedgerItem> & { edges: Edge[] } {
    const page = this.timeline(anchor, cursor, limit);
    const edges: Edge[] = [];
    const byTool = new Map<string, LedgerItem[]>();
    const spans = new Map<string, LedgerItem>();
    for (const item of page.items) {
      if (item.tool_invocation_id) byTool.set(item.tool_invocation_id, [...(byTool.get(item.tool_invocation_id) ?? []), item]);
      if (item.kind === 'otlp_span' && item.span_id) spans.set(item.span_id, item);
    }
    for (const items of byTool.values()) {
      // Every record of one tool call hangs off the first that reported it.
      for (const item of items.slice(1)) edges.push({ from: items[0]!.record_id, to: item.record_id, relation: 'same_tool_call' });
    }
    for (const item of page.items) {
      if (item.kind === 'otlp_event' && item.span_id && spans.has(item.span_id)) {
        edges.push({ from: spans.get(item.span_id)!.record_id, to: item.record_id, relation: 'in_span' });
      }
    }
    return { ...page, edges };
  }

  /** Tool calls the agent's telemetry says ran, with no hook verdict or after a block. */
  conflicts(anchor: Anchor, cursor?: string, limit: number = TELEMETRY_LIMITS.correlationPageDefault): Page<Conflict> {
    const scope = this.scope(anchor);
    const eventSource = SOURCES.find((s) => s.table === 'agent_events')!;
    const conflicts: Conflict[] = [];
    let after = decodeCursor(cursor);
    // Scan the anchor's tool results in chunks until a page of conflicts is found or they run out.
    for (;;) {
      const chunk = this.rows(eventSource, scope, after, limit, " AND category = 'tool_result' AND (success IS NULL OR success = 1)");
      for (const [index, event] of chunk.entries()) {
        const conflict = this.conflictOf(event);
        if (conflict) conflicts.push(conflict);
        if (conflicts.length === limit) {
          const more = index < chunk.length - 1 || chunk.length === limit;
          return more ? { items: conflicts, next_cursor: encodeCursor({ timestamp: event.timestamp, id: event.record_id }) } : { items: conflicts };
        }
      }
      if (chunk.length < limit) return { items: conflicts };
      const last = chunk.at(-1)!;
      after = { timestamp: last.timestamp, id: last.record_id };
    }
  }

  private conflictOf(event: LedgerItem): Conflict | undefined {
    const auditSource = SOURCES[0]!;
    let verdicts: LedgerItem[];
    let matchedBy: Conflict['matched_by'];
    if (event.tool_invocation_id) {
      matchedBy = 'tool_invocation_id';
      verdicts = (this.auditDb.prepare(`SELECT ${auditSource.select} FROM audit_events WHERE ${AUDIT_TOOL} = ? AND action LIKE 'hook-pre\\_tool-%' ESCAPE '\\' ORDER BY timestamp LIMIT 20`)
        .all(event.tool_invocation_id) as Record<string, unknown>[]).map(auditSource.toItem);
    } else if (event.session_id && event.tool_name) {
      // Without an invocation id: the session's latest pre-tool verdict for the same tool, before the event.
      matchedBy = 'session_and_tool_name';
      verdicts = (this.auditDb.prepare(`SELECT ${auditSource.select} FROM audit_events WHERE session_id = ? AND target = ? AND timestamp <= ? AND action LIKE 'hook-pre\\_tool-%' ESCAPE '\\' ORDER BY timestamp DESC LIMIT 1`)
        .all(event.session_id, event.tool_name, event.timestamp) as Record<string, unknown>[]).map(auditSource.toItem);
    } else return undefined;
    if (verdicts.length === 0) return { kind: 'no_hook_verdict', matched_by: matchedBy, event, verdicts };
    if (verdicts.some((v) => v.action === 'block')) return { kind: 'ran_after_block', matched_by: matchedBy, event, verdicts };
    return undefined;
  }

  /** What the anchor stands for and how its sources agree, with the first page of its timeline. */
  explain(anchor: Anchor, cursor?: string, limit?: number): Record<string, unknown> & { records: Page<LedgerItem> } {
    const scope = this.scope(anchor);
    const counts: Record<string, number> = {};
    const count = (db: Database.Database, table: string, cols: SourceQuery['columns'], group: string) => {
      const where = scopeWhere(cols, scope);
      if (!where) return;
      for (const row of db.prepare(`SELECT ${group} AS k, count(*) AS n FROM ${table} WHERE ${where.sql} GROUP BY k`).all(...where.params) as { k: string; n: number }[]) {
        counts[row.k] = (counts[row.k] ?? 0) + row.n;
      }
    };
    for (const s of SOURCES) {
      const group = s.table === 'audit_events'
        ? "CASE WHEN action LIKE 'hook-%' THEN 'hook_verdict' WHEN action LIKE 'inspect-%' THEN 'inspect_verdict' WHEN action LIKE 'proxy-%' THEN 'proxy_call' ELSE 'audit' END"
        : `'${s.table === 'network_egress' ? 'egress' : s.table === 'agent_events' ? 'otlp_event' : 'otlp_span'}'`;
      count(this.dbOf(s.table), s.table, s.columns, group);
    }
    const firstConflicts = this.conflicts(anchor, undefined, TELEMETRY_LIMITS.correlationPageMax);
    return {
      anchor,
      scope: { session_ids: scope.sessions, trace_ids: scope.traces, tool_invocation_ids: scope.tools },
      counts,
      hook_bypasses: firstConflicts.items.filter((c) => c.kind === 'no_hook_verdict').length,
      ran_after_block: firstConflicts.items.filter((c) => c.kind === 'ran_after_block').length,
      conflicts_truncated: firstConflicts.next_cursor !== undefined,
      records: this.timeline(anchor, cursor, limit),
    };
  }
}
