// The record envelope every event writer destination receives (schema `warden.event.v1`, documented in
// docs/telemetry.md): what happened (`kind`, `name`), when, its own id, the identity anchors that tie it to a
// session, trace, evaluation or audit row, and a kind-specific `body`. One shape for every source, so a sink
// never needs to know which part of Warden produced a record.
import Type, { type Static } from 'typebox';
import { RECORD_KINDS } from '../../config/sections/observability.js';

export { RECORD_KINDS };
export type RecordKind = (typeof RECORD_KINDS)[number];

export const EVENT_SCHEMA = 'warden.event.v1';

export const Anchors = Type.Object(
  {
    record_id: Type.Optional(Type.String({ description: 'the audit row (audit_events or network_egress id) this record mirrors' })),
    session_id: Type.Optional(Type.String()),
    trace_id: Type.Optional(Type.String()),
    evaluation_id: Type.Optional(Type.String()),
    tool_invocation_id: Type.Optional(Type.String()),
    connector: Type.Optional(Type.String()),
  },
  { additionalProperties: false, description: 'Identity anchors: the ids that link this record to others (correlation).' },
);

export const EventRecordSchema = Type.Object(
  {
    schema: Type.Literal(EVENT_SCHEMA),
    kind: Type.Union(RECORD_KINDS.map((k) => Type.Literal(k)), {
      description: 'lifecycle (gateway start, reload, stop), verdict (hook, inspect and proxy verdicts), judge, diagnostic ' +
        '(subsystem health changes), egress (network egress records), audit (other audit rows), otlp (agent telemetry)',
    }),
    time: Type.String({ format: 'date-time' }),
    id: Type.String({ description: 'unique id of this record (uuidv7; the audit row id when it mirrors one)' }),
    name: Type.String({ description: 'what happened: the audit action, lifecycle step, subsystem or OTLP event name' }),
    severity: Type.Optional(Type.String()),
    anchors: Anchors,
    body: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

export interface EventRecord extends Omit<Static<typeof EventRecordSchema>, 'kind'> {
  kind: RecordKind;
}
