// OTLP-derived records for the event writer: what the receiver kept (records.ts), in the envelope of record.ts,
// with the same identity anchors the correlation ledger uses. Prompt text travels only when
// `telemetry.store_prompt_text` put it in the record; the writer redacts every string before it leaves.
import { EVENT_SCHEMA, type EventRecord } from './record.js';
import type { TelemetryRecord } from '../records.js';
import type { Signal } from '../otlp/proto.js';

export function recordFromOtlp(record: TelemetryRecord): EventRecord {
  const name = record.record_type === 'agent_event' ? record.event_name : record.name;
  const toolInvocation = record.record_type === 'metric' ? undefined : record.tool_invocation_id;
  return {
    schema: EVENT_SCHEMA,
    kind: 'otlp',
    time: record.timestamp,
    id: record.id,
    name,
    anchors: {
      connector: record.source,
      ...(record.session_id ? { session_id: record.session_id } : {}),
      ...(record.trace_id ? { trace_id: record.trace_id } : {}),
      ...(toolInvocation ? { tool_invocation_id: toolInvocation } : {}),
    },
    body: { ...record },
  };
}

/** The OTLP signal a stored record came from, for the `warden_otlp_records_received_total` counter. */
export function otlpSignal(record: TelemetryRecord): Signal {
  if (record.record_type === 'span') return 'traces';
  return record.record_type === 'metric' ? 'metrics' : 'logs';
}
