// Audit rows as event records: the audit store tells its observers of every committed row (audit/store.ts), and
// this is the one mapping from those rows to the envelope, so a verdict is sent whether a hook, an inspect route
// or the proxy recorded it. The kind comes from the row's action, the naming every recorder already follows.
import type { CommittedRow } from '../../audit/store.js';
import { EVENT_SCHEMA, type EventRecord, type RecordKind } from './record.js';

/**
 * `hook-<phase>-<action>`, `inspect-<route>-<action>`, `proxy-<route>-<action>`: a verdict (group 1 its lane, group
 * 2 its action). Lanes are listed, not matched loosely: callers of POST /audit/event choose their own action names,
 * and the lane becomes a metrics label, whose values must stay a bounded set.
 */
export const VERDICT_ACTION =
  /^(hook-(?:prompt|pre_tool|post_tool|response|session|other)|inspect-(?:tool|request|response|tool-response)|proxy-(?:chat|passthrough))-(allow|alert|confirm|block)$/;

function kindOfAction(action: string): RecordKind {
  if (VERDICT_ACTION.test(action)) return 'verdict';
  if (action.startsWith('judge-')) return 'judge';
  return 'audit';
}

const defined = <T extends Record<string, unknown>>(object: T): Partial<T> =>
  Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;

export function recordFromAudit(committed: CommittedRow): EventRecord {
  if (committed.table === 'egress') {
    const { id, timestamp, session_id, ...body } = committed.row;
    return {
      schema: EVENT_SCHEMA, kind: 'egress', time: timestamp, id, name: `egress-${body.decision ?? (body.blocked ? 'block' : 'allow')}`,
      anchors: defined({ record_id: id, session_id }), body: defined(body),
    };
  }
  const { id, timestamp, action, severity, session_id, trace_id, evaluation_id, connector, ...body } = committed.row;
  return {
    schema: EVENT_SCHEMA, kind: kindOfAction(action), time: timestamp, id, name: action, severity: severity ?? 'INFO',
    anchors: defined({ record_id: id, session_id, trace_id, evaluation_id, connector }), body: defined(body),
  };
}
